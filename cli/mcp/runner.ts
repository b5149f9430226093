import { spawn } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AgentError } from './errors.js';
import { ownModule } from '../../framework/core/package-root.js';
import { PROGRESS_MARKER } from './progress-reporter.js';
import { plain, type JsonReport } from './report.js';

export interface RunSelection {
  files?: string[];
  grep?: string;
  project?: string;
  workers?: number;
}

export interface ProgressEvent {
  type: 'begin' | 'test';
  done?: number;
  total: number;
  title?: string;
  status?: string;
}

/** Where Playwright runs: the project's root and (optionally) its config file. */
export interface Project {
  root: string;
  config?: string;
}

/** The project's own `@playwright/test` CLI, so runs use the same version its specs import. */
function playwrightCli(root: string): string {
  try {
    const pkg = createRequire(path.join(root, 'package.json')).resolve('@playwright/test/package.json');
    return path.join(path.dirname(pkg), 'cli.js');
  } catch {
    throw new AgentError(
      'RUN_FAILED',
      `@playwright/test is not installed in ${root}`,
      'Install it in the project: npm i -D nestwright @playwright/test',
    );
  }
}

/** A module beside this one (cli/mcp/), compiled or as source (`.ts`, when run from the repository). */
function sibling(name: string): string {
  return ownModule(`cli/mcp/${name}`);
}

/** The environment of a child run: ours, minus what would make it think it is a worker of another run. */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(PW_|PLAYWRIGHT_|TEST_|NESTWRIGHT_SIM_)/.test(k)) continue;
    env[k] = v;
  }
  return Object.assign(env, extra);
}

function selectionArgs(sel: RunSelection): string[] {
  return [
    ...(sel.grep ? ['--grep', sel.grep] : []),
    ...(sel.project ? ['--project', sel.project] : []),
    ...(sel.workers ? [`--workers=${sel.workers}`] : []),
    ...(sel.files ?? []),
  ];
}

/**
 * Run `playwright test` in the project as a child process group with the JSON reporter (to a
 * file) and the progress reporter (to stdout), and return the parsed report. An abort kills the
 * whole group — Playwright, its workers and any simulator they started — so nothing is left
 * running; the call then fails with CANCELLED.
 */
export async function runPlaywright(
  project: Project,
  args: string[],
  opts: { signal: AbortSignal; runId: string; onProgress?: (e: ProgressEvent) => void; list?: boolean },
): Promise<{ report: JsonReport; exitCode: number; stderr: string }> {
  const dir = path.join(project.root, 'test-results', 'nestwright-mcp', opts.runId);
  await mkdir(dir, { recursive: true });
  const jsonFile = path.join(dir, 'report.json');
  const reporters = opts.list ? 'json' : `${sibling('progress-reporter')},json`;
  const argv = [
    playwrightCli(project.root),
    'test',
    ...(project.config ? ['-c', project.config] : []),
    `--reporter=${reporters}`,
    ...(opts.list ? ['--list'] : ['--output', path.join(dir, 'output')]),
    ...args,
  ];
  const child = spawn(process.execPath, argv, {
    cwd: project.root,
    env: childEnv({ PLAYWRIGHT_JSON_OUTPUT_FILE: jsonFile, NESTWRIGHT_MCP_RUN: opts.runId, FORCE_COLOR: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  let buffered = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-20_000)));
  child.stdout.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith(PROGRESS_MARKER))
        opts.onProgress?.(JSON.parse(line.slice(PROGRESS_MARKER.length)) as ProgressEvent);
    }
  });
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  let killTimer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    killGroup('SIGTERM');
    killTimer = setTimeout(() => killGroup('SIGKILL'), 3_000);
  };
  opts.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const exitCode = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : -1)));
    });
    if (opts.signal.aborted) {
      // Workers may outlive their parent for a moment: make sure the group is gone.
      killGroup('SIGKILL');
      throw new AgentError('CANCELLED', 'the run was cancelled; every process it started was stopped');
    }
    let report: JsonReport;
    try {
      report = JSON.parse(await readFile(jsonFile, 'utf8')) as JsonReport;
    } catch {
      throw new AgentError(
        'RUN_FAILED',
        `playwright test exited ${exitCode} without a report:\n${plain(stderr).slice(-4_000)}`,
        'Check the config and the spec files (run `npx playwright test --list` in the project).',
      );
    }
    return { report, exitCode, stderr: plain(stderr) };
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    if (killTimer) clearTimeout(killTimer);
    if (opts.list) await rm(dir, { recursive: true, force: true });
  }
}

export { selectionArgs };
