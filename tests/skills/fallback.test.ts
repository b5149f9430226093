import { readFile, rm } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { proposalsCommand } from '../../cli/commands/skill-proposals.js';
import { done, scripted, tap } from '../ai/scripted-model.js';
import { MessagesStandIn } from '../ai/stand-in.js';
import { plain, ROOT, runInline } from '../framework/inline.js';

/**
 * Skills that an agent finishes: a step whose target is gone, with `ai: fallback` (from
 * use.skills, the skill or the step), is done by the AI agent (the stand-in model), verified by
 * its post-checks, and proposes a rewrite that `nestwright skill proposals --apply` writes into
 * the skill; the rewritten skill then replays with no model call. Without it the replay fails.
 */
test.describe.configure({ mode: 'serial' });

const dir = path.join(ROOT, 'test-results', 'skill-fallback');
let model: MessagesStandIn;

// "Add note" was the button's old label: the recorded step no longer resolves.
const STALE = `name: stale-note
app: com.nestwright.notes
params:
  title: { type: string }
steps:
  - tap: text=Add note
    intent: Open the editor for a new note
    timeout: 1000
    post: [{ visible: id=title }]
  - fill: { target: id=title, value: "\${title}" }
  - tap: role=button[name="Save"]
    post: [{ visible: "text=\${title}" }]
`;
const STEP_LEVEL = `name: step-level
app: com.nestwright.notes
steps:
  - tap: text=Add note
    ai: fallback
    intent: Open the editor for a new note
    timeout: 1000
    post: [{ visible: id=title }]
`;

const SPEC = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', actionTimeout: 10_000 });
test.describe.configure({ timeout: 120_000 });
test.describe('with use.skills.ai', () => {
  test.use({ skills: { ai: 'fallback' } });
  test('the agent finishes the step', async ({ app }) => {
    const r = await app.runSkill('stale-note.yaml', { title: 'Milk' });
    console.log('RESULT ' + JSON.stringify(r.steps.map((s) => [s.status, s.via ?? '-', s.proposal ?? '-'])));
    await expect(app.getByText('Milk')).toBeVisible();
  });
});
test('without it the replay fails as before', async ({ app }) => {
  const e = await app.runSkill('stale-note.yaml', { title: 'Milk' }).catch((x) => x);
  expect(e.code).toBe('SKILL_FAILED');
  expect(e.message).toContain('failed at step 1');
});
test('a step-level ai: fallback', async ({ app }) => {
  const r = await app.runSkill('step-level.yaml');
  expect(r.steps[0].via).toBe('ai');
});
`;

const run = (stale = STALE) =>
  runInline(
    { 'stale-note.yaml': stale, 'step-level.yaml': STEP_LEVEL, 'fallback.spec.ts': SPEC },
    { dir, workers: 1, use: `ai: { baseURL: '${model.url}', apiKey: 'test-key', cache: 'off' }` },
  );

test.beforeAll(async () => {
  await rm(dir, { recursive: true, force: true });
  model = await MessagesStandIn.start(
    scripted([{ match: 'Open the editor for a new note', turns: [tap('New note'), done('the editor is open')] }]),
  );
});
test.afterAll(async () => {
  await model?.close();
  if (!process.env.NESTWRIGHT_KEEP_INLINE) await rm(dir, { recursive: true, force: true });
});

let proposalId = '';

test('ai: fallback: the agent does the step, its post-check holds, a rewrite is proposed; without it the replay fails', async () => {
  test.setTimeout(360_000);
  const r = await run();
  for (const t of [
    'with use.skills.ai > the agent finishes the step',
    'without it the replay fails as before',
    'a step-level ai: fallback',
  ]) {
    const res = r.result(t);
    expect(res.status, `${t}: ${plain(res.error)}`).toBe('passed');
  }
  const line = /RESULT (.*)/.exec(JSON.stringify(r.raw).replace(/\\"/g, '"'))![1]!;
  expect(line).toContain('["passed","ai",');
  expect(model.mentioning('Open the editor for a new note').length).toBeGreaterThanOrEqual(2);
  const files = readdirSync(path.join(dir, '.nestwright', 'skills', 'proposals'));
  expect(files.length).toBeGreaterThanOrEqual(1);
  const out: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
  expect(await proposalsCommand(['--dir', dir, '--json'], io)).toBe(0);
  const proposals = JSON.parse(out.join(''));
  const p = proposals.find((x: any) => x.skill === 'stale-note.yaml');
  expect(p).toMatchObject({
    index: 0,
    original: { tap: 'text=Add note', intent: 'Open the editor for a new note' },
    proposed: [
      {
        tap: 'id=new_note',
        intent: 'Open the editor for a new note',
        post: [{ visible: 'id=title' }],
      },
    ],
  });
  proposalId = p.id;
});

test('nestwright skill proposals --apply rewrites the step in the file; the skill then replays with no model call', async () => {
  test.setTimeout(360_000);
  const out: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
  expect(await proposalsCommand(['--dir', dir], io)).toBe(0);
  expect(out.join('')).toContain(`${proposalId}  stale-note.yaml step 1 "Open the editor for a new note"`);
  expect(await proposalsCommand(['--dir', dir, '--apply', proposalId], io), out.join('')).toBe(0);
  const yaml = await readFile(path.join(dir, 'stale-note.yaml'), 'utf8');
  expect(yaml).not.toContain('text=Add note');
  expect(yaml).toContain('- tap: id=new_note');
  expect(yaml).toContain('fill: { target: id=title, value: "${title}" }');
  expect(existsSync(path.join(dir, '.nestwright', 'skills', 'proposals', `${proposalId}.json`))).toBe(false);
  const before = model.mentioning('Open the editor for a new note').length;
  const r = await run(yaml);
  expect(r.result('with use.skills.ai > the agent finishes the step').status).toBe('passed');
  expect(JSON.stringify(r.raw).replace(/\\"/g, '"')).toContain('RESULT [["passed","-","-"]');
  // Only the step-level skill (not rewritten) asked the model again.
  expect(model.mentioning('Open the editor for a new note').length - before).toBe(2);
  // The rewritten skill no longer needs a fallback: the test that runs it without one fails no more.
  expect(r.result('without it the replay fails as before').status).toBe('failed');
  expect(plain(r.result('without it the replay fails as before').error)).toContain('expect(received).toBe(expected)');
});
