import { NestwrightError } from '../errors.js';
import type { InstanceFeature, TestEnd } from '../core/lifecycle.js';
import type { InstancePort } from '../port.js';
import { crashReportName, deviceLogName } from '../trajectory-schema.js';
import { crashesIn } from './crashes.js';

/**
 * `use.deviceLogs`: the log lines of every instance a test used — its own processes, not the
 * device's — attached to the test: `'retain-on-failure'` (the default) when it failed, `'on'`
 * always, `'off'` never. Crashes and ANRs found in them are attached on their own.
 */
export type DeviceLogsMode = 'off' | 'on' | 'retain-on-failure';

const MODES: readonly DeviceLogsMode[] = ['off', 'on', 'retain-on-failure'];

/** At most this many lines per instance (the protocol's limit for one `sys_logcat`). */
const MAX_LINES = 10_000;

/** The option, checked: an unknown value is refused with what to write. */
export function deviceLogsMode(value: unknown): DeviceLogsMode {
  if (value === undefined || value === null) return 'retain-on-failure';
  if (typeof value === 'string' && (MODES as readonly string[]).includes(value)) return value as DeviceLogsMode;
  throw new NestwrightError(
    'use.deviceLogs',
    `expected ${MODES.map((m) => `'${m}'`).join(', ')}, got ${JSON.stringify(value)}`,
    { code: 'USAGE' },
  );
}

/**
 * Device logs as a lifecycle feature: each instance's lines since the test began, read when the
 * test ends (or when the instance is closed before: its lines go with it), attached as
 * `logcat <package>@<instance>`; each crash or ANR in them as `crash <package>@<instance>`.
 * Costs one `sys_logcat` per instance kept (none for a passing test under the default).
 */
export function deviceLogsFeature(mode: DeviceLogsMode): InstanceFeature | null {
  if (mode === 'off') return null;
  // The test's lines only: a runtime without instances keeps one log per package across tests.
  const since = Date.now();
  const used = new Set<InstancePort>();
  /** Lines of instances closed before the test ended, read as they closed. */
  const early = new Map<InstancePort, string[]>();
  let ended = false;
  const read = (instance: InstancePort) =>
    instance.wrap('use.deviceLogs', {}, (call) =>
      instance.logcat(call, { maxLines: MAX_LINES, sinceMs: since, afterTest: true }),
    );
  return {
    name: 'deviceLogs',
    launched(instance) {
      used.add(instance);
    },
    async closing(instance) {
      // Closed by the test (app.close()) before it ended: its lines are read now, while it exists.
      if (used.has(instance) && !ended) early.set(instance, await read(instance).catch(() => []));
    },
    async ended(end: TestEnd) {
      ended = true;
      if (mode === 'retain-on-failure' && !end.outcome.failed) return;
      const all = [...new Set([...early.keys(), ...end.instances])];
      for (const instance of all) {
        const lines = early.get(instance) ?? (await read(instance).catch(() => null));
        if (!lines) continue;
        const who = instance.who();
        const name = deviceLogName(who);
        await end.attach({ name, contentType: 'text/plain', body: lines.join('\n') + '\n' });
        end.failureArtifact('logs', name);
        const crashes = crashesIn(lines);
        if (crashes.length === 0) continue;
        const report = crashes
          .map((c) => `${c.kind === 'anr' ? 'ANR' : 'Crash'} in ${who}: ${c.headline}\n${c.lines.join('\n')}`)
          .join('\n\n');
        await end.attach({ name: crashReportName(who), contentType: 'text/plain', body: report + '\n' });
        end.failureArtifact('crashes', crashReportName(who));
      }
    },
  };
}
