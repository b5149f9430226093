import { test } from '@playwright/test';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What the inline-spec runners of tests/framework and tests/reporters share: write a tree of
 * files, and an environment for a child Playwright run that is not mistaken for a worker of ours.
 */
export async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), body);
  }
}

/** The parent is itself a Playwright worker: drop its variables so the child is a fresh run. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(PW_|PLAYWRIGHT_|TEST_|NESTWRIGHT_SIM_)/.test(k) || k === 'NODE_OPTIONS' || k === 'CI')
      continue;
    env[k] = v;
  }
  return Object.assign(env, extra);
}

/**
 * A child Playwright run costs seconds: it belongs in the integration tier (tests/tiers.ts), never
 * in the fast one, which stays the inner loop. Called by every helper that starts one.
 */
export function refuseInFastTier(what: string): void {
  let project: string | undefined;
  try {
    project = test.info().project.name;
  } catch {
    return; // not inside a test (a script, the bench)
  }
  if (project === 'fast')
    throw new Error(
      `${what} starts a child Playwright run, which the fast tier does not allow: add ${test.info().file.replace(/.*\/tests\//, 'tests/')} to INTEGRATION (or E2E) in tests/tiers.ts`,
    );
}
