import { z } from 'zod';
import { describeIssues } from '../../device-runtime/protocol/index.js';
import {
  StepAttachmentsSchema,
  TRAJECTORY_ATTACHMENT,
  TrajectorySchema as FrameworkTrajectorySchema,
  TrajectoryStepSchema as FrameworkStepSchema,
} from '../../framework/core/trajectory-schema.js';

/**
 * What the Allure reporter reads from a test's `nestwright-trajectory` attachment (written by
 * framework/runner/fixtures.ts, its schema in framework/core/trajectory-schema.ts). Version 1 is the
 * framework's `{ version, steps }`; the optional fields below are read when present:
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
export { TRAJECTORY_ATTACHMENT, type TrajectoryMeta } from '../../framework/core/trajectory-schema.js';
/** Default names of the failure attachments when `failure` does not name them. */
export const TREE_ATTACHMENT = 'nestwright-tree';
export const LOGCAT_ATTACHMENT = 'nestwright-logcat';

/**
 * The framework's step as the reporter reads it: attachments written before `screenshots` was
 * always set, or by other producers, may lack it or name another `source`.
 */
export const TrajectoryStepSchema = FrameworkStepSchema.extend({
  screenshots: StepAttachmentsSchema.default({}),
  source: z.string().default('locator'),
});
/** One step of a test's trajectory attachment, as the reporter reads (and validates) it. */
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

export const TrajectorySchema = FrameworkTrajectorySchema.extend({ steps: z.array(TrajectoryStepSchema) });
export type TrajectoryDoc = z.infer<typeof TrajectorySchema>;

/** Parse an attachment body; on failure say which field was wrong (`steps[3].node.bounds: …`). */
export function parseTrajectory(
  body: Buffer | string,
): { ok: true; value: TrajectoryDoc } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString());
  } catch (e) {
    return { ok: false, error: `${TRAJECTORY_ATTACHMENT}: not JSON (${(e as Error).message})` };
  }
  const r = TrajectorySchema.safeParse(json);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, error: `${TRAJECTORY_ATTACHMENT}: ${describeIssues(r.error)}` };
}
