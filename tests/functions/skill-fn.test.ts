import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { parseSkill } from '../../device-runtime/protocol/skill/index.js';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { attachmentText, plain, runInline, type InlineRun } from '../framework/inline.js';
import { sharedBatch } from '../framework/shared-batch.js';
import { runtime, session, spaceWithNotes, tempDir } from '../runtime/helpers.js';

/**
 * `fn:` skill steps: the app's function where the runtime has AppFunctions, the step's `ui`
 * steps where it has not; the same post-checks hold either way. Replayed by the framework
 * (inline specs) and by the device (`skill_run`).
 */
test.describe.configure({ mode: 'default' });

const SKILL = `name: quick-note
app: com.nestwright.notes
params:
  title: { type: string }
  copies: { type: number, default: 1 }
steps:
  - fn: { name: createNote, params: { title: "\${title}", body: "made by a skill" } }
    intent: Create the note
    ui:
      - tap: text=New note
      - fill: { target: id=title, value: "\${title}" }
      - tap: role=button[name="Save"]
    post:
      - visible: text=\${title}
`;
const NO_UI = `name: no-ui
app: com.nestwright.notes
steps:
  - fn: { name: createNote, params: { title: Lonely } }
`;
const UNKNOWN_FN = `name: unknown-fn
app: com.nestwright.notes
steps:
  - fn: { name: archiveAll }
    ui:
      - tap: text=New note
    post: [{ visible: id=title }]
`;

const TESTS = `
test('fn step', async ({ app }) => {
  const r = await app.runSkill('quick-note.yaml', { title: 'Milk' });
  console.log('VIA ' + r.steps.map((s) => s.via ?? '-').join(','));
  await expect(app.getByText('Milk')).toBeVisible();
});
test('unknown function falls back to the ui steps', async ({ app }) => {
  const r = await app.runSkill('unknown-fn.yaml');
  expect(r.steps[0].via).toBe('ui');
});
test('no ui steps', async ({ app }) => {
  const e = await app.runSkill('no-ui.yaml').catch((x) => x);
  console.log('ERR ' + e.message.split('\\n').join(' | '));
});
`;
const SPEC = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
${TESTS}`;
// The same tests on a runtime without AppFunctions, in a describe of their own.
const BARE = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: { provider: 'sim', url: process.env.NW_BARE_URL, token: process.env.NW_BARE_TOKEN } });
test.describe('without AppFunctions', () => {${TESTS}});
`;
const BARE_TITLE = (title: string) => `without AppFunctions > ${title}`;

let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  ({ run } = await sharedBatch('skill-fn', async () => {
    const sim = await startSimServer({ appFunctions: false });
    try {
      const files = {
        'quick-note.yaml': SKILL,
        'no-ui.yaml': NO_UI,
        'unknown-fn.yaml': UNKNOWN_FN,
        'fn.spec.ts': SPEC,
        'fn-bare.spec.ts': BARE,
      };
      const run = await runInline(files, { workers: 1, env: { NW_BARE_URL: sim.url, NW_BARE_TOKEN: sim.token } });
      return { run };
    } finally {
      await sim.close();
    }
  }));
});

/** What a test printed; it must have passed. */
const out = (title: string) => {
  const res = run.result(title);
  expect(res.status, plain(res.error)).toBe('passed');
  return res.stdout;
};

test('the framework calls the function where the runtime has it: one step with source function, the post-check holds', () => {
  const text = out('fn step');
  expect(text).toContain('VIA function');
  const t = JSON.parse(
    attachmentText(run.result('fn step').attachments.find((a) => a.name === 'nestwright-trajectory')!),
  );
  const fn = t.steps.find((s: any) => s.api === 'app.functions.call' || s.source === 'function');
  expect(fn).toMatchObject({
    source: 'function',
    function: { id: 'createNote', by: 'skill', params: { title: 'Milk' } },
  });
  expect(t.steps.some((s: any) => s.api === 'locator.tap')).toBe(false);
  expect(t.steps.some((s: any) => s.title === 'Post-check: visible text=Milk' && s.result === 'ok')).toBe(true);
});

test('without AppFunctions the same skill runs its ui steps, and the post-check holds', () => {
  expect(out(BARE_TITLE('fn step'))).toContain('VIA ui');
  const t = JSON.parse(
    attachmentText(run.result(BARE_TITLE('fn step')).attachments.find((a) => a.name === 'nestwright-trajectory')!),
  );
  expect(t.steps.filter((s: any) => s.api === 'locator.tap')).toHaveLength(2);
  expect(t.steps.some((s: any) => s.source === 'function')).toBe(false);
});

test('a function the app does not declare falls back to the ui steps; no ui steps is an error that says so', () => {
  out('unknown function falls back to the ui steps');
  expect(out(BARE_TITLE('no ui steps'))).toContain(
    'the step calls createNote, but this device runtime offers no AppFunctions, and the step has no ui: steps',
  );
});

test('the skill format: fn takes params and ui steps; a fn inside ui is an error', () => {
  expect(parseSkill(SKILL, 'quick-note.yaml').steps[0]).toMatchObject({ kind: 'fn', fn: { name: 'createNote' } });
  const nested = `name: x\napp: com.nestwright.notes\nsteps:\n  - fn: { name: a }\n    ui:\n      - fn: { name: b }\n`;
  expect(() => parseSkill(nested, 'x.yaml')).toThrow(/x\.yaml:6/);
});

test('skill_run on the device: the function where it has one, the ui steps where not; typed params', async () => {
  const dir = tempDir('nw-fn-skills-');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'quick-note.yaml'), SKILL);
  for (const appFunctions of [true, false]) {
    const rt = runtime({ skills: dir, appFunctions });
    const s = session(rt, 'a');
    const space_id = await spaceWithNotes(s);
    const r = await s.ok('skill_run', { space_id, skill: 'quick-note', params: { title: 'Eggs' } });
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true, failed_step: null });
    const calls = (await s.ok('audit_query', { space_id })).entries.map((e) => e.tool);
    if (appFunctions) {
      expect(calls).toContain('appfn_execute');
      expect(calls).not.toContain('ui_tap');
    } else expect(calls.filter((c) => c === 'ui_tap')).toHaveLength(2);
    const obs = await s.ok('ui_observe', { space_id });
    expect(obs.nodes.some((n) => n.text === 'Eggs')).toBe(true);
    rt.close();
  }
});
