import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { MessagesStandIn } from '../ai/stand-in.js';
import { scripted, verdictOn } from '../ai/scripted-model.js';
import { childEnv } from '../inline-run.js';
import { plain, ROOT } from '../framework/inline.js';
import { nestwrightBin } from '../child-bundle.js';

/**
 * `nestwright maestro test` end to end: the real CLI plans the flows, Playwright runs them on the
 * simulated device over real HTTP, a setup script fetches test data from a real loopback server.
 */
test.describe.configure({ mode: 'default' });

interface Run {
  code: number;
  out: string;
  report: any;
}

async function maestro(args: string[], json?: string, extraEnv: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [await nestwrightBin(), 'maestro', 'test', ...args], {
    cwd: ROOT,
    env: childEnv({ ...extraEnv, ...(json ? { NESTWRIGHT_MAESTRO_JSON: json } : {}) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  const report = json ? JSON.parse(await readFile(json, 'utf8').catch(() => '{}')) : null;
  return { code, out: plain(out), report };
}

interface Result {
  title: string;
  status: string;
  worker: number;
  steps: string[];
  error: string;
  /** The test's location, as the report gives it. */
  at: string;
}

function results(report: any): Result[] {
  const out: Result[] = [];
  const flat = (steps: any[]): string[] => steps.flatMap((s) => [s.title, ...flat(s.steps ?? [])]);
  const walk = (suite: any) => {
    for (const s of suite.suites ?? []) walk(s);
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        const r = t.results.at(-1);
        out.push({
          title: spec.title,
          status: r.status,
          worker: r.parallelIndex,
          steps: flat(r.steps ?? []),
          error: (r.errors ?? []).map((e: any) => e.message).join('\n'),
          at: `${path.basename(spec.file)}:${spec.line}:${spec.column}`,
        });
      }
  };
  for (const s of report.suites ?? []) walk(s);
  return out;
}

let tmp: string;
let server: http.Server;
let api: string;
test.beforeAll(async () => {
  tmp = await mkdtemp(path.join(ROOT, 'test-results', 'maestro-cli-'));
  server = http.createServer((req, res) => {
    const count = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('count') ?? 1);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ titles: Array.from({ length: count }, (_, i) => `Seeded ${i + 1}`) }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  server.close();
  await rm(tmp, { recursive: true, force: true });
});

/** The run folders `nestwright maestro test` left in test-results/maestro-run. */
const runFolders = () => readdir(path.join(ROOT, 'test-results', 'maestro-run')).catch(() => [] as string[]);

test('the suite of the simulated apps passes with 4 workers on one device, with a JUnit report', async () => {
  test.setTimeout(240_000);
  const junit = path.join(tmp, 'junit.xml');
  const before = await runFolders();
  const run = await maestro(
    [
      'tests/maestro/flows',
      '--app',
      'fixtures/apks/notes.apk',
      '--app',
      'fixtures/apks/shop.apk',
      '--env',
      `API_URL=${api}`,
      '--workers',
      '4',
      '--format',
      'junit',
      '--output',
      junit,
      '--optional-timeout',
      '2000',
    ],
    path.join(tmp, 'suite.json'),
  );
  expect(run.code, run.out).toBe(0);
  const all = results(run.report);
  expect(all.map((r) => r.title).sort()).toEqual([
    'A search with no match says so (tests/maestro/flows/settings/no-match.yaml)',
    'Add a note (tests/maestro/flows/notes/add-note.yaml)',
    'Delete a note after confirming (tests/maestro/flows/notes/delete-note.yaml)',
    'Edit a note (tests/maestro/flows/notes/edit-note.yaml)',
    'Notes from the test-data server (tests/maestro/flows/notes/seeded-notes.yaml)',
    'Search the sample notes (tests/maestro/flows/notes/search.yaml)',
    'Sign in to the shop (tests/maestro/flows/shop/sign-in.yaml)',
    'The form says what is wrong (tests/maestro/flows/shop/bad-email.yaml)',
    'Turn on Wi-Fi from search (tests/maestro/flows/settings/wifi.yaml)',
  ]);
  expect(all.every((r) => r.status === 'passed')).toBe(true);
  // One device, several workers at once (each flow in its own instance).
  expect(new Set(all.map((r) => r.worker)).size).toBeGreaterThan(1);
  // Steps are the flow's commands at their own file and line, sub-flows included.
  const add = all.find((r) => r.title.startsWith('Add a note'))!;
  expect(add.steps).toContain('add-note.yaml:13 runFlow ../helpers/create-note.yaml');
  expect(add.steps).toContain('create-note.yaml:8 inputText "${TITLE}"');
  expect(add.steps.some((s) => /^Fill .*Buy milk/.test(s) || s.includes('Buy milk'))).toBe(true);
  // The script read the test-data server: the notes it made are the server's.
  expect(run.out).toContain('titles: Seeded 1, Seeded 2');
  const xml = await readFile(junit, 'utf8');
  expect(xml.match(/<testcase /g)).toHaveLength(9);
  // The run's folder (its config and Playwright's output) is gone; the reports stay.
  expect((await runFolders()).filter((f) => !before.includes(f))).toEqual([]);
});

test('a failing flow names its file and line; what the device cannot do fails, never passes; tags select; AI commands ask app.ai; a test is at its flow file', async () => {
  test.setTimeout(180_000);
  const dir = path.join(tmp, 'failing');
  await rm(dir, { recursive: true, force: true });
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'missing-button.yaml'),
    'appId: com.nestwright.notes\ntags: [broken]\n---\n- launchApp\n- runFlow:\n    commands:\n      - tapOn: "There is no such button"\n',
  );
  await writeFile(
    path.join(dir, 'record.yaml'),
    'appId: com.nestwright.notes\ntags: [broken]\n---\n- launchApp\n- startRecording: video\n',
  );
  await writeFile(path.join(dir, 'skipped.yaml'), 'appId: com.nestwright.notes\ntags: [slow]\n---\n- launchApp\n');
  // The AI commands ask app.ai (here a stand-in for the model): assertWithAI is optional unless it says not.
  await writeFile(
    path.join(dir, 'ai.yaml'),
    'appId: com.nestwright.notes\ntags: [broken]\n---\n- launchApp\n- assertWithAI: The screen says No notes yet\n- assertWithAI: A note titled Milk is in the list\n- assertWithAI:\n    assertion: A note titled Milk is in the list\n    optional: false\n- tapOn: "Not reached"\n',
  );
  const model = await MessagesStandIn.start(
    scripted([
      { match: 'No notes yet', answer: verdictOn('No notes yet') },
      { match: 'titled Milk', answer: verdictOn('Milk') },
    ]),
  );
  const before = await runFolders();
  const run = await maestro(
    [dir, '--app', 'fixtures/apks/notes.apk', '--exclude-tags', 'slow', '--lookup-timeout', '1500'],
    path.join(tmp, 'failing.json'),
    { NESTWRIGHT_MAESTRO_KEEP: '1', ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'stand-in' },
  ).finally(() => model.close());
  expect(model.requests.map((r) => r.view.verb)).toEqual(['verdict', 'verdict', 'verdict']);
  expect(run.code, run.out).toBe(1);
  // NESTWRIGHT_MAESTRO_KEEP=1 keeps the run's folder, and says where it is.
  const kept = (await runFolders()).filter((f) => !before.includes(f));
  expect(kept).toHaveLength(1);
  const keptDir = path.join(ROOT, 'test-results', 'maestro-run', kept[0]!);
  expect(run.out).toContain(`nestwright maestro test: kept ${keptDir}`);
  expect(await readFile(path.join(keptDir, 'playwright.config.ts'), 'utf8')).toContain('defineConfig');
  await rm(keptDir, { recursive: true, force: true });
  const all = results(run.report);
  expect(all.map((r) => r.title.split(' ')[0]).sort()).toEqual(['ai', 'missing-button', 'record']);
  // A flow's test is at the flow's file in reports (issue 48, item 14), not at the runner's spec module.
  expect(all.map((r) => r.at).sort()).toEqual(['ai.yaml:1:1', 'missing-button.yaml:1:1', 'record.yaml:1:1']);
  const ai = all.find((r) => r.title.startsWith('ai'))!;
  expect(ai.error).toContain('ai.yaml:7 assertWithAI failed');
  expect(ai.error).toContain('[AI_ASSERTION_FAILED] "A note titled Milk is in the list" is false on this screen');
  const missing = all.find((r) => r.title.startsWith('missing-button'))!;
  expect(missing.error).toContain(
    'missing-button.yaml:7 tapOn failed: no element matches text "There is no such button" after 1500ms',
  );
  expect(missing.error).toContain('"No notes yet"');
  const record = all.find((r) => r.title.startsWith('record'))!;
  expect(record.error).toContain(
    'record.yaml:5 startRecording failed: startRecording cannot be honoured on this device',
  );
});

