import type { Observation, UiNode } from '../device-runtime/protocol/index.js';

/** Base of nestwright's errors: the API name first (`locator.tap: …`), with `{ cause }`. */
export class NestwrightError extends Error {
  constructor(
    readonly api: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${api}: ${message}`, options);
    this.name = new.target.name;
  }
}

/** The action or assertion did not succeed before its timeout. Carries the call log and screen. */
export class TimeoutError extends NestwrightError {
  constructor(
    api: string,
    message: string,
    readonly callLog: string[],
    readonly observation: Observation | null,
    options?: { cause?: unknown },
  ) {
    super(api, message, options);
  }
}

/** More than one node matched a locator that must name exactly one. */
export class StrictModeViolationError extends NestwrightError {
  constructor(
    api: string,
    readonly selector: string,
    readonly matches: UiNode[],
  ) {
    super(
      api,
      `strict mode violation: ${selector} resolved to ${matches.length} nodes:\n` +
        matches
          .slice(0, 10)
          .map((n, i) => `    ${i + 1}) ${describeNode(n)}`)
          .join('\n') +
        `\n  Use .first(), .nth(i), .filter({ hasText }) or a more specific locator.`,
    );
  }
}

/** The app under test crashed (APP_CRASHED), or the device went away (DEVICE_DISCONNECTED). */
export class AppCrashedError extends NestwrightError {
  constructor(
    api: string,
    message: string,
    readonly crashReason: string | null,
    readonly logcat: string[],
    options?: { cause?: unknown },
  ) {
    super(api, message, options);
  }
}

export class DeviceDisconnectedError extends NestwrightError {}

/** One line per node, as shown in errors and call logs. */
export function describeNode(n: UiNode): string {
  const parts = [n.role];
  if (n.text) parts.push(JSON.stringify(n.text));
  if (n.desc) parts.push(`desc=${JSON.stringify(n.desc)}`);
  if (n.res_id) parts.push(`id=${n.res_id.replace(/^.*:id\//, '')}`);
  if (!n.enabled) parts.push('disabled');
  if (n.checked) parts.push('checked');
  parts.push(`[${n.bounds.join(',')}]`);
  return parts.join(' ');
}

/** The screen as text, for failure messages: one node per line, indented by depth. */
export function describeScreen(obs: Observation | null, max = 40): string {
  if (!obs) return '  (no observation)';
  const head = `  ${obs.package ?? '(no app)'} ${obs.activity ?? ''} — snapshot ${obs.snapshot_id}${obs.tree_missing ? ' (tree missing)' : ''}`;
  const lines = obs.nodes.slice(0, max).map((n) => `  ${'  '.repeat(Math.min(n.depth ?? 0, 6))}${describeNode(n)}`);
  if (obs.nodes.length > max) lines.push(`  … ${obs.nodes.length - max} more`);
  return [head, ...lines].join('\n');
}
