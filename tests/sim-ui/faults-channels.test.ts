import { expect, test } from '@playwright/test';
import { faultProfileFromEnv } from '../../device-runtime/sim/faults/profile.js';
import { SETTINGS, simSpace } from './harness.js';

/** The tree_missing pattern of the first observations after launching Notes. */
async function missingPattern(seed: number): Promise<boolean[]> {
  const h = await simSpace({ faults: 'hostile', seed });
  await h.install('notes.apk');
  const out: boolean[] = [];
  for (let round = 0; round < 4; round++) {
    await h.launch('com.nestwright.notes', `i${round}`);
    for (let i = 0; i < 6; i++) {
      const obs = await h.observe();
      out.push(!!obs.tree_missing);
      if (obs.tree_missing) expect(obs.nodes).toEqual([]);
    }
  }
  return out;
}

test('hostile: the tree is briefly null during transitions, the same way for the same seed', async () => {
  const a = await missingPattern(7);
  expect(a.some(Boolean)).toBe(true);
  expect(a.some((x) => !x)).toBe(true);
  expect(await missingPattern(7)).toEqual(a);
});

test('hostile: now and then an action answers ok but nothing happens (callers must verify)', async () => {
  const run = async (seed: number) => {
    const h = await simSpace({ faults: 'hostile', seed });
    await h.launch(SETTINGS);
    await h.tap('Display');
    await h.settle();
    let toggles = 0;
    for (let i = 0; i < 80; i++) {
      const before = (await h.find((n) => n.role === 'switch')).node.checked;
      const r = await h.call('ui_tap', { text: 'Dark theme' });
      expect(r.ok).toBe(true);
      if ((await h.find((n) => n.role === 'switch')).node.checked !== before) toggles++;
    }
    return toggles;
  };
  const toggles = await run(3);
  expect(toggles).toBeLessThan(80);
  expect(toggles).toBeGreaterThan(60);
  expect(await run(3)).toBe(toggles);
});

test('instant has no latency; realistic pays the channel latency of docs/protocol.md#channels on each call', async () => {
  const instant = await simSpace();
  let t = instant.clock.now();
  await instant.observe();
  expect(instant.clock.now() - t).toBe(0);
  const real = await simSpace({ faults: 'realistic' });
  t = real.clock.now();
  await real.observe();
  const spent = real.clock.now() - t;
  expect(spent).toBeGreaterThanOrEqual(50);
  expect(spent).toBeLessThanOrEqual(120);
});

test('Advanced Protection revokes accessibility: the runtime falls back to Shizuku', async () => {
  const h = await simSpace();
  await h.launch(SETTINGS);
  expect((await h.observe()).channel).toBe('accessibility');
  // "Display" is a text inside a clickable row: ACTION_CLICK cannot work on it, a tap at its center does.
  expect((await h.call('ui_tap', { text: 'Display' })).method).toBe('gesture');
  expect((await h.call('ui_tap', { text: 'Dark theme' })).method).toBe('node');
  h.space.screen.setChannels({ advancedProtection: true });
  const obs = await h.observe();
  expect(obs.channel).toBe('shizuku');
  expect((await h.call('space_status', {})).channel).toBe('shizuku');
  expect(obs.nodes.length).toBeGreaterThan(0);
  // Shizuku injects input: a node tap becomes a tap at the node's center.
  expect((await h.call('ui_tap', { text: 'Dark theme' })).method).toBe('gesture');
  expect((await h.find((n) => n.role === 'switch')).node.checked).toBe(false);
});

test('vision only: observations carry no nodes and actions need another channel', async () => {
  const h = await simSpace({ channels: { accessibility: false, shizuku: false } });
  await h.launch(SETTINGS);
  const obs = await h.observe({ include_screenshot: true });
  expect(obs).toMatchObject({ channel: 'vision', nodes: [] });
  expect(obs.screenshot).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect((await h.fail('ui_tap', { point: [540, 400] })).code).toBe('CHANNEL_UNAVAILABLE');
});

test('faultProfileFromEnv reads NESTWRIGHT_FAULTS and NESTWRIGHT_SEED and names bad values', () => {
  expect(faultProfileFromEnv({})).toMatchObject({ name: 'instant', seed: 1 });
  expect(faultProfileFromEnv({ NESTWRIGHT_FAULTS: 'hostile', NESTWRIGHT_SEED: '42' })).toMatchObject({
    name: 'hostile',
    seed: 42,
    dropAction: 0.05,
  });
  expect(() => faultProfileFromEnv({ NESTWRIGHT_FAULTS: 'chaos' })).toThrow(
    /NESTWRIGHT_FAULTS=chaos is not a fault profile; use one of instant, realistic, hostile/,
  );
  expect(() => faultProfileFromEnv({ NESTWRIGHT_SEED: 'x' })).toThrow(/NESTWRIGHT_SEED=x is not an integer/);
});

test('channelsFromEnv reads NESTWRIGHT_CHANNELS', async () => {
  const { channelsFromEnv } = await import('../../device-runtime/sim/channels/channel.js');
  expect(channelsFromEnv({})).toEqual({});
  expect(channelsFromEnv({ NESTWRIGHT_CHANNELS: 'aapm, no-shizuku' })).toEqual({
    advancedProtection: true,
    shizuku: false,
  });
  expect(() => channelsFromEnv({ NESTWRIGHT_CHANNELS: 'root' })).toThrow(/NESTWRIGHT_CHANNELS: unknown word "root"/);
  const h = await simSpace({ channels: channelsFromEnv({ NESTWRIGHT_CHANNELS: 'aapm' }) });
  await h.launch(SETTINGS);
  expect((await h.observe()).channel).toBe('shizuku');
});

test('hostile latency jitters, and replays exactly from the seed', async () => {
  const spent = async (seed: number) => {
    const h = await simSpace({ faults: 'hostile', seed });
    const out: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = h.clock.now();
      await h.observe();
      out.push(h.clock.now() - t);
    }
    return out;
  };
  const a = await spent(9);
  expect(Math.min(...a)).toBeGreaterThanOrEqual(75); // 50 ms × 1.5
  expect(Math.max(...a) - Math.min(...a)).toBeGreaterThan(50);
  expect(await spent(9)).toEqual(a);
  expect(await spent(10)).not.toEqual(a);
});