test('flows that do not plan run nothing: every problem with its file and line, exit 2', async () => {
  const dir = path.join(tmp, 'bad');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(path.join(dir, 'sub'), { recursive: true });
  await writeFile(
    path.join(dir, 'flow.yaml'),
    'appId: ${APP_ID}\n---\n- tapOn: {}\n- frobnicate: 1\n- runFlow: sub/missing.yaml\n- runFlow: sub/bad.yaml\n- evalScript: ${output.x = }\n',
  );
  await writeFile(path.join(dir, 'sub', 'bad.yaml'), 'appId: x\n---\n- swipe:\n    direction: SIDEWAYS\n');
  const run = await maestro([path.join(dir, 'flow.yaml')]);
  expect(run.code, run.out).toBe(2);
  const shown = path.relative(ROOT, dir);
  for (const line of [
    `${shown}/flow.yaml:3 tapOn: tapOn: the selector names nothing`,
    `${shown}/flow.yaml:4 frobnicate: \`frobnicate\` is not a Maestro command`,
    `${shown}/flow.yaml:5 runFlow: no flow file ${shown}/sub/missing.yaml`,
    `${shown}/sub/bad.yaml:3 swipe: swipe direction is UP, DOWN, LEFT or RIGHT`,
    `${shown}/flow.yaml:7 evalScript: Unexpected end of input`,
    `${shown}/flow.yaml:1 appId: appId \${APP_ID}: APP_ID has no value; give it with --env APP_ID=<package>`,
  ])
    expect(run.out).toContain(line);
  expect(run.out).toContain('nothing was run');
});

