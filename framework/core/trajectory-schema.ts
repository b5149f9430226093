import { z } from 'zod';
import { UiNodeSchema } from '../../device-runtime/protocol/index.js';
import { AiStepRecordSchema } from '../ai/record.js';
import { VisualRecordSchema } from '../visual/record.js';
import { NetworkRecordSchema } from '../network/record.js';

/**
 * The `nestwright-trajectory` attachment, as zod schemas: what the framework writes
 * (framework/core/trajectory.ts records steps of these types) and what reports read
 * (reporters/allure parses the attachment with them, adding defaults for older files). Every
 * type is inferred from here; there is no second definition.
 */

export { TRAJECTORY_ATTACHMENT } from './trajectory-attachment.js';

/** Names of test attachments (PNG screenshots, JSON observations) taken before and after a step. */
export const StepAttachmentsSchema = z.object({ before: z.string().optional(), after: z.string().optional() });

/** When a model arbitrated a heal: which model, what it was offered, what it chose, at what cost. */
export const HealArbitrationSchema = z.object({
  model: z.string(),
  offered: z.array(z.string()),
  choice: z.string(),
  reason: z.string(),
  tokens: z.number(),
  costUsd: z.number(),
  latencyMs: z.number(),
});
/** When a model arbitrated a heal: which model, what it was offered, what it chose, at what cost. */
export type HealArbitration = z.infer<typeof HealArbitrationSchema>;

/** One recorded step of a test: what was done, to what, what the screen was before and after. */
export const TrajectoryStepSchema = z.object({
  index: z.number().int(),
  kind: z.enum(['action', 'assertion', 'app']),
  api: z.string(),
  title: z.string(),
  selector: z.string().nullable(),
  node: UiNodeSchema.nullable(),
  before: z.string().nullable().describe('Snapshot id of the screen before the step'),
  after: z.string().nullable().describe('Snapshot id of the screen after the step'),
  screenshots: StepAttachmentsSchema.describe('Names of the PNG attachments before/after the step'),
  observations: StepAttachmentsSchema.optional().describe(
    'Names of attachments holding the compact observation (JSON) before/after the step',
  ),
  startedAt: z.number(),
  durationMs: z.number(),
  result: z.enum(['ok', 'failed']),
  error: z.object({ code: z.string().optional(), message: z.string() }).nullable(),
  source: z.enum(['locator', 'ai', 'skill', 'healed', 'function']),
  instance: z.string().nullable(),
  roundTrips: z
    .number()
    .int()
    .optional()
    .describe('Tool calls the step made (one per look, action and check; one in all on the `selector_actions` path)'),
  heal: z
    .object({
      from: z.string(),
      to: z.string(),
      score: z.number(),
      margin: z.number(),
      proposal: z.string(),
      by: z.enum(['score', 'model']).optional(),
      arbitration: HealArbitrationSchema.optional(),
    })
    .optional()
    .describe("Set when the step ran on a healed locator (source 'healed'): from what, to what, how sure"),
  function: z
    .object({
      package: z.string(),
      id: z.string(),
      params: z.record(z.string(), z.unknown()),
      result: z.unknown().optional(),
      by: z
        .enum(['locator', 'ai', 'skill', 'healed', 'function'])
        .describe('Who called it: a spec, a skill step, an AI step'),
    })
    .optional()
    .describe(
      "App function calls (source 'function', app.functions.call): which function, with what, what it returned",
    ),
  ai: AiStepRecordSchema.optional().describe(
    "AI steps (source 'ai'): instruction, tool calls, verdict and evidence, usage, cost, cache",
  ),
  visual: VisualRecordSchema.optional().describe(
    "Visual comparisons (toHaveScreenshot): baseline, outcome, pixels differing, tolerance, masks, the pictures' attachments",
  ),
});
/** One recorded step of a test: what was done, to what, what the screen was before and after. */
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

/** Where the test ran, for reports. */
export const TrajectoryMetaSchema = z.object({
  device: z.string().optional().describe('Provider and id/serial, e.g. "sim" or "nestspace emulator-5554"'),
  space: z.string().optional(),
  instance: z.string().nullable().optional(),
  package: z.string().optional(),
  versionName: z.string().optional(),
  versionCode: z.union([z.string(), z.number()]).optional(),
  channel: z.string().optional(),
  faultProfile: z.string().optional(),
  options: z.record(z.string(), z.unknown()).optional().describe('The effective test.use options'),
});
/** Where the test ran, for reports. */
export type TrajectoryMeta = z.infer<typeof TrajectoryMetaSchema>;

/** Names of test attachments written when the test failed: the full accessibility tree (JSON) and the instance's logcat. */
export const TrajectoryFailureSchema = z.object({
  tree: z.string().optional(),
  logcat: z.string().optional(),
  har: z.string().optional().describe("The HAR of the test's requests (docs/network.md)"),
  video: z
    .array(z.string())
    .optional()
    .describe('The video attachments, one per instance the test used (docs/video.md)'),
  logs: z
    .array(z.string())
    .optional()
    .describe('The device log attachments, one per instance the test used (docs/fixtures.md#device-logs)'),
  crashes: z
    .array(z.string())
    .optional()
    .describe('The crash and ANR attachments, one per instance that crashed or stopped answering'),
});
/** Names of the attachments a failed test kept, by kind. */
export type TrajectoryFailure = z.infer<typeof TrajectoryFailureSchema>;

/** The attachment body, version 1. */
export const TrajectorySchema = z.object({
  version: z.literal(1),
  steps: z.array(TrajectoryStepSchema),
  meta: TrajectoryMetaSchema.optional(),
  failure: TrajectoryFailureSchema.optional(),
  network: z
    .array(NetworkRecordSchema)
    .optional()
    .describe("Every request the test's instances made through their proxies (docs/network.md)"),
});
/** The attachment body, version 1. */
export type TrajectoryDoc = z.infer<typeof TrajectorySchema>;

/**
 * The one name of an instance's device log attachment (`logcat com.nestwright.notes@2`), in the
 * test's attachments, the trajectory's `failure.logs`, Allure and the MCP server's failure reader.
 */
export const deviceLogName = (who: string): string => `logcat ${who}`;

/** The one name of an instance's crash and ANR report attachment (`crash com.nestwright.shop@1`). */
export const crashReportName = (who: string): string => `crash ${who}`;
