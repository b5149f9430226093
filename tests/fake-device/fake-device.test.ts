import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect as pw } from '@playwright/test';
import { expect } from '../../framework/core/expect.js';
import { StrictModeViolationError, TimeoutError } from '../../framework/core/errors.js';
import { FingerprintStore } from '../../framework/heal/fingerprint-store.js';
import { Healer } from '../../framework/heal/healer.js';
import type { App } from '../../framework/core/app.js';
import { Space } from '../../framework/core/space.js';
import { Trajectory } from '../../framework/core/trajectory.js';
import type { DriverOptions } from '../../framework/core/driver.js';
import { button, checkbox, fakeDevice, field, label, type FakeDevice } from './fake-device.js';

/**
 * Locators, expect and healing on the fake device (fake-device.ts): the framework's real path —
 * App, Locator, the driver, the protocol client over MCP in memory — with a screen written in a
 * line and every tool call recorded. No simulator: what is under test is the framework.
 */

async function launch(
  device: FakeDevice,
  options: Partial<DriverOptions> = {},
): Promise<{ app: App; trajectory: Trajectory }> {
  const space = await Space.create(device.client, 'fake');
  const trajectory = new Trajectory();
  const app = await space.launch(device.pkg, trajectory, { actionTimeout: 1_000, expectTimeout: 1_000, ...options });
  return { app, trajectory };
}

let device: FakeDevice;
test.afterEach(async () => {
  await device?.close();
});

test('tap: resolved on the client, acted on by node id in the snapshot it was found in, effect checked', async () => {
  device = await fakeDevice({
    screen: [label('Notes'), button('New note', { onTap: (d) => d.show([field({ id: 'title' }), button('Save')]) })],
  });
  const { app, trajectory } = await launch(device);
  await app.getByRole('button', { name: 'New note' }).tap();
  const tap = device.calls.find((c) => c.tool === 'ui_tap')!;
  pw(tap.args).toMatchObject({ space_id: 'sp_fake', node_id: 'n1', snapshot_id: 's1' });
  pw(device.tools().filter((t) => t === 'ui_tap')).toHaveLength(1);
  const step = trajectory.steps.at(-1)!;
  pw(step).toMatchObject({
    api: 'locator.tap',
    title: "Tap role=button[name='New note']",
    before: 's1',
    after: 's2',
    result: 'ok',
  });
  pw(step.node?.text).toBe('New note');
});

test('a tap that shows no effect is repeated, three taps at most', async () => {
  device = await fakeDevice({ screen: [button('Does nothing')] });
  const { app } = await launch(device);
  await app.getByText('Does nothing').tap();
  pw(device.tools().filter((t) => t === 'ui_tap')).toHaveLength(3);
});

test('fill types into the field and the title shows the text; a password field shows ***', async () => {
  device = await fakeDevice({ screen: [field({ id: 'email' }), field({ id: 'pw', password: true })] });
  const { app, trajectory } = await launch(device);
  await app.getById('email').fill('ana@example.com');
  await app.getById('pw').fill('hunter22');
  const typed = device.calls.filter((c) => c.tool === 'ui_set_text').map((c) => c.args.text);
  pw(typed).toEqual(['ana@example.com', 'hunter22']);
  pw(trajectory.steps.map((s) => s.title)).toEqual(['Type "ana@example.com" into id=email', 'Type "***" into id=pw']);
  await expect(app.getById('email')).toHaveText('ana@example.com');
});

test('strict mode: two matches fail with both listed, and nothing is tapped', async () => {
  device = await fakeDevice({ screen: [button('Save'), button('Save')] });
  const { app } = await launch(device);
  const e = await app
    .getByText('Save')
    .tap()
    .catch((x: unknown) => x);
  pw(e).toBeInstanceOf(StrictModeViolationError);
  pw((e as Error).message).toContain('locator.tap: strict mode violation');
  pw(device.tools()).not.toContain('ui_tap');
  await app.getByText('Save').first().tap();
  pw(device.calls.find((c) => c.tool === 'ui_tap')?.args.node_id).toBe('n0');
});

test('auto-wait: a node that shows after a transition is waited for; one that never does times out with the call log and the screen', async () => {
  device = await fakeDevice({ screen: [label('Loading…')] });
  const { app } = await launch(device);
  device.show([label('Loading…'), button('Continue')], { afterLooks: 2 });
  await app.getByText('Continue').tap();
  pw(device.tools()).toContain('ui_tap');
  const e = await app
    .getByText('Never there')
    .tap({ timeout: 300 })
    .catch((x: unknown) => x);
  pw(e).toBeInstanceOf(TimeoutError);
  const message = (e as Error).message;
  pw(message).toContain('locator.tap: timeout 300ms exceeded.');
  pw(message).toContain('Call log:');
  pw(message).toContain('"Loading…"');
});

test('expect: retrying matchers read the fake screen; a failure reports expected, received and the screen', async () => {
  device = await fakeDevice({ screen: [checkbox('I accept', false), label('Total: 3')] });
  const { app } = await launch(device);
  await expect(app.getByText('Total: 3')).toBeVisible();
  await expect(app.getByText('Missing')).toBeHidden();
  await expect(app.getByRole('checkbox', { name: 'I accept' })).not.toBeChecked();
  await expect(app).toHaveActivity('.MainActivity');
  const e = await expect(app.getByText('Total'))
    .toHaveText('Total: 4', { timeout: 200 })
    .catch((x: unknown) => x);
  const message = (e as Error).message;
  pw(message).toContain('Total: 4');
  pw(message).toContain('Total: 3');
  pw(message).toContain('Screen:');
});

test('healing on the fake device: a renamed id heals to the node that resembles the remembered one, and the step is marked healed', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nw-fake-heal-'));
  try {
    const store = new FingerprintStore();
    const first = new Healer('auto', store, dir, 'first');
    device = await fakeDevice({ screen: [label('Notes'), field({ id: 'title', hint: 'Title' }), button('Save')] });
    const one = await launch(device, { heal: first });
    const fillTitle = (app: App) => app.getById('title').fill('Milk'); // one call site: the fingerprint's key
    await fillTitle(one.app);
    first.finish();

    // The next build renamed the id; the field is the same field.
    device.show([label('Notes'), field({ id: 'note_title', hint: 'Title' }), button('Save')]);
    const second = new Healer('auto', store, dir, 'second');
    const two = await launch(device, { heal: second });
    await fillTitle(two.app);
    const typed = device.calls.filter((c) => c.tool === 'ui_set_text').at(-1)!;
    pw(typed.args).toMatchObject({ node_id: 'n1', text: 'Milk' });
    const step = two.trajectory.steps.at(-1)!;
    pw(step.source).toBe('healed');
    pw(step.heal).toMatchObject({ from: 'id=title', to: 'id=note_title' });
    second.finish();
    pw(second.healed.map((p) => p.proposed)).toEqual(['id=note_title']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the fake holds its callers to the protocol: arguments outside a tool schema are refused by the client before the fake sees them', async () => {
  device = await fakeDevice({ screen: [button('Save')] });
  const e = await device.client.call('ui_tap', { space_id: 'sp_fake' } as never).catch((x: unknown) => x);
  pw((e as { code?: string }).code).toBe('INVALID_ARGUMENT');
  pw(device.calls).toEqual([]);
});
