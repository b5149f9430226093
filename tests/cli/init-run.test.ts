import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { initCommand } from '../../cli/commands/init.js';
import { blocksOf } from '../../docs/gen/doc-pages.js';
import { ROOT } from '../framework/inline.js';
import { childEnv, refuseInFastTier } from '../inline-run.js';

/**
 * A newcomer's project: `nestwright init`, then examples copied from the docs as they are written,
 * run by Playwright from another directory than the project's. The apps the docs name
 * (`fixtures/apks/shop.apk`) are where init put them, and a relative APK path is resolved from the
 * config file's folder, as Playwright resolves every path of its config. One child run.
 */
test.describe.configure({ timeout: 300_000 });

/** The first TypeScript block after the line `heading` of docs/`page`, as the page has it. */
function docsExample(page: string, heading: string): string {
  const file = path.join(ROOT, 'docs', page);
  const at = readFileSync(file, 'utf8').split('\n').indexOf(heading);
  expect(at, `docs/${page} has the heading "${heading}"`).toBeGreaterThan(-1);
  const block = blocksOf(file).find((b) => b.lang === 'ts' && b.line > at + 1);
  expect(block, `a ts block after "${heading}" in docs/${page}`).toBeTruthy();
  return block!.code;
}

interface Outcome {
  title: string;
  status: string;
  error: string;
}

let outcomes: Outcome[] = [];
let output = '';
let stderr = '';

test.beforeAll(async () => {
  test.setTimeout(300_000);
  refuseInFastTier('init-run');
  // Under the repository so that `import … from 'nestwright'` resolves, as it does from node_modules in a user's project.
  const project = path.join(ROOT, 'test-results', 'init-run', randomUUID().slice(0, 8));
  const elsewhere = await mkdtemp(path.join(tmpdir(), 'nw-elsewhere-'));
  await mkdir(project, { recursive: true });
  try {
    let printed = '';
    const code = await initCommand(['--json'], {
      out: (t) => (printed += t),
      err: (t) => (printed += t),
      cwd: project,
    });
    expect(code, printed).toBe(0);
    // The repository's TypeScript sources stand in for the compiled package here, and are ES
    // modules: the project says it is one too (a user's project loads dist/, either way).
    const pkg = path.join(project, 'package.json');
    await writeFile(pkg, JSON.stringify({ ...JSON.parse(readFileSync(pkg, 'utf8')), type: 'module' }));
    // Its reporter is the compiled package's (`nestwright/reporters/allure` names dist/, which a
    // checkout does not build); tests/package/pack.test.ts runs it from the package.
    const config = path.join(project, 'playwright.config.ts');
    const text = readFileSync(config, 'utf8');
    expect(text).toContain("['nestwright/reporters/allure'");
    await writeFile(config, text.replace(/^ {2}reporter: .*$/m, "  reporter: 'list',"));
    await writeFile(path.join(project, 'specs/first-test.spec.ts'), docsExample('intro.md', '## Your first test'));
    await writeFile(path.join(project, 'specs/network.spec.ts'), docsExample('network.md', '# Network'));
    await writeFile(path.join(project, 'specs/waiting.spec.ts'), docsExample('network.md', '## Waiting for requests'));
    const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
    const child = spawn(process.execPath, [cli, 'test', '-c', project, '--reporter=json', '--workers=1'], {
      cwd: elsewhere,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => ((output += d), (stderr += d)));
    await new Promise((resolve) => child.on('close', resolve));
    output += stdout;
    if (!stdout.includes('{')) throw new Error(`the run printed no JSON report:\n${output.slice(0, 4000)}`);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { suites: any[] };
    const walk = (suite: any): Outcome[] => [
      ...(suite.suites ?? []).flatMap(walk),
      ...(suite.specs ?? []).flatMap((s: any) =>
        s.tests.map((t: any) => {
          const r = t.results.at(-1) ?? {};
          return {
            title: `${s.file}: ${s.title}`,
            status: r.status ?? 'skipped',
            error: (r.errors ?? []).map((e: any) => e.message ?? '').join('\n'),
          };
        }),
      ),
    ];
    outcomes = report.suites.flatMap(walk);
  } finally {
    await rm(elsewhere, { recursive: true, force: true });
    if (!process.env.NESTWRIGHT_KEEP_INLINE) await rm(project, { recursive: true, force: true });
  }
});

const outcome = (file: string, title: string) => {
  const o = outcomes.find((x) => x.title === `${file}: ${title}`);
  expect(
    o,
    `${file}: "${title}" ran; what ran: ${JSON.stringify(outcomes, null, 1).slice(0, 3000)}\n${stderr.slice(0, 2000)}`,
  ).toBeTruthy();
  return o!;
};

test("init's example spec runs from another directory: use.apk is resolved from the config file's folder", () => {
  for (const title of ['creates a note and sees it in the list', 'a new test starts with no notes'])
    expect(outcome('notes.spec.ts', title), outcome('notes.spec.ts', title).error).toMatchObject({ status: 'passed' });
});

test("the docs' first test and the network page's examples run in an init project as written (the Shop is where the docs name it)", () => {
  const cases = [
    ['first-test.spec.ts', 'creates a note'],
    ['network.spec.ts', 'the catalog shows the products the test serves'],
    ['waiting.spec.ts', 'the order sends the cart'],
  ] as const;
  for (const [file, title] of cases)
    expect(outcome(file, title), `${file}: ${outcome(file, title).error}`).toMatchObject({ status: 'passed' });
});
