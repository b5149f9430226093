import { z } from 'zod';
import { UiNodeSchema } from '../../device-runtime/protocol/index.js';
import { AiStepRecordSchema } from '../../framework/ai/record.js';

/**
 * What the Allure reporter reads from a test's `nestwright-trajectory` attachment (written by
 * framework/fixtures.ts). Version 1 is the framework's `{ version, steps }`; the optional fields
 * below are read when present, so the framework can add them without a reporter change:
 *
 *   steps[].observations   names of test attachments holding the compact observation (JSON)
 *                          before/after the step, the way `screenshots` names PNG attachments
 *   meta                   where the test ran: device, space, instance, app package and version,
 *                          channel, fault profile, and the effective `test.use` options
 *   steps[].ai             AI steps: instruction, tool calls, verdict with evidence nodes, usage, cost
 *   failure                names of test attachments written when the test failed: the full
 *                          accessibility tree (JSON) and the instance's logcat (text); without
 *                          it, attachments named `nestwright-tree` and `nestwright-logcat` are used
 *
 * Parsed here, at the boundary, because the attachment is data from another process: a malformed
 * one is reported on the test (with the path of the bad field), never trusted.
 */
export const TRAJECTORY_ATTACHMENT = 'nestwright-trajectory';
/** Default names of the failure attachments when `failure` does not name them. */
export const TREE_ATTACHMENT = 'nestwright-tree';
export const LOGCAT_ATTACHMENT = 'nestwright-logcat';

const RefsSchema = z.object({ before: z.string().optional(), after: z.string().optional() });

export const TrajectoryStepSchema = z.object({
  index: z.number().int(),
  kind: z.enum(['action', 'assertion', 'app']),
  api: z.string(),
  title: z.string(),
  selector: z.string().nullable(),
  node: UiNodeSchema.nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  screenshots: RefsSchema.default({}),
  observations: RefsSchema.optional(),
  startedAt: z.number(),
  durationMs: z.number(),
  result: z.enum(['ok', 'failed']),
  error: z.object({ code: z.string().optional(), message: z.string() }).nullable(),
  source: z.string().default('locator'),
  instance: z.string().nullable(),
  heal: z
    .object({
      from: z.string(),
      to: z.string(),
      score: z.number(),
      margin: z.number(),
      proposal: z.string(),
      by: z.enum(['score', 'model']).optional(),
      arbitration: z.object({ model: z.string(), offered: z.array(z.string()), choice: z.string(), reason: z.string(), tokens: z.number(), costUsd: z.number(), latencyMs: z.number() }).optional(),
    })
    .optional(),
  /** AI steps (source 'ai'): instruction, tool calls, verdict and evidence, usage and cost. */
  ai: AiStepRecordSchema.optional(),
});
/** One step of a test's trajectory attachment, as the reporter reads (and validates) it. */
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

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
export type TrajectoryMeta = z.infer<typeof TrajectoryMetaSchema>;

export const TrajectorySchema = z.object({
  version: z.literal(1),
  steps: z.array(TrajectoryStepSchema),
  meta: TrajectoryMetaSchema.optional(),
  failure: z.object({ tree: z.string().optional(), logcat: z.string().optional() }).optional(),
});
export type TrajectoryDoc = z.infer<typeof TrajectorySchema>;

/** Parse an attachment body; on failure say which field was wrong (`steps.3.node.bounds: …`). */
export function parseTrajectory(body: Buffer | string): { ok: true; value: TrajectoryDoc } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString());
  } catch (e) {
    return { ok: false, error: `${TRAJECTORY_ATTACHMENT}: not JSON (${(e as Error).message})` };
  }
  const r = TrajectorySchema.safeParse(json);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0]!;
  return { ok: false, error: `${TRAJECTORY_ATTACHMENT}: ${issue.path.join('.') || '(root)'}: ${issue.message}` };
}
