import { z } from 'zod';
import { TOOL_LIST } from './registry.js';
import { outputSchemaOf } from './wire.js';

type Tool = (typeof TOOL_LIST)[number];

/**
 * zod's JSON Schema (draft 2020-12), with one change for interoperability: tuples of one item
 * type (bounds, points) become `items` + `minItems`/`maxItems` instead of `prefixItems`. Many
 * MCP clients validate with draft-07 validators (the MCP SDK's Ajv among them) which do not know
 * `prefixItems` and then apply zod's `items: false` to every element, rejecting every valid
 * observation; the rewritten form means the same in every draft.
 */
function toJson(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const prefix = jsonSchema.prefixItems;
      if (zodSchema._zod.def.type !== 'tuple' || !Array.isArray(prefix) || prefix.length === 0) return;
      const first = JSON.stringify(prefix[0]);
      if (!prefix.every((p) => JSON.stringify(p) === first)) return;
      delete jsonSchema.prefixItems;
      Object.assign(jsonSchema, { items: prefix[0], minItems: prefix.length, maxItems: prefix.length });
    },
  }) as Record<string, unknown>;
}

/** JSON Schema of a tool's input, derived from its zod schema (MCP `inputSchema`). */
export function inputJsonSchema(tool: Tool): Record<string, unknown> {
  return toJson(tool.input, 'input');
}

/** JSON Schema of a tool's full result, derived from its zod schema. */
export function resultJsonSchema(tool: Tool): Record<string, unknown> {
  return toJson(tool.result, 'output');
}

/** JSON Schema of what the tool's MCP structuredContent holds: its `outputSchema` (wire.ts). */
export function outputJsonSchema(tool: Tool): Record<string, unknown> {
  return toJson(outputSchemaOf(tool as never), 'output');
}
