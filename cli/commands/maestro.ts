/**
 * `nestwright maestro test <flows or folders> [--env K=V …] [--app apk …] [--workers N]
 * [--format junit|html] [--output F] [--include-tags a,b] [--exclude-tags c]`: Maestro flows run
 * as Maestro runs them, on nestwright's engine. Every flow is planned first (sub-flows, scripts,
 * every command checked): a flow that does not plan is reported with its file and line and
 * nothing runs. Then Playwright Test runs one test per flow, each on a fresh instance of the
 * flow's app, `--workers` at a time on one device.
 * A flow that does not plan is listed with its file and line and left out; the others run.
 * Exit code: 0 every flow passed, 1 a flow failed or did not plan, 2 bad input (usage, no flow that plans).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readApkFile } from '../../device-runtime/apk/apk-file.js';
import { flowsIn, planFlow, resolveAppId, shellEnv, shownPath } from '../../framework/maestro/plan.js';
import type { MaestroManifest } from '../../framework/runner/maestro-spec.js';
import { ownModule } from '../../framework/core/package-root.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage: nestwright maestro test <flow.yaml | folder>… [options]

  Runs Maestro flows unchanged: each flow in a fresh instance of its app, in parallel on one device.
  --env K=V            a variable for every flow (over the flows' own env:), repeatable
  --app path.apk       the APK of a flow's appId (its package is read from it), repeatable
  --workers N          flows at a time (default 1)
  --format junit|html  a report besides the list: junit → --output (default report.xml), html → --output folder
  --output F           where the report goes
  --include-tags a,b   only flows with one of these tags
  --exclude-tags c     not flows with these tags
  --lookup-timeout ms  how long a lookup waits for an element (default 17000, as Maestro)
  --optional-timeout ms  how long an optional lookup or a when/while condition waits (default 7000)
  --device URL         a NestSpace runtime (default: the simulated device)
  --keep               keep the run's folder test-results/maestro-run/<id> (its Playwright config and
                       output); removed after the run otherwise. NESTWRIGHT_MAESTRO_KEEP=1 does the same
A flow that does not plan is listed with file:line and not run; the others are. The shell's MAESTRO_*
variables are read as Maestro reads them (--env wins).
Exit code: 0 passed, 1 a flow failed or did not plan, 2 bad input (no flow that plans).
`;

const list = (v: string | undefined) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

export async function maestroCommand(argv: string[], io: Io = stdio): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === undefined) {
    (sub === undefined ? io.err : io.out)(USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'test') {
    io.err(`nestwright maestro: unknown command "${sub}"; run flows with nestwright maestro test <flows>\n\n${USAGE}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        env: { type: 'string', short: 'e', multiple: true, default: [] },
        app: { type: 'string', multiple: true, default: [] },
        workers: { type: 'string', default: '1' },
        format: { type: 'string' },
        output: { type: 'string' },
        'include-tags': { type: 'string' },
        'exclude-tags': { type: 'string' },
        'lookup-timeout': { type: 'string' },
        'optional-timeout': { type: 'string' },
        device: { type: 'string' },
        keep: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.err(`nestwright maestro test: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const v = parsed.values;
  if (v.help) {
    io.out(USAGE);
    return 0;
  }
  const env: Record<string, string> = shellEnv(); // MAESTRO_* from the shell, as Maestro reads them
  for (const kv of v.env!) {
    const at = kv.indexOf('=');
    if (at <= 0) {
      io.err(`nestwright maestro test: --env ${kv}: write NAME=value\n`);
      return 2;
    }
    env[kv.slice(0, at)] = kv.slice(at + 1);
  }
  const workers = Number(v.workers);
  if (!Number.isInteger(workers) || workers < 1) {
    io.err(`nestwright maestro test: --workers ${v.workers}: a whole number from 1\n`);
    return 2;
  }
  if (v.format && !['junit', 'html'].includes(v.format)) {
    io.err(`nestwright maestro test: --format ${v.format}: junit or html\n`);
    return 2;
  }
  if (!parsed.positionals.length) {
    io.err(`nestwright maestro test: name the flows or a folder of flows\n\n${USAGE}`);
    return 2;
  }
  const apks = new Map<string, string>();
  for (const apk of v.app!) {
    try {
      apks.set((await readApkFile(path.resolve(apk))).manifest.package, path.resolve(apk));
    } catch (e) {
      io.err(`nestwright maestro test: --app ${apk}: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const files: string[] = [];
  for (const p of parsed.positionals) {
    if (!existsSync(p)) {
      io.err(`nestwright maestro test: no flow or folder ${p}\n`);
      return 2;
    }
    files.push(...(statSync(p).isDirectory() ? flowsIn(p) : [path.resolve(p)]));
  }
  const include = list(v['include-tags']);
  const exclude = list(v['exclude-tags']);
  const manifest: MaestroManifest = {
    flows: [],
    env,
    ...(v['lookup-timeout'] ? { lookupTimeout: Number(v['lookup-timeout']) } : {}),
    ...(v['optional-timeout'] ? { optionalTimeout: Number(v['optional-timeout']) } : {}),
  };
  const problems: string[] = [];
  for (const file of files) {
    const plan = planFlow(file);
    for (const i of plan.issues) problems.push(`  ${i.file}:${i.line} ${i.command}: ${i.reason}`);
    if (!plan.flow) continue;
    const tags = plan.flow.tags;
    if (include.length && !tags.some((t) => include.includes(t))) continue;
    if (tags.some((t) => exclude.includes(t))) continue;
    const app = resolveAppId(plan.flow.appId, { ...plan.flow.env, ...env });
    if ('error' in app) {
      problems.push(`  ${shownPath(file)}:1 appId: ${app.error}`);
      continue;
    }
    if (plan.issues.length) continue; // never run part of a flow
    manifest.flows.push({
      file,
      title: `${plan.flow.name} (${shownPath(file)})`,
      apk: apks.get(app.appId) ?? app.appId,
      tags,
    });
  }
  // A flow that does not plan is reported and left out; the others still run (the run fails).
  if (problems.length && !manifest.flows.length) {
    io.err(`nestwright maestro test: ${problems.length} problem(s); nothing was run:\n${problems.join('\n')}\n`);
    return 2;
  }
  if (problems.length)
    io.err(
      `nestwright maestro test: ${problems.length} problem(s); the flows they are in are not run, the ${manifest.flows.length} other flow(s) are:\n${problems.join('\n')}\n`,
    );
  if (!manifest.flows.length) {
    io.err('nestwright maestro test: no flow left to run (check --include-tags / --exclude-tags)\n');
    return 2;
  }
  const dir = path.resolve('test-results', 'maestro-run', randomUUID().slice(0, 8));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const mod = ownModule;
  writeFileSync(
    path.join(dir, 'maestro.spec.ts'),
    `import { defineMaestroTests } from ${JSON.stringify(mod('framework/runner/maestro-spec'))};\ndefineMaestroTests(${JSON.stringify(path.join(dir, 'manifest.json'))});\n`,
  );
  const reporters: string[] = [
    `['list']`,
    `[${JSON.stringify(mod('reporters/allure/index'))}, { resultsDir: ${JSON.stringify(path.resolve('allure-results'))} }]`,
  ];
  if (v.format === 'junit')
    reporters.push(`['junit', { outputFile: ${JSON.stringify(path.resolve(v.output ?? 'report.xml'))} }]`);
  if (v.format === 'html')
    reporters.push(
      `['html', { open: 'never', outputFolder: ${JSON.stringify(path.resolve(v.output ?? 'maestro-report'))} }]`,
    );
  if (process.env.NESTWRIGHT_MAESTRO_JSON)
    reporters.push(`['json', { outputFile: ${JSON.stringify(process.env.NESTWRIGHT_MAESTRO_JSON)} }]`);
  const device = v.device
    ? `{ provider: 'nestspace', url: ${JSON.stringify(v.device)}, token: process.env.NESTSPACE_TOKEN }`
    : `{ provider: 'sim' }`;
  writeFileSync(
    path.join(dir, 'playwright.config.ts'),
    `import { defineConfig } from ${JSON.stringify(mod('framework/runner/config'))};
export default defineConfig({
  testDir: '.',
  outputDir: './results',
  timeout: 10 * 60_000,
  fullyParallel: true,
  workers: ${workers},
  reporter: [${reporters.join(', ')}],
  use: { deviceOptions: ${device} as never, trajectory: 'on', screenshot: 'only-on-failure', actionTimeout: 10_000 },
});
`,
  );
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const child = spawn(process.execPath, [cli, 'test', '--config', path.join(dir, 'playwright.config.ts')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => io.out(d.toString()));
  child.stderr.on('data', (d: Buffer) => io.err(d.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  // The folder is this run's scaffolding (config, manifest, spec) and Playwright's output; the
  // reports (allure-results, --format) are outside it, with the failures' attachments. Left
  // behind, one accumulates per run.
  if (v.keep || process.env.NESTWRIGHT_MAESTRO_KEEP === '1') io.err(`nestwright maestro test: kept ${dir}\n`);
  else {
    rmSync(dir, { recursive: true, force: true });
    try {
      rmdirSync(path.dirname(dir)); // maestro-run itself, when no other run is using it
    } catch {}
  }
  return code === 0 && problems.length ? 1 : code;
}
