import type { TestInfo } from '@playwright/test';
import { DeviceOptionsSchema } from '../../device-runtime/providers/index.js';
import type { App } from '../core/app.js';
import type { Device } from '../core/device.js';
import type { InstanceFeature, TestEnd } from '../core/lifecycle.js';
import type { TestContext } from '../core/running-test.js';
import { renamedOption } from './use-options.js';

/**
 * What the fixtures of `fixtures.ts` do around a test — which workers share a simulator, the
 * check that `device` is a connection, how long clean-up waits, what a failed test keeps — kept
 * apart so that `fixtures.ts` reads as the fixture graph alone.
 */

/** The sim settings that decide whether a worker needs a simulator of its own, as one key. */
export function simSettings(options: unknown): string {
  const parsed = DeviceOptionsSchema.safeParse(options ?? { provider: 'sim' });
  if (!parsed.success || parsed.data.provider !== 'sim') return '';
  const { faults, seed, slots } = parsed.data;
  return JSON.stringify([faults, seed, slots]);
}

/**
 * The `device` fixture's value, checked: test.use({ device: { provider: … } }) replaces the
 * fixture with the options, which have no client.
 */
export function connected(device: Device): Device {
  if (!('client' in device)) throw renamedOption('device', { value: device });
  return device;
}

/**
 * How long clean-up waits for the timed-out body's steps to fail. They end at once when aborted
 * (tool calls and waits stop on the signal); only work that does not listen to it (a model's
 * answer to an AI step) can take longer, and is then not waited for.
 */
export const STEP_END_GRACE_MS = 2_000;

/** Until every promise has settled, or `ms` pass. */
export async function settleWithin(work: Array<Promise<unknown>>, ms: number): Promise<void> {
  if (work.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([Promise.allSettled(work), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/** The lifecycle's view of the test's end (core/lifecycle.ts): its outcome, instances and where files go. */
export function testEnd(testInfo: TestInfo, ctx: TestContext): TestEnd {
  const failed = testInfo.status !== testInfo.expectedStatus;
  return {
    outcome: {
      status: testInfo.status ?? 'passed',
      expectedStatus: testInfo.expectedStatus,
      failed,
      retry: testInfo.retry,
    },
    instances: ctx.launched.map((app) => app.driver),
    startedAt: ctx.trajectory.startedAt,
    attach: ({ name, ...a }) => testInfo.attach(name, a),
    steps: ctx.trajectory.steps,
    annotations: testInfo.annotations,
    failureArtifact: (key, name) => {
      const failure = { ...ctx.trajectory.failure };
      if (key === 'har' || key === 'tree' || key === 'logcat') failure[key] = name;
      else failure[key] = [...(failure[key] ?? []), name];
      ctx.trajectory.failure = failure;
    },
    outputPath: (...segments) => testInfo.outputPath(...segments),
  };
}

/**
 * A failed test keeps the full accessibility tree of its app (the `app` fixture's instance), as an
 * attachment the trajectory names (`failure.tree`) so reports can show it on the test: a
 * lifecycle feature the `app` fixture adds. The instances' logs are the `deviceLogs` feature's.
 */
export function failureTreeFeature(app: App): InstanceFeature {
  return {
    name: 'failure tree',
    async ended(end) {
      if (!end.outcome.failed) return;
      const d = app.driver;
      const tree = await d
        .wrap('test', {}, (call) =>
          d.calls.afterTest(call, 'ui_observe', { space_id: d.spaceId, detail: 'full', max_nodes: 5000 }),
        )
        .catch(() => null);
      if (!tree) return;
      await end.attach({ name: 'full tree', body: JSON.stringify(tree, null, 2), contentType: 'application/json' });
      end.failureArtifact('tree', 'full tree');
    },
  };
}

/**
 * Whether the test failed before its body ran: a timeout or interruption (Playwright's "… while
 * setting up "space"" among them), or an error that none of the test file's lines threw (a
 * fixture's setup). An error of the body, as `app.getByText is not a function` on a string
 * given for `app`, has the test file on its stack.
 */
export function setupFailed(testInfo: TestInfo): boolean {
  if (testInfo.status === 'timedOut' || testInfo.status === 'interrupted') return true;
  return testInfo.errors.some((e) => !(e.stack ?? e.message ?? '').includes(testInfo.file));
}
