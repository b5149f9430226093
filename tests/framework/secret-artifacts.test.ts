import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import { done, press, scripted, tap, typeInto } from '../ai/scripted-model.js';
import { MessagesStandIn } from '../ai/stand-in.js';
import { tempDir } from '../runtime/helpers.js';
import { spawnSim, type SpawnedSim } from '../transport/spawn-sim.js';
import { ROOT, runInline, type InlineRun } from './inline.js';

/**
 * Secrets end to end: failing tests that type passwords three ways — a plain string filled into
 * a password field, `fill(secret(…))`, and app.ai.act with a secret() param — on a simulator
 * of their own (`nestwright sim`), with every artifact a run leaves then searched for the values:
 * the Playwright JSON report (errors, steps, attachments: trajectory, logcat, tree, screenshots),
 * test-results/, allure-results and the Allure HTML made from them (when Java is there), the AI
 * cache, what the runs printed, the simulator's audit log, each space's logcat, the simulator's
 * output and state dir. Zero hits is the pass mark.
 */
test.describe.configure({ timeout: 240_000 });

const PLAIN = 'pw-Plain-4c1e';
const BY_REF = 'pw-ByRef-9d0b';
const AI = 'pw-AiAct-27fa';
const SECRETS = [PLAIN, BY_REF, AI];

const SPEC = `import { test, expect, secret } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk', screenshot: 'on', actionTimeout: 10_000 });
test.describe.configure({ timeout: 90_000 });

// The whole logcat of the worker's space, every app and instance in it.
test.afterEach(async ({ device, space }, testInfo) => {
  const { lines } = await device.client.call('sys_logcat', { space_id: space.id, max_lines: 10_000 });
  await testInfo.attach('space-logcat', { body: JSON.stringify(lines, null, 1), contentType: 'application/json' });
});

async function signInForm(app) {
  await app.getById('email').fill('ana@example.com');
  // The keyboard covers the password field until Back hides it (as in specs/shop.spec.ts).
  await expect(app.getById('password')).toBeHidden();
  await app.press('back');
  await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
}

test('fills a password field, then expects a screen that never comes', async ({ app }) => {
  await signInForm(app);
  await app.getById('password').fill(process.env.PLAIN_PW);
  await app.press('back'); // the keyboard is up again, over the field
  await app.getById('password').fill(secret(process.env.REF_PW));
  await expect(app.getByText('Welcome back')).toBeVisible({ timeout: 1_000 });
});

test('a password typed into a field that is not there', async ({ app }) => {
  await app.getById('no_such_field').fill(process.env.PLAIN_PW, { timeout: 1_000 });
});

test('types a secret by instruction, then fails', async ({ app }) => {
  await app.ai.act('sign in as {user} with password {password}, accepting the terms', {
    params: { user: 'ana@example.com', password: secret(process.env.AI_PW) },
  });
  await expect(app.getByText('Welcome back')).toBeVisible({ timeout: 1_000 });
});
`;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** Where each secret occurs in `text` (a name for the report). */
function hits(where: string, text: string): string[] {
  return SECRETS.filter((s) => text.includes(s)).map((s) => `${where}: ${s}`);
}

let sim: SpawnedSim;
let model: MessagesStandIn;
let run: InlineRun;
// One run shared by the checks below: they run in order in one worker (the suite is fully
// parallel, and each worker would otherwise make, and wipe, its own copy of the run).
test.describe.configure({ mode: 'default' });
const dir = path.join(ROOT, 'test-results', 'secret-artifacts', randomUUID().slice(0, 8));
const stateDir = tempDir('nw-secrets-');

test.beforeAll(async () => {
  test.setTimeout(240_000);
  rmSync(dir, { recursive: true, force: true });
  sim = await spawnSim(['--port', '0', '--state-dir', stateDir]);
  model = await MessagesStandIn.start(
    scripted([
      {
        match: 'sign in as',
        turns: [
          typeInto('email', '{user}'),
          press('back'),
          tap('I accept the terms'),
          typeInto('password', '{password}'),
          done('filled in'),
        ],
      },
    ]),
  );
  const token = readFileSync(path.join(stateDir, 'token'), 'utf8').trim();
  run = await runInline(
    { 'secrets.spec.ts': SPEC },
    {
      dir,
      workers: 2,
      use: `deviceOptions: { provider: 'sim', url: process.env.NW_URL, token: process.env.NW_TOKEN }, ai: { baseURL: '${model.url}', apiKey: 'test-key' }`,
      env: { NW_URL: sim.url, NW_TOKEN: token, PLAIN_PW: PLAIN, REF_PW: BY_REF, AI_PW: AI },
      args: ['--reporter=json,./reporters/allure/index.ts'],
    },
  );
});

