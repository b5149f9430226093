import { expect, test } from '@playwright/test';
import { AnthropicAdapter } from '../../framework/ai/anthropic.js';
import { fingerprintOf, heal, modelArbiter } from '../../framework/heal/index.js';
import { MessagesStandIn, type Reply } from '../ai/stand-in.js';
import { btn, col, field, row, screen, toolbar, txt, type V } from './corpus/dsl.js';

/**
 * Model arbitration through the AI steps' adapter (the Anthropic SDK) against a local Messages
 * API stand-in on loopback: what the model is sent, and that its answer is only a choice.
 */
let api: MessagesStandIn;
test.beforeAll(async () => (api = await MessagesStandIn.start()));
test.afterAll(async () => api?.close());
test.beforeEach(() => {
  api.requests.length = 0;
  api.faults.length = 0;
});

const adapter = () =>
  new AnthropicAdapter({ apiKey: 'test-key', baseURL: api.url, maxRetries: 2, timeoutMs: 10_000, stream: false });
const arbiter = () => modelArbiter({ adapter: adapter(), model: 'claude-haiku-5-5' });

const before = screen('.Edit', [
  toolbar('Edit'),
  field('Title', 'title'),
  field('Note', 'body'),
  btn('Save', 'save', { key: 'save' }),
]);
const fp = fingerprintOf(before.observation, before.keys.save!);
// Two look-alikes of Save: the scores alone cannot tell them apart.
const close = screen('.Edit', [
  toolbar('Edit'),
  field('Title', 'title'),
  field('Note', 'body'),
  btn('Save note', 'save_note'),
  btn('Save and close', 'save_close'),
]);
const lineOf = (text: string) => (req: { view: { texts(): string[] } }) =>
  req.view
    .texts()
    .join('\n')
    .split('\n')
    .find((l) => l.includes(`"${text}"`))!;
const idOnLine = (line: string) => line.split(' ')[0]!;

