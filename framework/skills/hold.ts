import type { Check } from '../../device-runtime/protocol/skill/index.js';
import { describeCheck } from '../../device-runtime/protocol/skill/index.js';
import type { ApiCall } from '../core/api-call.js';
import { describeScreen, TimeoutError } from '../core/errors.js';
import type { AppPort } from '../core/port.js';
import { waitCheck } from './checks.js';

/** A step did not apply (its `when` did not hold, or an optional target was not there). */
export class Skipped extends Error {}

/** Wait for a check, as a step of its own; a check that does not hold fails with the screen. */
export async function hold(
  app: AppPort,
  phase: 'pre' | 'post' | 'assert',
  check: Check,
  timeout: number,
  call: ApiCall,
  optional: boolean,
): Promise<void> {
  const label = phase === 'assert' ? 'Expect' : phase === 'pre' ? 'Precondition' : 'Post-check';
  await app.wrap(`skill.${phase}`, {}, (checkCall) =>
    app.step(
      checkCall,
      { kind: 'assertion', title: `${label}: ${describeCheck(check)}`, selector: null },
      async (record) => {
        const r = await waitCheck(app, check, timeout, call);
        record.before = record.after = r.obs?.snapshot_id ?? null;
        if (r.pass) return;
        if (optional) throw new Skipped(`skipped: precondition ${describeCheck(check)} did not hold (${r.received})`);
        const what =
          phase === 'pre' ? 'precondition not met' : phase === 'post' ? 'post-check failed' : 'assertion failed';
        throw new TimeoutError(
          call,
          `${what}: ${describeCheck(check)} did not hold within ${timeout}ms\n  Expected: ${describeCheck(check)}\n  Received: ${r.received}\nScreen:\n${describeScreen(r.obs)}`,
          [],
          r.obs,
        );
      },
    ),
  );
}
