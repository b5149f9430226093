import { z } from 'zod';
import { BoundsSchema } from '../common.js';

/**
 * What an AI step adds to its trajectory record (`step.ai`, with `source: 'ai'`): the
 * instruction, every tool call with its node and the screens before and after, the verdict and
 * its evidence, usage, cost, latency and whether the cache answered. Screens are stored once per
 * snapshot, as the compact text the model saw — a few kB per step, not screenshots.
 */
export const AiToolCallSchema = z.object({
  turn: z.number().int(),
  tool: z.string(),
  input: z.record(z.string(), z.unknown()),
  node: z.string().nullable().describe('The node acted on, as one line'),
  bounds: BoundsSchema.nullable(),
  selector: z.string().nullable(),
  before: z.string().nullable().describe('Snapshot id of the screen the call was made on'),
  after: z.string().nullable(),
  result: z.enum(['ok', 'refused', 'failed']),
  message: z.string().optional(),
  source: z.enum(['model', 'cache']),
});
export type AiToolCall = z.infer<typeof AiToolCallSchema>;

/** The record of a model's tool call as it is made: refused until it runs (the caller completes it in place). */
export function newToolCall(turn: number, tool: string, input: unknown, before: string): AiToolCall {
  return {
    turn,
    tool,
    input: (typeof input === 'object' && input !== null ? input : { arguments: input }) as Record<string, unknown>,
    node: null,
    bounds: null,
    selector: null,
    before,
    after: null,
    result: 'refused',
    source: 'model',
  };
}

export const AiEvidenceSchema = z.object({ id: z.string(), line: z.string(), bounds: BoundsSchema });

export const AiStepRecordSchema = z.object({
  verb: z.enum(['act', 'assert', 'extract', 'waitFor', 'toSatisfy']),
  instruction: z.string(),
  model: z.string(),
  cache: z.enum(['hit', 'miss', 'healed', 'stale', 'off', 'none']).describe('none: the verb is never cached'),
  turns: z.number().int(),
  calls: z.array(AiToolCallSchema),
  verdict: z
    .object({ pass: z.boolean(), reason: z.string(), evidence: z.array(AiEvidenceSchema), grounded: z.boolean() })
    .optional(),
  value: z.unknown().optional(),
  summary: z.string().optional(),
  usage: z.object({
    input: z.number(),
    output: z.number(),
    cacheRead: z.number(),
    cacheWrite: z.number(),
    requests: z.number(),
  }),
  costUsd: z.number(),
  latencyMs: z.number().describe('Time spent waiting for the model'),
  screens: z.record(z.string(), z.string()).describe('Snapshot id → the screen as the model saw it'),
});
/** What an AI step records in the trajectory: instruction, tool calls, verdict and evidence, usage, cost, cache. */
export type AiStepRecord = z.infer<typeof AiStepRecordSchema>;
