import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NestwrightError, type ApiName } from '../core/errors.js';
import type { RuleName } from './rules.js';

/**
 * Accepted findings, in a file beside the spec (`__a11y__/<spec>.json`), so an app with known
 * problems fails only on new ones. A finding is named by its test, its screen (the activity),
 * its rule and the selector that names its node: stable across runs, unlike node ids. `reason`
 * says why it is accepted; the runner's `--update-snapshots` rewrites a test's entries and keeps
 * the reasons of those still found.
 */
export interface BaselineEntry {
  test: string;
  screen: string;
  rule: RuleName;
  selector: string;
  reason: string;
}

interface BaselineFile {
  findings: BaselineEntry[];
}

/** The default baseline file of a spec: `<spec dir>/__a11y__/<spec file without .ts>.json`. */
export function baselinePath(specFile: string, given: string | true): string {
  if (given !== true) return path.resolve(path.dirname(specFile), given);
  return path.join(
    path.dirname(specFile),
    '__a11y__',
    `${path.basename(specFile).replace(/\.[cm]?[jt]sx?$/, '')}.json`,
  );
}

/** Read a baseline; a missing file is empty, a malformed one is an error that names it (and nothing is written over it). */
export function readBaseline(api: ApiName, file: string): BaselineEntry[] | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new NestwrightError(
      api,
      `the accessibility baseline ${file} is not JSON (${(e as Error).message}); fix or delete it (it was left as it is), then run again with --update-snapshots to write a new one`,
      { code: 'INVALID_ARGUMENT', cause: e },
    );
  }
  const findings = (data as BaselineFile | null)?.findings;
  const ok =
    Array.isArray(findings) &&
    findings.every(
      (f) =>
        f &&
        typeof f.test === 'string' &&
        typeof f.screen === 'string' &&
        typeof f.rule === 'string' &&
        typeof f.selector === 'string',
    );
  if (!ok) {
    throw new NestwrightError(
      api,
      `the accessibility baseline ${file} is not a baseline: expected { "findings": [{ "test", "screen", "rule", "selector", "reason" }, …] }; fix or delete it (it was left as it is)`,
      { code: 'INVALID_ARGUMENT' },
    );
  }
  return findings.map((f) => ({ ...f, reason: typeof f.reason === 'string' ? f.reason : '' }));
}

export const entryKey = (e: Pick<BaselineEntry, 'test' | 'screen' | 'rule' | 'selector'>) =>
  `${e.test}\u0000${e.screen}\u0000${e.rule}\u0000${e.selector}`;

/** Replace the entries of one test and screen with `fresh`, keeping the reasons already written for the same findings. */
export function writeBaseline(
  file: string,
  previous: BaselineEntry[] | null,
  test: string,
  screen: string,
  fresh: Omit<BaselineEntry, 'reason'>[],
): void {
  const old = previous ?? [];
  const reasons = new Map(old.map((e) => [entryKey(e), e.reason]));
  const kept = old.filter((e) => e.test !== test || e.screen !== screen);
  const added = fresh.map((e) => ({ ...e, reason: reasons.get(entryKey(e)) ?? '' }));
  const findings = [...kept, ...added].sort((a, b) =>
    entryKey(a) < entryKey(b) ? -1 : entryKey(a) > entryKey(b) ? 1 : 0,
  );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ findings }, null, 2) + '\n');
}
