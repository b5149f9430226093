import { expect, test } from '@playwright/test';
import { createRequire } from 'node:module';
import pixelmatch from 'pixelmatch';
import sharp from 'sharp';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import { compareImages } from '../../framework/visual/compare.js';
import { Picture, rgba, type Pixels } from '../../framework/visual/picture.js';

/**
 * The comparison on its own, in process, on a real simulator picture: the band of differing
 * rows it hands to pixelmatch gives the same count as pixelmatch over the whole picture.
 */
let screen: Buffer;

test.beforeAll(async () => {
  const rt = new SimRuntime({});
  const call = async (name: string, args: object): Promise<any> => {
    const r = await rt.call(name, args, { sessionId: 'compare', caller: 'REMOTE_MCP' });
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.result;
  };
  const { space_id } = await call('space_create', {});
  await call('session_acquire', { space_id });
  await call('space_launch', { space_id, package: 'com.android.settings' });
  screen = Buffer.from((await call('ui_screenshot', { space_id, scale: 1 })).data, 'base64');
  rt.close();
});

/** Playwright's own comparator, as its toHaveScreenshot calls it: the reference for counts and messages. */
const playwrightCompare: (actual: Buffer, expected: Buffer, options?: object) => { errorMessage: string } | null =
  createRequire(import.meta.url)('playwright-core/lib/coreBundle').utils.getComparator('image/png');

const copy = (p: Pixels): Pixels => ({ ...p, data: Buffer.from(p.data) });
const whole = (a: Pixels, e: Pixels, threshold = 0.2) =>
  pixelmatch(rgba(e, 0, e.height), rgba(a, 0, a.height), undefined, a.width, a.height, {
    threshold,
    checkerboard: false,
  });

/** Paint a soft-edged disc (anti-aliased rim, as text and icons have) at (cx, cy). */
function disc(p: Pixels, cx: number, cy: number, r: number, rgb: [number, number, number]): void {
  for (let y = Math.max(0, cy - r - 2); y < Math.min(p.height, cy + r + 2); y++) {
    for (let x = Math.max(0, cx - r - 2); x < Math.min(p.width, cx + r + 2); x++) {
      const cover = Math.max(0, Math.min(1, r + 0.5 - Math.hypot(x - cx, y - cy)));
      if (!cover) continue;
      const i = (y * p.width + x) * p.channels;
      for (let c = 0; c < 3; c++) p.data[i + c] = Math.round(p.data[i + c]! * (1 - cover) + rgb[c]! * cover);
    }
  }
}

