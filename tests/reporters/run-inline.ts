import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeChildTsconfig } from '../child-bundle.js';
import { childEnv, refuseInFastTier, writeTree } from '../inline-run.js';

/** The repository root: inline specs live under it so `import … from 'nestwright'` self-resolves. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REPORTER = path.join(ROOT, 'reporters/allure/index.ts');
export const FAKE_DRIVER = path.join(ROOT, 'tests/reporters/fake-driver.ts');

export interface AllureRun {
  dir: string;
  resultsDir: string;
  exitCode: number;
  output: string;
  /** Every *-result.json, parsed. */
  results: any[];
  /** The one result with this test name (throws listing what ran). */
  result(name: string): any;
  /** Total bytes of allure-results. */
  size(): Promise<number>;
}

/**
 * Write specs and a config that uses the Allure reporter into a fresh directory under
 * test-results/reporters/, run the real Playwright CLI on them in a child process, and read back
 * the allure-results it wrote. `nestwright: true` uses nestwright's defineConfig (the embedded
 * simulated device); otherwise plain Playwright, for specs that use the fake driver.
 */
export async function runWithAllure(
  files: Record<string, string>,
  opts: { nestwright?: boolean; use?: string; args?: string[] } = {},
): Promise<AllureRun> {
  const dir = path.join(ROOT, 'test-results', 'reporters', randomUUID().slice(0, 8));
  const resultsDir = path.join(dir, 'allure-results');
  const config = `import { defineConfig } from '${opts.nestwright ? 'nestwright' : '@playwright/test'}';
export default defineConfig({
  testDir: '.',
  outputDir: './test-results',
  timeout: 30_000,
  expect: { timeout: 2_000 },
  workers: 1,
  reporter: [['line'], [${JSON.stringify(REPORTER)}, { resultsDir: './allure-results' }]],
  use: { ${opts.nestwright ? "deviceOptions: { provider: 'sim' }, actionTimeout: 2_000, trajectory: 'on', " : ''}${opts.use ?? ''} },
});
`;
  await writeTree(dir, { 'playwright.config.ts': config, ...files });
  refuseInFastTier('runWithAllure');
  if (opts.nestwright) await writeChildTsconfig(dir, files);
  const env = childEnv();
  const args = [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', dir, ...(opts.args ?? [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exitCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const names = await readdir(resultsDir).catch(() => [] as string[]);
  const results = await Promise.all(
    names
      .filter((n) => n.endsWith('-result.json'))
      .map(async (n) => JSON.parse(await readFile(path.join(resultsDir, n), 'utf8'))),
  );
  return {
    dir,
    resultsDir,
    exitCode,
    output,
    results,
    result(name: string) {
      const r = results.find((x) => x.name === name);
      if (!r)
        throw new Error(
          `no Allure result "${name}"; have: ${results.map((x) => x.name).join(', ') || 'none'}\n${output}`,
        );
      return r;
    },
    async size() {
      let total = 0;
      for (const n of await readdir(resultsDir)) total += (await stat(path.join(resultsDir, n))).size;
      return total;
    },
  };
}

/** All steps of an Allure result, depth-first, with their depth. */
export function flatSteps(r: { steps?: any[] }, depth = 0): Array<{ step: any; depth: number }> {
  return (r.steps ?? []).flatMap((s: any) => [{ step: s, depth }, ...flatSteps(s, depth + 1)]);
}

export const param = (step: any, name: string): string | undefined =>
  step.parameters?.find((p: any) => p.name === name)?.value;
export const label = (r: any, name: string): string | undefined => r.labels?.find((l: any) => l.name === name)?.value;
