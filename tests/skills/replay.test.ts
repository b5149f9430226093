import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { parseDocument } from 'yaml';
import { attachmentText, plain, ROOT, runInline, type InlineRun } from '../framework/inline.js';

/**
 * Skills replayed as tests, end to end: Playwright runs inline specs that call app.runSkill /
 * expect(app).toPassSkill on the simulator. Every example skill in skills/ is also run with each
 * of its post-checks made wrong, one at a time: each of those runs must fail at that check.
 */
test.describe.configure({ mode: 'default' });

const FEATURES = `name: features
app: com.nestwright.notes
params:
  title: { type: string }
steps:
  - when: { visible: text=Rate this app }
    tap: text=Not now
  - tap: [text=Does not exist, text=New note]
    post: [{ visible: id=title }]
  - tap: text=Never there
    optional: true
    timeout: 300
  - run: { skill: fill-title.yaml, params: { value: "\${title}" } }
  - tap: role=button[name="Save"]
    pre: [{ visible: id=title }]
    post:
      - count: { target: id=note_title, value: 1 }
      - text: { target: id=note_title, value: "\${title}" }
  - assert: { hidden: text=No notes yet }
  - wait_for: idle
`;
const FILL_TITLE = `name: fill-title
app: com.nestwright.notes
params: { value: {} }
steps:
  - fill: { target: id=title, value: "\${value}" }
    pre: [{ visible: id=title }]
    post: [{ text: { target: id=title, value: "\${value}" } }]
`;

/** The parameters each example skill is run with (as in specs/skills.spec.ts). */
const EXAMPLES: Record<string, { app: string; params: Record<string, string> }> = {
  'add-note.yaml': { app: 'fixtures/apks/notes.apk', params: { title: 'Buy milk' } },
  'turn-on-wifi.yaml': { app: 'com.android.settings', params: {} },
  'sign-in.yaml': { app: 'fixtures/apks/shop.apk', params: { email: 'ana@example.com', password: 'hunter22' } },
  'send-message.yaml': { app: 'fixtures/apks/chat.apk', params: { name: 'Mutant', message: 'Hi there' } },
  'join-room.yaml': { app: 'fixtures/apks/chat.apk', params: { name: 'Mutant' } },
};

/** A wrong version of a check: the value it expects is changed so that the app cannot show it. */
function wrong(check: Record<string, any>): Record<string, any> {
  const alter = (sel: string) =>
    /"[^"]*"(?!.*")/.test(sel)
      ? sel.replace(/"([^"]*)"(?!.*")/, '"$1 (wrong)"')
      : /id=\w+$/.test(sel)
        ? `${sel}_wrong`
        : `${sel} (wrong)`;
  if ('visible' in check)
    return { visible: typeof check.visible === 'string' ? alter(check.visible) : check.visible.map(alter) };
  if ('hidden' in check) return { visible: check.hidden };
  if ('text' in check) return { text: { ...check.text, value: `${check.text.value} (wrong)` } };
  if ('count' in check) return { count: { ...check.count, value: check.count.value + 1 } };
  if ('activity' in check) return { activity: `${check.activity}Wrong` };
  throw new Error(`unknown check ${JSON.stringify(check)}`);
}

/**
 * Every example skill with its last post-check (the proof of the outcome) made wrong; with
 * NESTWRIGHT_ALL_MUTANTS=1, every post-check of every skill, one at a time.
 */
function mutants(): Array<{ file: string; source: string; text: string; check: string }> {
  const out: Array<{ file: string; source: string; text: string; check: string }> = [];
  for (const source of Object.keys(EXAMPLES)) {
    const doc = parseDocument(readFileSync(path.join(ROOT, 'skills', source), 'utf8'));
    const steps = doc.toJS().steps as Array<{ post?: Record<string, any>[] }>;
    const all = steps.flatMap((step, i) => (step.post ?? []).map((_, j) => [i, j] as const));
    const chosen = process.env.NESTWRIGHT_ALL_MUTANTS ? all : all.slice(-1);
    steps.forEach((step, i) =>
      step.post?.forEach((check, j) => {
        if (!chosen.some(([a, b]) => a === i && b === j)) return;
        const copy = doc.clone();
        const bad = wrong(check);
        copy.setIn(['steps', i, 'post', j], copy.createNode(bad));
        // The wrong check cannot hold: fail it in 1.5 s rather than the default 5 s.
        if (copy.getIn(['steps', i, 'timeout']) === undefined) copy.setIn(['steps', i, 'timeout'], 1500);
        copy.delete('apk');
        out.push({
          file: `mutant-${source.replace('.yaml', '')}-${i + 1}-${j + 1}.yaml`,
          source,
          text: copy.toString(),
          check: JSON.stringify(bad),
        });
      }),
    );
  }
  return out;
}

let run: InlineRun;
const MUTANTS = mutants();

