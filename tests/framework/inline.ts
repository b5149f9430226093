import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeChildTsconfig } from '../child-bundle.js';
import { childEnv, refuseInFastTier, writeTree } from '../inline-run.js';

/** The repository root: inline specs live under it so `import … from 'nestwright'` self-resolves. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface InlineResult {
  title: string;
  status: string;
  expectedStatus: string;
  duration: number;
  error: string;
  attachments: Array<{ name: string; contentType: string; body?: string; path?: string }>;
  steps: string[];
  /** What the test printed (console.log in the spec): tests of one run each read their own. */
  stdout: string;
}

export interface InlineRun {
  exitCode: number;
  results: InlineResult[];
  /** The one result with this title (throws when missing, listing what ran). */
  result(title: string): InlineResult;
  stderr: string;
  raw: unknown;
}

const CONFIG = (use: string, extra: string) => `import { defineConfig } from 'nestwright';
export default defineConfig({
  testDir: '.',
  outputDir: './test-results',
  timeout: 30_000,
  expect: { timeout: 2_000 },
  ${extra.includes('fullyParallel') ? '' : 'fullyParallel: true,'}
  ${extra}
  use: { deviceOptions: { provider: 'sim' }, actionTimeout: 2_000, trajectory: 'on', ${use} },
});
`;

/**
 * Write specs into a fresh directory under test-results/inline/ (removed afterwards unless
 * NESTWRIGHT_KEEP_INLINE is set), run Playwright on them in a
 * child process with the JSON reporter, and return one flat result per test. This is how
 * Playwright tests its own runner: the real CLI, the real fixtures, the real (simulated) device.
 */
export async function runInline(
  files: Record<string, string>,
  opts: {
    use?: string;
    config?: string;
    workers?: number;
    env?: Record<string, string>;
    args?: string[];
    dir?: string;
  } = {},
): Promise<InlineRun> {
  // A given `dir` is the caller's: kept between runs (e.g. to replay from a cache written by the first).
  const dir = opts.dir ?? path.join(ROOT, 'test-results', 'inline', randomUUID().slice(0, 8));
  await mkdir(dir, { recursive: true });
  const all = { 'playwright.config.ts': CONFIG(opts.use ?? '', opts.config ?? ''), ...files };
  await writeTree(dir, all);
  refuseInFastTier('runInline');
  await writeChildTsconfig(dir, all);
  const env = childEnv(opts.env);
  const args = [
    path.join(ROOT, 'node_modules/@playwright/test/cli.js'),
    'test',
    '-c',
    dir,
    '--reporter=json',
    `--workers=${opts.workers ?? 1}`,
    ...(opts.args ?? []),
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // Decoded as a stream: a character split across two chunks (a '×' in an error) stays whole.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exitCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  // Attachments come back inline in the JSON report, so the directory can go (keep it to debug).
  if (!process.env.NESTWRIGHT_KEEP_INLINE && !opts.dir) await rm(dir, { recursive: true, force: true });
  let raw: any;
  try {
    raw = JSON.parse(stdout.slice(stdout.indexOf('{')));
  } catch {
    throw new Error(
      `runInline: the child run printed no JSON report (exit ${exitCode}).\nstdout:\n${stdout.slice(0, 4000)}\nstderr:\n${stderr.slice(0, 4000)}`,
    );
  }
  const results: InlineResult[] = [];
  const walk = (suite: any, prefix: string[]) => {
    for (const s of suite.suites ?? []) walk(s, s.title && !s.title.endsWith('.ts') ? [...prefix, s.title] : prefix);
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const r = t.results[t.results.length - 1] ?? {};
        results.push({
          title: [...prefix, spec.title].join(' > '),
          status: r.status ?? 'skipped',
          expectedStatus: t.expectedStatus,
          duration: r.duration ?? 0,
          error: (r.errors ?? []).map((e: any) => e.message ?? e.value ?? '').join('\n\n'),
          attachments: r.attachments ?? [],
          steps: flattenSteps(r.steps ?? []),
          stdout: (r.stdout ?? []).map((o: any) => o.text ?? Buffer.from(o.buffer ?? '', 'base64').toString()).join(''),
        });
      }
    }
  };
  for (const s of raw.suites ?? []) walk(s, []);
  const globalErrors = (raw.errors ?? []).map((e: any) => e.message).join('\n');
  return reviveRun({ exitCode, results, stderr: stderr + globalErrors, raw });
}

/**
 * A run's data with its `result(title)` lookup: what runInline returns, and what a run read
 * back from JSON (tests/framework/shared-batch.ts) becomes again.
 */
export function reviveRun(data: Omit<InlineRun, 'result'>): InlineRun {
  const { results, stderr } = data;
  return {
    ...data,
    result(title: string) {
      const r = results.find((x) => x.title === title);
      if (!r)
        throw new Error(
          `no test "${title}" in the run; ran: ${results.map((x) => x.title).join(', ') || 'nothing'}\n${stderr}`,
        );
      return r;
    },
  };
}

function flattenSteps(steps: any[], depth = 0): string[] {
  return steps.flatMap((s) => [`${'  '.repeat(depth)}${s.title}`, ...flattenSteps(s.steps ?? [], depth + 1)]);
}

/** An attachment's body as text (the JSON reporter base64-encodes inline bodies). */
export function attachmentText(a: { body?: string }): string {
  return Buffer.from(a.body ?? '', 'base64').toString('utf8');
}

/** ANSI colour codes out, so messages can be matched as text. */
export function plain(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}
