import { expect, test } from '@playwright/test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  startEmbeddedDevice,
  type EmbeddedDevice,
} from '../../device-runtime/providers/index.js';
import { MessagesStandIn } from '../ai/stand-in.js';
import { project } from './project.js';

/**
 * `use.heal: { mode: 'auto', model }` in a real run on the simulator, the model being the
 * Messages API stand-in on loopback (use.ai.baseURL). The spec's fingerprint file says its
 * locator `id=note_text` found a text field sitting between Notes 2.0's Title and Note fields,
 * named like both: the scores cannot choose, so the model is asked.
 */
let sim: EmbeddedDevice;
let api: MessagesStandIn;
let shared: Record<string, string>;
test.beforeAll(async () => {
  [sim, api] = await Promise.all([startEmbeddedDevice(), MessagesStandIn.start()]);
  shared = { [EMBEDDED_URL_ENV]: sim.url, [EMBEDDED_TOKEN_ENV]: sim.token, STAND_IN: api.url };
});
test.afterAll(async () => Promise.all([sim?.close(), api?.close()]));

const CONFIG = `import { defineConfig } from 'nestwright';
export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  timeout: 60_000,
  use: {
    deviceOptions: { provider: 'sim' }, actionTimeout: 1_500, trajectory: 'on',
    heal: { mode: 'auto', model: 'claude-haiku-5-5' },
    ai: { baseURL: process.env.STAND_IN, apiKey: 'test-key', ...(process.env.TOKENS ? { budget: { test: { tokens: Number(process.env.TOKENS) } } } : {}) },
  },
});
`;

const SPEC = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes-v2.apk' });
test('writes a note', async ({ app }) => {
  await app.getByText('Create note').tap();
  await app.getById('note_text').fill('Buy milk');
  await app.getById('save_note').tap();
  await expect(app.getByText('Buy milk')).toBeVisible();
});
`;

const FINGERPRINTS = {
  version: 1,
  entries: {
    '5:3 id=note_text': {
      selector: 'id=note_text',
      line: 5,
      column: 3,
      fingerprint: {
        version: 1,
        role: 'textbox',
        class: 'android.widget.EditText',
        res_id: 'note_text',
        text: '',
        desc: null,
        hint: null,
        clickable: false,
        editable: true,
        checkable: false,
        bounds: [0, 0.175, 1, 0.235],
        neighbors: ['New note', 'Save'],
        ancestors: [],
        package: 'com.nestwright.notes',
        activity: '.EditNoteActivity',
      },
    },
  },
  rejected: [],
};

const candidateLines = (texts: string[]) =>
  texts
    .join('\n')
    .split('\n')
    .filter((l) => / \(score 0\.\d\d\)$/.test(l));
const trajectoryOf = (t: { attachments: Array<{ name: string; body?: string }> }) =>
  JSON.parse(
    Buffer.from(t.attachments.find((a) => a.name === 'nestwright-trajectory')!.body!, 'base64').toString(),
  ) as { steps: Array<{ source: string; heal?: any }> };

test('a close call on a real screen: the model picks, the step runs on its pick and passes its check; none fails the test; the budget holds', async () => {
  test.setTimeout(300_000);
  const p = await project(
    {
      'playwright.config.ts': CONFIG,
      'specs/notes.spec.ts': SPEC,
      'specs/__fingerprints__/notes.spec.ts.json': JSON.stringify(FINGERPRINTS),
    },
    shared,
  );

  // 1. The model reads the candidate lines and picks the Title field.
  api.requests.length = 0;
  api.script = (req) => {
    const title = candidateLines(req.view.texts()).find((l) => l.includes('hint="Title"'));
    return title
      ? {
          kind: 'tool',
          name: 'choose',
          input: { node_id: title.split(' ')[0], reason: 'a note is written under its title' },
        }
      : { kind: 'tool', name: 'none', input: { reason: 'no title field' } };
  };
  const picked = await p.run();
  expect(picked.tests[0], picked.tests[0]?.error).toMatchObject({ status: 'passed' });
  expect(api.requests).toHaveLength(1);
  const offered = candidateLines(api.requests[0]!.view.texts());
  expect(offered).toHaveLength(2);
  expect(offered.join('\n')).toContain('hint="Note"');
  const healed = trajectoryOf(picked.tests[0]!).steps.find((s) => s.source === 'healed')!;
  expect(healed.heal).toMatchObject({
    from: 'id=note_text',
    to: 'id=note_title',
    by: 'model',
    arbitration: {
      model: 'claude-haiku-5-5',
      choice: expect.stringMatching(/^n_\d+$/),
      reason: 'a note is written under its title',
    },
  });
  expect(healed.heal.arbitration.tokens).toBeGreaterThan(0);
  expect(picked.tests[0]!.annotations.find((a) => a.type === 'heal-model')?.description).toMatch(
    /^id=note_text at specs\/notes\.spec\.ts:5: claude-haiku-5-5 chose n_\d+ of 2 \(a note is written under its title\); \d+ tokens, \$0\.\d{4}$/,
  );
  const proposals = readdirSync(path.join(p.dir, '.nestwright/heal/proposals')).filter((f) => f.endsWith('.json'));
  expect(proposals).toHaveLength(1);
  expect(JSON.parse(readFileSync(path.join(p.dir, '.nestwright/heal/proposals', proposals[0]!), 'utf8'))).toMatchObject(
    { by: 'model', proposed: 'id=note_title', mode: 'auto' },
  );

  // 2. The model says none: nothing is healed, the action fails with the model's reason and the candidates.
  api.script = () => ({ kind: 'tool', name: 'none', input: { reason: 'both fields could be it' } });
  const none = await p.run();
  expect(none.tests[0]!.status).toBe('failed');
  expect(none.tests[0]!.error).toContain('locator.fill: timeout');
  expect(none.tests[0]!.error).toContain(
    'heal: not healed (MODEL_DECLINED): the model chose none: both fields could be it.',
  );
  expect(none.tests[0]!.error).toMatch(
    /1\) 0\.\d\d textbox id=note_(title|body) \[0,\d+,1080,\d+\]\n +2\) 0\.\d\d textbox id=note_(title|body)/,
  );
  expect(existsSync(path.join(p.dir, '.nestwright/heal/proposals'))).toBe(false);

  // 3. A test budget too small for the request: the heal is not attempted past it.
  api.script = () => ({ kind: 'tool', name: 'none', input: { reason: 'unreached' } });
  const broke = await p.run({ TOKENS: '10' });
  expect(broke.tests[0]!.status).toBe('failed');
  expect(broke.tests[0]!.error).toContain('heal: the model could not arbitrate, so nothing was healed');
  expect(broke.tests[0]!.error).toContain('[AI_BUDGET_EXCEEDED]');
});