test.afterAll(async () => {
  await sim?.kill('SIGTERM');
  await model?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

test('the runs failed as written, and typed every secret where it belongs', async () => {
  for (const t of [
    'fills a password field, then expects a screen that never comes',
    'a password typed into a field that is not there',
    'types a secret by instruction, then fails',
  ]) {
    expect(run.result(t).status, `${t}\n${run.stderr}`).toBe('failed');
  }
  // The failures are the assertions at the end, not the typing before them.
  expect(run.result('fills a password field, then expects a screen that never comes').error).toContain('Welcome back');
  expect(run.result('types a secret by instruction, then fails').error).toContain('Welcome back');
  expect(run.result('a password typed into a field that is not there').error).toMatch(/locator\.fill: timeout/);
  // The model saw the placeholder, never a value.
  expect(JSON.stringify(model.requests.map((q) => q.body))).toContain('{password}');
  // Titles: an email is shown, what goes into a password field never.
  const steps = run.result('fills a password field, then expects a screen that never comes').steps.join('\n');
  expect(steps).toContain('Type "ana@example.com" into id=email');
  expect(steps.match(/Type "\*\*\*" into id=password/g)).toHaveLength(2);
});

test('no artifact of the run holds a secret', async () => {
  const found: string[] = [];
  found.push(...hits('Playwright JSON report', JSON.stringify(run.raw)));
  found.push(...hits('runner output', run.stderr));
  for (const a of run.results.flatMap((r) => r.attachments)) {
    if (a.body) found.push(...hits(`attachment ${a.name}`, Buffer.from(a.body, 'base64').toString('latin1')));
  }
  const written = filesUnder(dir).filter((f) => !f.endsWith('.spec.ts'));
  expect(written.some((f) => f.includes(`${path.sep}allure-results${path.sep}`))).toBe(true);
  expect(written.some((f) => f.includes(`${path.sep}test-results${path.sep}`))).toBe(true);
  for (const f of written) found.push(...hits(path.relative(dir, f), readFileSync(f, 'latin1')));

  // The simulator's side (each space's whole logcat is an attachment, above): its audit log,
  // what it printed, its state dir.
  const c = new DeviceClient(
    await McpToolTransport.http(sim.url, readFileSync(path.join(stateDir, 'token'), 'utf8').trim()),
  );
  const audit = await c.call('audit_query', { limit: 10_000 });
  found.push(...hits('audit log', JSON.stringify(audit)));
  await c.close();
  found.push(...hits('simulator output', sim.stdout()));
  for (const f of filesUnder(stateDir)) found.push(...hits(`state dir ${path.basename(f)}`, readFileSync(f, 'latin1')));
  expect(found).toEqual([]);
  // Five set_text calls reached the device (two by the AI step), each masked in the audit log.
  const setText = audit.entries.filter((e) => e.tool === 'ui_set_text');
  expect(setText.length).toBeGreaterThanOrEqual(5);
  expect(setText.filter((e) => e.args.text === '***').length).toBeGreaterThanOrEqual(3);
});

test('the Allure HTML report made from the run holds no secret', async () => {
  test.skip(spawnSync('java', ['-version']).status !== 0, 'Allure 2 needs Java (apt-get install default-jre-headless)');
  const out = path.join(dir, 'allure-report');
  const log: string[] = [];
  const code = await reportCommand(['--results', path.join(dir, 'allure-results'), '--output', out], {
    out: (t) => log.push(t),
    err: (t) => log.push(t),
  });
  expect(code, log.join('')).toBe(0);
  const files = filesUnder(out);
  expect(files.some((f) => f.endsWith('index.html'))).toBe(true);
  const found = files.flatMap((f) => hits(path.relative(out, f), readFileSync(f, 'latin1')));
  expect(found).toEqual([]);
});
