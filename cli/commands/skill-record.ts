/**
 * `nestwright skill record <spec file> --grep <title> -o skills/<name>.yaml [--name n] [--config c]`:
 * run one test with Playwright (the project's own config), take the trajectory of that passing
 * test, and write it as a skill. Exit 0 written, 1 the test failed or no test matched, 2 usage.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { parseSkill } from '../../device-runtime/protocol/skill/index.js';
import { trajectoryToSkill, type TrajectoryBody } from '../../framework/skills/record.js';
import { shown } from '../../framework/skills/replay.js';
import { TRAJECTORY_ATTACHMENT } from '../../framework/core/trajectory.js';
import type { Io } from './io.js';

const USAGE = `Usage: nestwright skill record <spec file> --grep <test title> -o skills/<name>.yaml [--name name] [--config playwright.config.ts]

  Runs the test (it must pass), then writes its steps as a skill: selectors as the test resolved
  them, typed texts as parameters, post-checks from what became visible after each step.
  --from <file>  read a saved nestwright-trajectory attachment (JSON) instead of running a test
`;

export async function recordCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        grep: { type: 'string', short: 'g' },
        output: { type: 'string', short: 'o' },
        name: { type: 'string' },
        config: { type: 'string', short: 'c' },
        from: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.err(`nestwright skill record: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (!values.output || (!values.from && (positionals.length !== 1 || !values.grep))) {
    io.err(`nestwright skill record: give a spec file, --grep <test title> and -o <skill.yaml>.\n\n${USAGE}`);
    return 2;
  }
  const r = await recordSkill({
    output: values.output,
    ...(values.name ? { name: values.name } : {}),
    ...(values.from ? { from: values.from } : { spec: positionals[0]!, grep: values.grep! }),
    ...(values.config ? { config: values.config } : {}),
  });
  if (!r.ok) {
    io.err(`nestwright skill record: ${r.error}\n`);
    return 1;
  }
  io.out(`wrote ${shown(r.file)}: ${r.steps} steps, parameters: ${r.params.join(', ') || 'none'}\n`);
  for (const n of r.notes) io.out(`  note: ${n}\n`);
  return 0;
}

/** What `nestwright skill record` (and the agent server's `record_skill`) takes: a test to run, or a saved trajectory. */
export interface RecordRequest {
  /** The skill file to write. */
  output: string;
  name?: string;
  spec?: string;
  grep?: string;
  from?: string;
  config?: string;
  /** The project directory the test runs in and relative paths start from (default: the current one). */
  cwd?: string;
}

export type RecordOutcome =
  | { ok: true; file: string; name: string; steps: number; params: string[]; notes: string[] }
  | { ok: false; error: string };

/** Run the test (or read the trajectory), turn it into a skill, check it parses, write it. */
export async function recordSkill(req: RecordRequest): Promise<RecordOutcome> {
  const cwd = req.cwd ?? process.cwd();
  const out = path.resolve(cwd, req.output);
  const name =
    req.name ??
    path
      .basename(out)
      .replace(/\.ya?ml$/i, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-');
  let trajectory: TrajectoryBody;
  let title = req.grep ?? req.from ?? '';
  if (req.from) {
    trajectory = JSON.parse(readFileSync(path.resolve(cwd, req.from), 'utf8')) as TrajectoryBody;
  } else {
    const ran = await runOne(req.spec!, req.grep!, req.config, cwd);
    if ('error' in ran) return { ok: false, error: ran.error };
    ({ trajectory, title } = ran);
  }
  let recorded;
  try {
    // `apk`: the option the trajectory records; `app`, its old name, in trajectories recorded before.
    const options = trajectory.meta?.options as { apk?: string; app?: string } | undefined;
    const app = options?.apk ?? options?.app;
    const apk =
      app && /\.(apk|apks|xapk)$/i.test(app) ? path.relative(path.dirname(out), path.resolve(cwd, app)) : undefined;
    recorded = trajectoryToSkill(trajectory, {
      name,
      description: `Recorded from the test "${title}"`,
      ...(apk ? { apk } : {}),
    });
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  const text = `# Recorded by \`nestwright skill record\` from "${title}".\n# yaml-language-server: $schema=./skill.schema.json\n${stringify(recorded.skill, { lineWidth: 0 })}`;
  parseSkill(text, shown(out));
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, text);
  return {
    ok: true,
    file: out,
    name,
    steps: recorded.skill.steps.length,
    params: Object.keys(recorded.skill.params),
    notes: recorded.notes,
  };
}

/** Run one test with the JSON reporter; its trajectory when it passed. */
async function runOne(
  spec: string,
  grep: string,
  config: string | undefined,
  cwd: string,
): Promise<{ trajectory: TrajectoryBody; title: string } | { error: string }> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const args = [
    cli,
    'test',
    spec,
    '--grep',
    grep.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    '--reporter=json',
    '--workers=1',
    '--retries=0',
    ...(config ? ['-c', config] : []),
  ];
  const child = spawn(process.execPath, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise((r) => child.on('close', r));
  let report: any;
  try {
    report = JSON.parse(stdout.slice(stdout.indexOf('{')));
  } catch {
    return { error: `the test run printed no report:\n${stderr.slice(0, 2000)}` };
  }
  const found: Array<{ title: string; result: any }> = [];
  const walk = (suite: any, prefix: string[]) => {
    for (const s of suite.suites ?? []) walk(s, s.title && !/\.(ts|js)$/.test(s.title) ? [...prefix, s.title] : prefix);
    for (const sp of suite.specs ?? [])
      for (const t of sp.tests ?? [])
        found.push({ title: [...prefix, sp.title].join(' › '), result: t.results[t.results.length - 1] });
  };
  for (const s of report.suites ?? []) walk(s, []);
  if (found.length === 0)
    return {
      error: `no test in ${spec} matches --grep ${JSON.stringify(grep)}${report.errors?.length ? `:\n${report.errors.map((e: any) => e.message).join('\n')}` : ''}`,
    };
  if (found.length > 1)
    return {
      error: `${found.length} tests match --grep ${JSON.stringify(grep)} (${found.map((f) => f.title).join('; ')}); make it name one`,
    };
  const { title, result } = found[0]!;
  if (result?.status !== 'passed')
    return {
      error: `"${title}" did not pass (${result?.status}); only a passing test is recorded:\n${(result?.errors ?? [])
        .map((e: any) => e.message)
        .join('\n')
        .slice(0, 3000)}`,
    };
  const att = (result.attachments ?? []).find((a: any) => a.name === TRAJECTORY_ATTACHMENT);
  if (!att) return { error: `"${title}" has no ${TRAJECTORY_ATTACHMENT} attachment: set use.trajectory to 'on'` };
  const body = att.body
    ? Buffer.from(att.body, 'base64').toString('utf8')
    : readFileSync(path.resolve(cwd, att.path), 'utf8');
  return { trajectory: JSON.parse(body) as TrajectoryBody, title };
}
