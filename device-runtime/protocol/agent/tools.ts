import { z } from 'zod';
import type { ToolSpec } from './adapter.js';

/**
 * The tools offered to the model — fixed by the contract, so tests and the stand-in rely on them —
 * the same for `app.ai.act` and the device's `task_run`.
 * Each tool's input is a zod schema; the JSON Schema the model sees is derived from it, and what
 * the model sends back is parsed with the same schema (a malformed input is refused back to it).
 */
const nodeId = z.string().min(1).describe('The id of a node on the current screen, e.g. "n_5"');

export const ACT_KEYS = ['back', 'enter', 'tab', 'delete', 'search'] as const;

export const ActInputs = {
  tap: z.strictObject({ node_id: nodeId }),
  long_press: z.strictObject({ node_id: nodeId }),
  type_text: z.strictObject({
    node_id: nodeId,
    text: z.string().describe('Replaces the field text. Write a {placeholder} to type a parameter, e.g. "{password}"'),
  }),
  scroll: z.strictObject({
    direction: z.enum(['up', 'down', 'left', 'right']).describe('Which way to move through the content'),
    node_id: nodeId.optional().describe('The scrollable node; default: the largest one'),
  }),
  press_key: z.strictObject({ key: z.enum(ACT_KEYS) }),
  done: z.strictObject({ summary: z.string().describe('What was done, in one sentence') }),
  give_up: z.strictObject({ reason: z.string().describe('Why the instruction cannot be carried out on this app') }),
} as const;

const DESCRIPTIONS: Record<keyof typeof ActInputs, string> = {
  tap: 'Tap a node of the current screen.',
  long_press: 'Long-press a node of the current screen.',
  type_text: 'Set the text of an editable node.',
  scroll: 'Scroll a list to show more of it.',
  press_key: 'Press a key. Keys that leave the app are not offered.',
  done: 'The instruction is carried out and the screen shows it. Call alone, after looking at the latest screen.',
  give_up: 'The instruction cannot be carried out. The step fails with the reason.',
};

/** One tool call of an act turn, as data: parsed with a discriminated union, dispatched exhaustively. */
export const ActCallSchema = z.discriminatedUnion('name', [
  z.object({ name: z.literal('tap'), input: ActInputs.tap }),
  z.object({ name: z.literal('long_press'), input: ActInputs.long_press }),
  z.object({ name: z.literal('type_text'), input: ActInputs.type_text }),
  z.object({ name: z.literal('scroll'), input: ActInputs.scroll }),
  z.object({ name: z.literal('press_key'), input: ActInputs.press_key }),
  z.object({ name: z.literal('done'), input: ActInputs.done }),
  z.object({ name: z.literal('give_up'), input: ActInputs.give_up }),
]);
export type ActCall = z.infer<typeof ActCallSchema>;

export const VerdictSchema = z.strictObject({
  pass: z.boolean().describe('Whether the statement is true of the screen'),
  evidence_node_ids: z.array(nodeId).describe('The nodes that show it (required when pass is true)'),
  reason: z.string().describe('One sentence; quote on-screen text exactly, in double quotes'),
});
export type Verdict = z.infer<typeof VerdictSchema>;

function spec(name: string, description: string, schema: z.ZodType): ToolSpec {
  const inputSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete inputSchema.$schema;
  return { name, description, inputSchema };
}

export const ACT_TOOLS: ToolSpec[] = (Object.keys(ActInputs) as Array<keyof typeof ActInputs>).map((k) =>
  spec(k, DESCRIPTIONS[k], ActInputs[k]),
);

export const VERDICT_TOOL: ToolSpec = spec(
  'verdict',
  'Your verdict on the statement, grounded on nodes of the screen.',
  VerdictSchema,
);

/** The `answer` tool: `value` is the user's schema, as JSON Schema. */
export function answerTool(value: z.ZodType): { tool: ToolSpec; schema: z.ZodType } {
  const schema = z.strictObject({
    value,
    evidence_node_ids: z.array(nodeId).min(1).describe('The nodes the value was read from'),
  });
  return {
    tool: spec('answer', 'The answer to the question, read from the screen, with the nodes it was read from.', schema),
    schema,
  };
}

/** The prefix of an app function's tool name (`fn_createNote`): no act tool starts with it. */
export const FUNCTION_TOOL_PREFIX = 'fn_';

/**
 * The app's declared functions (AppFunctions, `appfn_list`) as tools beside the UI actions: the
 * model sees each one's description and parameters' JSON Schema, and calls it by `fn_<id>`.
 */
export function functionTools(
  fns: ReadonlyArray<{ name: string; description: string; parameters: Record<string, unknown>; dangerous: boolean }>,
): ToolSpec[] {
  return fns
    .filter((f) => /^[A-Za-z0-9_-]{1,60}$/.test(f.name))
    .map((f) => {
      const { $schema: _, ...inputSchema } = f.parameters;
      return {
        name: `${FUNCTION_TOOL_PREFIX}${f.name}`,
        description: `A function the app declares: ${f.description}${f.dangerous ? ' (marked dangerous: it may need a human approval)' : ''} It does the task directly, without the screens.`,
        inputSchema: { type: 'object', ...inputSchema },
      };
    });
}