test('a close call goes to the model with the fingerprint and at most 8 candidate lines; its pick heals, by model', async () => {
  expect(heal({ selector: 'id=save', fingerprint: fp, observation: close.observation })).toMatchObject({
    status: 'unhealed',
    code: 'NO_MARGIN',
  });
  api.script = (req): Reply => ({
    kind: 'tool',
    name: 'choose',
    input: { node_id: idOnLine(lineOf('Save and close')(req)), reason: 'saving and leaving is what Save did' },
  });
  const r = await heal({ selector: 'id=save', fingerprint: fp, observation: close.observation, model: arbiter() });
  expect(r).toMatchObject({ status: 'healed', by: 'model', selector: 'id=save_close' });
  expect(r.status === 'healed' && r.reasons[0]).toBe('the model: saving and leaving is what Save did');
  expect(api.requests).toHaveLength(1);
  const body = api.requests[0]!.body;
  expect(body.model).toBe('claude-haiku-5-5');
  expect(body.tools.map((t: { name: string }) => t.name)).toEqual(['choose', 'none']);
  expect(body.tool_choice).toMatchObject({ type: 'any' });
  const prompt = api.requests[0]!.view.texts().join('\n');
  expect(prompt).toContain('<locator>"id=save"</locator>');
  expect(prompt).toMatch(/<was>role button; text "Save"; id=save; at \[/);
  const lines = prompt.split('\n').filter((l) => / \(score 0\.\d\d\)$/.test(l));
  expect(lines.length).toBeGreaterThanOrEqual(2);
  expect(lines.length).toBeLessThanOrEqual(8);
  expect(lines.join('\n')).toMatch(/^n_\d+ button "Save note" id=save_note \(score/m);
});

test('the model may say none; a pick that was not offered is declined', async () => {
  api.script = () => ({ kind: 'tool', name: 'none', input: { reason: 'neither is a plain Save' } });
  expect(
    await heal({ selector: 'id=save', fingerprint: fp, observation: close.observation, model: arbiter() }),
  ).toMatchObject({
    status: 'unhealed',
    code: 'MODEL_DECLINED',
    reason: 'the model chose none: neither is a plain Save',
  });
  // The toolbar title is on screen but was not offered (not a candidate): refused.
  const title = close.observation.nodes.find((n) => n.text === 'Edit')!.id;
  api.script = () => ({ kind: 'tool', name: 'choose', input: { node_id: title, reason: 'x' } });
  const r = await heal({ selector: 'id=save', fingerprint: fp, observation: close.observation, model: arbiter() });
  expect(r).toMatchObject({ status: 'unhealed', code: 'MODEL_DECLINED' });
  expect(r.status === 'unhealed' && r.reason).toMatch(/which is not one of the \d candidates offered/);
});

test('a malformed answer is sent back once; twice fails with AI_BAD_OUTPUT; API errors are retried by the SDK', async () => {
  let n = 0;
  api.script = (req) =>
    n++ === 0
      ? { kind: 'tool', name: 'choose', input: { node: 'n_5' } }
      : {
          kind: 'tool',
          name: 'choose',
          input: { node_id: idOnLine(lineOf('Save note')(req)), reason: 'it saves the note' },
        };
  expect(
    await heal({ selector: 'id=save', fingerprint: fp, observation: close.observation, model: arbiter() }),
  ).toMatchObject({ status: 'healed', by: 'model', selector: 'id=save_note' });
  expect(api.requests).toHaveLength(2);
  expect(JSON.stringify(api.requests[1]!.body.messages)).toContain('refused:');

  api.script = () => ({ kind: 'tool', name: 'pick', input: {} });
  await expect(
    heal({ selector: 'id=save', fingerprint: fp, observation: close.observation, model: arbiter() }),
  ).rejects.toThrow(/\[AI_BAD_OUTPUT\].*unknown tool "pick"/);

  api.requests.length = 0;
  api.faults.push({ status: 429, retryAfter: 0 });
  api.script = () => ({ kind: 'tool', name: 'none', input: { reason: 'unsure' } });
  expect(
    await heal({ selector: 'id=save', fingerprint: fp, observation: close.observation, model: arbiter() }),
  ).toMatchObject({ code: 'MODEL_DECLINED' });
  expect(api.requests).toHaveLength(2);
});

test('clear cases and cases with no candidate of the kind never reach the model', async () => {
  api.script = () => ({ kind: 'tool', name: 'none', input: { reason: 'should not be asked' } });
  const clear = screen('.Edit', [
    toolbar('Edit'),
    field('Title', 'title'),
    field('Note', 'body'),
    btn('Save', 'save_button'),
  ]);
  expect(
    await heal({ selector: 'id=save', fingerprint: fp, observation: clear.observation, model: arbiter() }),
  ).toMatchObject({ status: 'healed', by: 'score' });
  const none = screen('.Edit', [toolbar('Edit'), field('Title', 'title'), field('Note', 'body')]);
  expect(
    await heal({ selector: 'id=save', fingerprint: fp, observation: none.observation, model: arbiter() }),
  ).toMatchObject({ status: 'unhealed', code: 'NO_CANDIDATE' });
  expect(api.requests).toHaveLength(0);
  // A button in Save's place with another name is the model's call (a rename, or another action):
  // it is offered, and a model that says none leaves it declined.
  const other = screen('.Edit', [
    toolbar('Edit'),
    field('Title', 'title'),
    field('Note', 'body'),
    btn('Delete', 'delete'),
  ]);
  api.script = () => ({ kind: 'tool', name: 'none', input: { reason: 'Delete is not Save' } });
  expect(
    await heal({ selector: 'id=save', fingerprint: fp, observation: other.observation, model: arbiter() }),
  ).toMatchObject({ status: 'unhealed', code: 'MODEL_DECLINED' });
  expect(api.requests).toHaveLength(1);
});

test('a reworded label no string measure links ("Send money" → "Wire funds") is declined by the scores, and offered to a model', async () => {
  const was = screen('.Transfer', [
    toolbar('Transfer'),
    field('Amount', 'amount'),
    btn('Send money', 'confirm', { key: 'target' }),
  ]);
  const now = screen('.Transfer', [toolbar('Transfer'), field('Amount', 'amount'), btn('Wire funds', 'wire_funds')]);
  const target = fingerprintOf(was.observation, was.keys.target!);
  expect(
    heal({ selector: 'role=button[name="Send money"]', fingerprint: target, observation: now.observation }),
  ).toMatchObject({ status: 'unhealed', code: 'NO_CANDIDATE' });
  api.script = (req) => ({
    kind: 'tool',
    name: 'choose',
    input: { node_id: idOnLine(lineOf('Wire funds')(req)), reason: 'wiring funds is sending money' },
  });
  const r = await heal({
    selector: 'role=button[name="Send money"]',
    fingerprint: target,
    observation: now.observation,
    model: arbiter(),
  });
  expect(r).toMatchObject({ status: 'healed', by: 'model', selector: 'role=button[name="Wire funds"]' });
  const offered = api.requests[0]!.view.texts()
    .join('\n')
    .split('\n')
    .filter((l) => / \(score 0\.\d\d\)$/.test(l));
  expect(offered).toEqual([expect.stringMatching(/^n_\d+ button "Wire funds" id=wire_funds \(score 0\.\d\d\)$/)]);
});

test('a control that was another node of the recorded screen is never offered to the model, and picking it is refused', async () => {
  const knob = (id: string, more: Partial<V> = {}): V => ({
    role: 'switch',
    id,
    clickable: true,
    checkable: true,
    w: 200,
    h: 168,
    ...more,
  });
  const pref = (title: string, summary: string, id: string, more: Partial<V> = {}) =>
    row([col([txt(title), txt(summary, undefined, { h: 72 })]), knob(id, more)]);
  const was = screen('.Backup', [
    toolbar('Backup'),
    pref('Sync photos', 'On all devices', 'toggle_sync', { key: 'target' }),
    pref('Back up over mobile data', 'May cost', 'toggle_backup'),
    pref('Save photo location', 'In details', 'toggle_location'),
  ]);
  // Sync photos re-ided and retitled, moved last: nothing a string measure links; Back up over mobile data now in its slot.
  const now = screen('.Backup', [
    toolbar('Backup'),
    pref('Back up over mobile data', 'May cost', 'toggle_backup'),
    pref('Save photo location', 'In details', 'toggle_location'),
    pref('Keep library up to date', 'On all devices', 'cloud_library', { key: 'target' }),
  ]);
  const target = fingerprintOf(was.observation, was.keys.target!);
  const sibling = now.observation.nodes.find((n) => n.res_id?.endsWith(':id/toggle_backup'))!;
  api.script = () => ({
    kind: 'tool',
    name: 'choose',
    input: { node_id: sibling.id, reason: 'it sits where Sync photos was' },
  });
  const r = await heal({
    selector: 'id=toggle_sync',
    fingerprint: target,
    observation: now.observation,
    model: arbiter(),
  });
  expect(r).toMatchObject({ status: 'unhealed', code: 'MODEL_DECLINED' });
  expect(r.status === 'unhealed' && r.reason).toMatch(/which is not one of the 1 candidates offered/);
  const offered = api.requests[0]!.view.texts()
    .join('\n')
    .split('\n')
    .filter((l) => / \(score 0\.\d\d\)$/.test(l));
  expect(offered).toEqual([expect.stringMatching(/^n_\d+ switch id=cloud_library \[unchecked\] \(score 0\.\d\d\)$/)]);
  // A fingerprint recorded before others were kept offers the sibling too: the exclusion is what keeps it out.
  const { others: _o, ...legacy } = target;
  api.requests.length = 0;
  api.script = () => ({ kind: 'tool', name: 'none', input: { reason: 'x' } });
  await heal({ selector: 'id=toggle_sync', fingerprint: legacy, observation: now.observation, model: arbiter() });
  expect(api.requests[0]!.view.texts().join('\n')).toContain('id=toggle_backup');
});