test.beforeAll(async () => {
  test.setTimeout(900_000);
  const files: Record<string, string> = {
    'skills/features.yaml': FEATURES,
    'skills/fill-title.yaml': FILL_TITLE,
    'skills/join-room.yaml': readFileSync(path.join(ROOT, 'skills/join-room.yaml'), 'utf8'),
    'replay.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test('steps and records', async ({ app }) => {
  const r = await app.runSkill('skills/features.yaml', { title: 'Milk' });
  console.log('RESULT ' + JSON.stringify(r.steps.map((s) => s.status)));
});
// The tests below fail as declared (test.fail): their errors are what is checked, and Playwright
// keeps the worker, which it restarts after every unexpected failure.
test.fail('missing parameter', async ({ app }) => {
  await app.runSkill('skills/features.yaml', {});
});
test.fail('nested skill parameter checked first', async ({ app }) => {
  await app.runSkill('skills/features.yaml', { title: 7 });
});
test.fail('another app', async ({ app }) => {
  await app.runSkill('skills/join-room.yaml', { name: 'x' });
});
test.fail('pre-check fails', async ({ app }) => {
  await expect(app).toPassSkill('skills/fill-title.yaml', { value: 'x' });
});
`,
  };
  const specs: string[] = [];
  for (const m of MUTANTS) {
    files[`skills/${m.file}`] = m.text;
    const { app, params } = EXAMPLES[m.source]!;
    specs.push(`test.describe(${JSON.stringify(m.file)}, () => {
  test.use({ apk: ${JSON.stringify(app)} });
  test.fail('mutant', async ({ app }) => {
    test.setTimeout(90_000);
    await expect(app).toPassSkill(${JSON.stringify(`skills/${m.file}`)}, ${JSON.stringify(params)});
  });
});`);
  }
  files['mutants.spec.ts'] = `import { test, expect } from 'nestwright';\n${specs.join('\n')}\n`;
  // One worker: the tests are independent, and a second one is a second process and space.
  run = await runInline(files);
});

test('every step is a test step and a trajectory record with source skill; when, optional, alternatives, pre, run', () => {
  const r = run.result('steps and records');
  expect(r.status, r.error).toBe('passed');
  expect(run.raw && JSON.stringify(run.raw)).toContain(
    'RESULT [\\"skipped\\",\\"passed\\",\\"skipped\\",\\"passed\\",\\"passed\\",\\"passed\\",\\"passed\\"]',
  );
  expect(r.steps).toEqual(
    expect.arrayContaining([
      'Run skill features',
      '  features 1/7: Tap text=Not now',
      '  features 2/7: Tap text=Does not exist | text=New note',
      "    Tap text='New note'",
      '    Post-check: visible id=title',
      '  features 3/7: Tap text=Never there',
      '  features 4/7: Run skill fill-title.yaml',
      '    Run skill fill-title',
      '      fill-title 1/1: Fill id=title with "Milk"',
      '  features 5/7: Tap role=button[name="Save"]',
      '    Precondition: visible id=title',
      '    Post-check: count of id=note_title is 1',
      '  features 7/7: Wait for the screen to settle',
    ]),
  );
  const trajectory = JSON.parse(attachmentText(r.attachments.find((a) => a.name === 'nestwright-trajectory')!));
  expect(trajectory.steps.length).toBeGreaterThan(10);
  expect(trajectory.steps.every((s: { source: string }) => s.source === 'skill')).toBe(true);
  const save = trajectory.steps.find(
    (s: { title: string }) => s.title === 'features 5/7: Tap role=button[name="Save"]',
  );
  expect(save).toMatchObject({
    api: 'skill.tap',
    kind: 'action',
    result: 'ok',
    selector: 'role=button[name="Save"]',
    node: { text: 'Save' },
  });
  expect(save.before).toBeTruthy();
  expect(save.after).toBeTruthy();
});

test('a missing or ill-typed parameter is an error before anything runs, nested skills included', () => {
  const missing = run.result('missing parameter');
  expect(missing.status).toBe('failed');
  expect(plain(missing.error)).toContain(
    'app.runSkill: skill features: missing parameter "title" (string) — nothing was run',
  );
  expect(missing.attachments.find((a) => a.name === 'nestwright-trajectory')).toBeUndefined();
  const nested = run.result('nested skill parameter checked first');
  expect(plain(nested.error)).toContain(
    'app.runSkill: skill features: parameter "title" must be a string, got 7 — nothing was run',
  );
  expect(plain(run.result('another app').error)).toContain(
    'app.runSkill: skill chat.join_room drives com.nestwright.chat, but this app is com.nestwright.notes',
  );
});

test('a precondition that does not hold fails its step with what was expected and the screen', () => {
  const r = run.result('pre-check fails');
  expect(r.status).toBe('failed');
  const e = plain(r.error);
  expect(e).toContain('expect(app).toPassSkill("skills/fill-title.yaml") failed');
  expect(e).toContain('skill fill-title (');
  expect(e).toContain('failed at step 1 "Fill id=title with "x""');
  expect(e).toMatch(/precondition not met: visible id=title did not hold within \d+ms/);
  expect(e).toContain('  Expected: visible id=title\n  Received: not on screen');
  expect(e).toContain('com.nestwright.notes .MainActivity');
});

test('every example skill fails when one of its post-checks is wrong, at that check, saying what was on screen', () => {
  expect(MUTANTS.length).toBeGreaterThanOrEqual(5);
  const bySkill = new Set(MUTANTS.map((m) => m.source));
  expect([...bySkill].sort()).toEqual(
    readdirSync(path.join(ROOT, 'skills'))
      .filter((f) => f.endsWith('.yaml'))
      .sort(),
  );
  for (const m of MUTANTS) {
    const r = run.result(`${m.file} > mutant`);
    expect(r.status, `${m.file} (${m.check}) should fail`).toBe('failed');
    const e = plain(r.error);
    expect(e, m.file).toContain('post-check failed: ');
    expect(e, m.file).toContain('  Expected: ');
    expect(e, m.file).toContain('  Received: ');
    expect(e, m.file).toContain('Screen:\n');
    expect(e, m.file).toMatch(/post-check failed: .*(\(wrong\)|_wrong|Wrong|is \d+).* did not hold within \d+ms/);
  }
});
