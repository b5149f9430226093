import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { nestwrightBin, writeChildTsconfig } from '../child-bundle.js';
import { childEnv, refuseInFastTier, writeTree } from '../inline-run.js';
import { ROOT } from '../framework/inline.js';

export interface ProjectRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The JSON report's tests, flat: title, status, error text, annotations, attachments. */
  tests: Array<{
    title: string;
    status: string;
    error: string;
    annotations: Array<{ type: string; description?: string }>;
    attachments: Array<{ name: string; body?: string }>;
  }>;
}

/**
 * A project directory that lives across several runs (healing needs that: a run records
 * fingerprints, a later run heals from them, `nestwright heal` edits the spec in between), under
 * test-results/heal-projects/. `shared` is added to every run's environment (a simulator's
 * NESTWRIGHT_SIM_URL/TOKEN, so the runs share one instead of starting one each).
 */
export async function project(
  files: Record<string, string>,
  shared: Record<string, string> = {},
): Promise<{
  dir: string;
  run(env?: Record<string, string>): Promise<ProjectRun>;
  cli(args: string[]): Promise<{ code: number; out: string; err: string }>;
}> {
  refuseInFastTier('project');
  const dir = path.join(ROOT, 'test-results', 'heal-projects', randomUUID().slice(0, 8));
  await mkdir(dir, { recursive: true });
  await writeTree(dir, files);
  await writeChildTsconfig(dir, files);
  const exec = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
    });
  return {
    dir,
    async run(env = {}) {
      const r = await exec(
        [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', dir, '--reporter=json', '--workers=1'],
        { ...shared, ...env },
      );
      let raw: any;
      try {
        raw = JSON.parse(r.out.slice(r.out.indexOf('{')));
      } catch {
        throw new Error(`no JSON report (exit ${r.code}):\n${r.out.slice(0, 3000)}\n${r.err.slice(0, 3000)}`);
      }
      const tests: ProjectRun['tests'] = [];
      const walk = (suite: any) => {
        for (const s of suite.suites ?? []) walk(s);
        for (const spec of suite.specs ?? [])
          for (const t of spec.tests ?? []) {
            const res = t.results[t.results.length - 1] ?? {};
            tests.push({
              title: spec.title,
              status: res.status,
              error: (res.errors ?? [])
                .map((e: any) => e.message ?? '')
                .join('\n')
                .replace(/\u001b\[[0-9;]*m/g, ''),
              annotations: res.annotations ?? t.annotations ?? [],
              attachments: res.attachments ?? [],
            });
          }
      };
      for (const s of raw.suites ?? []) walk(s);
      return {
        exitCode: r.code,
        stdout: r.out,
        stderr: r.err + (raw.errors ?? []).map((e: any) => e.message).join('\n'),
        tests,
      };
    },
    cli: async (args) => exec([await nestwrightBin(), 'heal', '--dir', dir, ...args], {}),
  };
}