test('a folder where one flow does not plan runs the others, reports that one, and fails (exit 1); MAESTRO_* variables resolve appId', async () => {
  test.setTimeout(120_000);
  const dir = path.join(tmp, 'mixed');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  // As Maestro: MAESTRO_APP_ID comes from the shell, with no --env.
  await writeFile(
    path.join(dir, 'good.yaml'),
    'appId: ${MAESTRO_APP_ID}\nname: good\n---\n- launchApp\n- assertVisible: "No notes yet"\n',
  );
  await writeFile(path.join(dir, 'broken.yaml'), 'appId: ${MAESTRO_APP_ID}\nname: broken\n---\n- frobnicate: 1\n');
  // scrollUntilVisible swipes the screen from its center, as Maestro's does, not an element picked
  // once (a list's progress bar, gone by the time of the swipe).
  await writeFile(
    path.join(dir, 'scroll.yaml'),
    'appId: com.android.settings\nname: scroll\n---\n- launchApp\n- scroll\n- scrollUntilVisible:\n    element: "About phone"\n- tapOn: "About phone"\n',
  );
  const json = path.join(tmp, 'mixed.json');
  const run = await maestro([dir, '--app', 'fixtures/apks/notes.apk'], json, {
    MAESTRO_APP_ID: 'com.nestwright.notes',
  });
  expect(run.code, run.out).toBe(1);
  const shown = path.relative(ROOT, dir);
  expect(run.out).toContain('1 problem(s); the flows they are in are not run, the 2 other flow(s) are:');
  expect(run.out).toContain(`${shown}/broken.yaml:4 frobnicate: \`frobnicate\` is not a Maestro command`);
  const all = results(run.report);
  expect(all.map((r) => [r.title.split(' (')[0], r.status]).sort()).toEqual([
    ['good', 'passed'],
    ['scroll', 'passed'],
  ]);
  const scroll = all.find((r) => r.title.startsWith('scroll'))!;
  expect(scroll.steps).toContain('Swipe up on the screen');
  expect(scroll.steps.filter((t) => /^Swipe .* on (?!the screen)/.test(t))).toEqual([]);
});
