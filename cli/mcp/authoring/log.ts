/**
 * What an agent did in a live session, as spec code: the app and start it opened, the world and
 * network it set, each `act` with the framework's best locator for the node it acted on, each
 * `assert` it checked. `generate_spec` writes it as a spec. Kept beside the session (a WeakMap),
 * so the session manager knows nothing of authoring.
 */
import type { Observation } from '../../../device-runtime/protocol/index.js';
import { resolveSteps } from '../../../framework/core/selector.js';
import type { Step } from '../../../framework/core/selector.js';
import { suggestLocators } from '../../../device-runtime/protocol/best-selector.js';
import type { LiveSession } from '../sessions.js';

export interface LoggedStep {
  /** The plan's words for the step (a `// …` comment above its code), when the agent gave them. */
  intent: string | null;
  code: string;
  kind: 'setup' | 'action' | 'assertion';
}

export interface SessionLog {
  /** What open_app was given: an APK path relative to the project, or a package. */
  app: string;
  /** `test.use` options the session's world set (locale, timezoneId, colorScheme). */
  use: Record<string, string>;
  steps: LoggedStep[];
}

const logs = new WeakMap<LiveSession, SessionLog>();

export function startLog(s: LiveSession, app: string): SessionLog {
  const log: SessionLog = { app, use: {}, steps: [] };
  logs.set(s, log);
  return log;
}

export function logOf(s: LiveSession): SessionLog {
  let log = logs.get(s);
  if (!log) log = startLog(s, s.app.package);
  return log;
}

export function record(s: LiveSession, step: LoggedStep): void {
  logOf(s).steps.push(step);
}

/** A JavaScript string literal in the house style (single quotes). */
export const js = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

/** The agent's own locator as code: `app.getBy…(…)` as written, or `app.locator('<selector>')`. */
export function codeOfInput(input: string): string {
  const src = input.trim();
  if (/^(?:app\s*\.\s*)?(?:getBy\w+|locator)\s*\(/.test(src)) return src.startsWith('app') ? src : `app.${src}`;
  return `app.locator(${js(src)})`;
}

/**
 * The locator a spec should use for what `input` found on `obs`: nestwright's best strict-safe
 * suggestion for the node (an id, a role and name, a description, a text, a chain in its row) when
 * `input` matched one node there; the agent's own locator otherwise (the node was not yet on the
 * screen, or needed scrolling). A position (`nth`) is never preferred to the agent's choice.
 */
export function bestLocatorCode(obs: Observation | null, steps: Step[], input: string): string {
  if (obs && !obs.tree_missing) {
    const matches = resolveSteps(obs.nodes, steps);
    if (matches.length === 1) {
      const best = suggestLocators(obs, matches[0]!.id).find((x) => x.strictSafe && x.strategy !== 'nth');
      if (best) return best.code;
    }
  }
  return codeOfInput(input);
}

/** The spec's source: header comments, imports, `test.use`, one test with the logged steps. */
export function specSource(
  log: SessionLog,
  opts: { title: string; describe?: string; plan?: string; seed?: string },
): string {
  const use: Record<string, string> = {
    ...(/\.(apk|apks|xapk)$/i.test(log.app) ? { apk: log.app } : {}),
    ...log.use,
  };
  const useLine = Object.keys(use).length
    ? `test.use({ ${Object.entries(use)
        .map(([k, v]) => `${k}: ${js(v)}`)
        .join(', ')} });\n\n`
    : '';
  const indent = opts.describe ? '    ' : '  ';
  let n = 0;
  const body = log.steps.flatMap((s) => {
    const comment =
      s.intent === null
        ? []
        : [`${indent}// ${s.kind === 'action' ? `${++n}. ` : s.kind === 'assertion' ? 'Expect: ' : ''}${s.intent}`];
    return [...comment, `${indent}${s.code}`];
  });
  const testBlock = [`test(${js(opts.title)}, async ({ app }) => {`, ...body, '});'];
  const block = opts.describe
    ? [
        `test.describe(${js(opts.describe)}, () => {`,
        ...testBlock.map((l, i) => (i === 0 || i === testBlock.length - 1 ? `  ${l}` : l)),
        '});',
      ]
    : testBlock;
  const header = [...(opts.plan ? [`// spec: ${opts.plan}`] : []), ...(opts.seed ? [`// seed: ${opts.seed}`] : [])];
  return `${header.length ? `${header.join('\n')}\n\n` : ''}import { test, expect } from 'nestwright';\n\n${useLine}${block.join('\n')}\n`;
}