test('the same PNG bytes match without decoding; the same pixels encoded otherwise match after decoding', async () => {
  const expected = Picture.fromPng(screen);
  expect(await compareImages(Picture.fromPng(Buffer.from(screen)), expected, {})).toMatchObject({
    errorMessage: null,
    diffPixels: 0,
  });
  expect((await expected.png()).equals(screen)).toBe(true);
  const decoded = await expected.pixels();
  expect([decoded.width, decoded.height]).toEqual([1080, 2400]);
  expect((await Picture.fromPixels(decoded).pixels()).data.equals(decoded.data)).toBe(true);
  const again = await sharp(decoded.data, { raw: { width: 1080, height: 2400, channels: decoded.channels } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  expect(again.equals(screen)).toBe(false);
  expect(await compareImages(Picture.fromPng(again), expected, {})).toMatchObject({
    errorMessage: null,
    diffPixels: 0,
  });
});

test('the differing rows give the count pixelmatch gives over the whole picture, anti-aliased edges included', async () => {
  const base = await Picture.fromPng(screen).pixels();
  const cases: Array<[string, (p: Pixels) => void]> = [
    ['one pixel', (p) => (p.data[(1200 * p.width + 540) * p.channels] ^= 0xff)],
    ['a disc', (p) => disc(p, 300, 700, 24, [20, 90, 200])],
    ['two far apart', (p) => (disc(p, 100, 10, 8, [0, 0, 0]), disc(p, 900, 2390, 12, [250, 20, 20]))],
    ['the top and bottom rows', (p) => (p.data.fill(0, 0, p.width * p.channels), p.data.fill(0, p.data.length - 40))],
    ['a faint change', (p) => disc(p, 540, 1500, 30, [p.data[0]! - 6, p.data[1]! - 6, p.data[2]! - 6])],
  ];
  for (const [what, change] of cases) {
    const actual = copy(base);
    change(actual);
    for (const threshold of [0, 0.2]) {
      const c = await compareImages(Picture.fromPixels(actual), Picture.fromPixels(base), {
        threshold,
        maxDiffPixels: 1e9,
      });
      expect(c.diffPixels, `${what}, threshold ${threshold}`).toBe(whole(actual, base, threshold));
    }
  }
});

test('a failure says how many pixels differ and draws the diff; excluded boxes and sizes as Playwright says', async () => {
  const base = await Picture.fromPng(screen).pixels();
  const actual = copy(base);
  disc(actual, 540, 1200, 40, [0, 0, 0]);
  const expected = Picture.fromPixels(base);
  const failing = await compareImages(Picture.fromPixels(actual), expected, {});
  expect(failing.errorMessage).toMatch(/^\d+ pixels \(ratio 0\.01 of all image pixels\) are different\.$/);
  const diff = await sharp(await failing.diff!.png()).metadata();
  expect([diff.width, diff.height]).toEqual([1080, 2400]);
  expect(
    await compareImages(Picture.fromPixels(actual), expected, { maxDiffPixels: failing.diffPixels }),
  ).toMatchObject({ errorMessage: null });
  const excluded = await compareImages(Picture.fromPixels(actual), expected, {}, [[480, 1140, 600, 1260]]);
  expect(excluded).toMatchObject({ errorMessage: null, diffPixels: 0 });
  const small = await sharp(screen).resize(540, 1200).png().toBuffer();
  expect((await compareImages(Picture.fromPng(small), expected, {})).errorMessage).toMatch(
    /^Expected an image 1080px by 2400px, received 540px by 1200px\. \d+ pixels/,
  );
});

test('an RGBA picture compares with an RGB one by its pixels', async () => {
  const base = await Picture.fromPng(screen).pixels();
  expect(base.channels).toBe(3);
  const withAlpha = await sharp(screen).ensureAlpha().png().toBuffer();
  expect((await Picture.fromPng(withAlpha).pixels()).channels).toBe(4);
  expect(await compareImages(Picture.fromPng(withAlpha), Picture.fromPng(screen), {})).toMatchObject({
    errorMessage: null,
    diffPixels: 0,
  });
});

test('a size mismatch counts and says what Playwright says (to-have-screenshot.spec.ts: should attach expected/actual/diff when sizes are different)', async () => {
  const black2x2 = await sharp({ create: { width: 2, height: 2, channels: 4, background: '#000000ff' } })
    .png()
    .toBuffer();
  const white = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  const port = await compareImages(Picture.fromPng(white), Picture.fromPng(black2x2), {});
  expect(port.errorMessage).toBe(
    'Expected an image 2px by 2px, received 1280px by 720px. 4 pixels (ratio 0.01 of all image pixels) are different.',
  );
  expect(port.diffPixels).toBe(4);
  const diff = await sharp(await port.diff!.png()).metadata();
  expect([diff.width, diff.height]).toEqual([1280, 720]);
  // The real screen (scaled down to keep this quick) against a smaller copy, both ways round, with and without limits.
  const shot = await sharp(screen).resize(270, 600).png().toBuffer();
  const small = await sharp(shot).resize(135, 300).png().toBuffer();
  const tolerances = [{}, { threshold: 0 }, { maxDiffPixels: 100_000 }, { maxDiffPixelRatio: 0.5 }];
  for (const [actual, expected] of [
    [small, shot],
    [shot, small],
    [white, shot],
  ] as const) {
    for (const tol of tolerances) {
      const ours = await compareImages(Picture.fromPng(actual), Picture.fromPng(expected), tol);
      expect(ours.errorMessage, JSON.stringify(tol)).toBe(playwrightCompare(actual, expected, tol)!.errorMessage);
    }
  }
});
