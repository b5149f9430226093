import { z } from 'zod';
import { TOOL_LIST } from './registry.js';

/** JSON Schema (draft 2020-12) of a tool's input, derived from its zod schema. */
export function inputJsonSchema(tool: (typeof TOOL_LIST)[number]): Record<string, unknown> {
  return z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

export function resultJsonSchema(tool: (typeof TOOL_LIST)[number]): Record<string, unknown> {
  return z.toJSONSchema(tool.result, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
}
