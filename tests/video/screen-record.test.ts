import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { errorCodesOf, screenRecordTools } from '../../device-runtime/protocol/index.js';
import { encodeWebm } from '../../framework/video/encode.js';
import { ffmpegPath } from '../../framework/video/ffmpeg.js';
import { keeps, records, videoSettings } from '../../framework/video/options.js';
import { stepsVtt } from '../../framework/video/vtt.js';
import { checkOptions } from '../../framework/runner/option-check.js';
import { NOTES, simSpace } from '../sim-ui/harness.js';

/** The `screen_record` extension on the simulator, the option's rules and the encoder, in process. */

/** Width and height of a PNG, from its IHDR. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The raw RGB(A) scanlines of a PNG the simulator wrote (8-bit, no interlace), for comparing pictures. */
function pngPixels(png: Buffer): Buffer {
  const chunks: Buffer[] = [];
  for (let i = 8; i < png.length;) {
    const len = png.readUInt32BE(i);
    if (png.toString('ascii', i + 4, i + 8) === 'IDAT') chunks.push(png.subarray(i + 8, i + 8 + len));
    i += 12 + len;
  }
  return inflateSync(Buffer.concat(chunks));
}

test('the screen_record tools are one extension family, declare NOT_SUPPORTED, and need no lease', () => {
  expect(screenRecordTools.map((t) => t.name)).toEqual([
    'screen_record_start',
    'screen_record_stop',
    'screen_record_frames',
  ]);
  for (const t of screenRecordTools) {
    expect(t.extension && t.group, t.name).toBe('screen_record');
    expect(t.mutating, t.name).toBe(false);
    expect(errorCodesOf(t.name), t.name).toContain('NOT_SUPPORTED');
  }
  expect(errorCodesOf('screen_record_start')).toEqual(
    expect.arrayContaining(['INSTANCE_NOT_FOUND', 'SPACE_NOT_FOUND']),
  );
});

test("the simulator records an instance's screen: a frame per change the test saw, scaled to fit, timestamped", async () => {
  const h = await simSpace();
  expect((await h.call('runtime_info', {})).extensions).toContain('screen_record');
  await h.install('notes.apk');
  await h.launch(NOTES);
  await h.settle();
  const start = await h.call('screen_record_start', { package: NOTES, size: { width: 540, height: 540 } });
  // 1080×2400 fitted into 540×540: the height decides.
  expect([start.width, start.height]).toEqual([243, 540]);
  const again = await h.fail('screen_record_start', { package: NOTES });
  expect(again).toMatchObject({ code: 'INVALID_ARGUMENT' });
  expect(again.message).toContain('already being recorded');

  h.clock.advance(500);
  await h.tap('New note');
  await h.settle();
  h.clock.advance(500);
  await h.observe();
  const early = await h.fail('screen_record_frames', { recording_id: start.recording_id });
  expect(early.message).toContain('still recording');

  const stop = await h.call('screen_record_stop', { recording_id: start.recording_id });
  expect(stop.frames).toBeGreaterThanOrEqual(2);
  expect(stop.duration_ms).toBeGreaterThanOrEqual(1000);
  expect(stop.truncated).toBe(false);
  const page = await h.call('screen_record_frames', { recording_id: start.recording_id });
  expect(page.next).toBeNull();
  expect(page.frames).toHaveLength(stop.frames);
  const times = page.frames.map((f) => f.at_ms);
  expect([...times].sort((a, b) => a - b)).toEqual(times);
  const pngs = page.frames.map((f) => Buffer.from(f.png, 'base64'));
  for (const png of pngs) expect(pngSize(png)).toEqual({ width: 243, height: 540 });
  // The list before the tap and the editor after it are different pictures.
  expect(pngPixels(pngs[0]!).equals(pngPixels(pngs.at(-1)!))).toBe(false);
  // Read to the end: released.
  const gone = await h.fail('screen_record_frames', { recording_id: start.recording_id });
  expect(gone.message).toContain('no recording');
});

test('a discarded recording is dropped on the device; one of a removed instance ends by itself', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  const a = await h.call('screen_record_start', { package: NOTES });
  expect([a.width, a.height]).toEqual([360, 800]);
  const dropped = await h.call('screen_record_stop', { recording_id: a.recording_id, discard: true });
  expect(dropped.frames).toBe(0);
  expect((await h.fail('screen_record_frames', { recording_id: a.recording_id })).code).toBe('INVALID_ARGUMENT');

  const b = await h.call('screen_record_start', { package: NOTES });
  await h.call('space_stop', { package: NOTES, remove_instance: true });
  await h.observe();
  // The instance is gone: the recording ended with it, its frames still readable once.
  const stop = await h.call('screen_record_stop', { recording_id: b.recording_id });
  expect(stop.frames).toBeGreaterThanOrEqual(1);
  const missing = await h.fail('screen_record_start', { package: NOTES, instance: 'nope' });
  expect(missing.code).toBe('INSTANCE_NOT_FOUND');
});

test('a runtime without screen_record: not in runtime_info, its tools NOT_SUPPORTED naming the extension', async () => {
  const h = await simSpace({ withoutExtensions: ['screen_record'] });
  await h.install('notes.apk');
  await h.launch(NOTES);
  const info = await h.call('runtime_info', {});
  expect(info.extensions).not.toContain('screen_record');
  expect(info.tools.filter((t) => t.startsWith('screen_record'))).toEqual([]);
  const e = await h.fail('screen_record_start', { package: NOTES });
  expect(e.code).toBe('NOT_SUPPORTED');
  expect(e.message).toContain('screen_record extension');
});

test("use.video: Playwright's modes and size, bad values refused naming use.video", () => {
  expect(videoSettings(undefined)).toEqual({ mode: 'off', size: null });
  expect(videoSettings({ mode: 'on', size: { width: 320, height: 240 } })).toEqual({
    mode: 'on',
    size: { width: 320, height: 240 },
  });
  // Which runs record, which recordings are kept (Playwright's video.spec.ts cases).
  expect([0, 1, 2].map((r) => records('on-first-retry', r))).toEqual([false, true, false]);
  expect([0, 1].map((r) => records('retain-on-failure', r))).toEqual([true, true]);
  expect(records('off', 0)).toBe(false);
  expect([keeps('retain-on-failure', false), keeps('retain-on-failure', true)]).toEqual([false, true]);
  expect([keeps('on', false), keeps('on-first-retry', false)]).toEqual([true, true]);
  for (const [bad, where] of [
    ['retain-on-failures', 'use.video'],
    [{ mode: 'on', size: { width: 10.5, height: 100 } }, 'use.video.size.width'],
    [{ mode: 'on', sise: {} }, 'use.video'],
  ] as const) {
    let error: { code?: string; message: string } | null = null;
    try {
      videoSettings(bad);
    } catch (e) {
      error = e as Error & { code: string };
    }
    expect(error?.code, JSON.stringify(bad)).toBe('OPTION_INVALID');
    expect(error?.message).toContain(`${where}:`);
  }
  // The config's check (global setup) names the nearest mode.
  expect(() => checkOptions({ video: 'retain-on-failures' })).toThrow(
    /use\.video: 'retain-on-failures' is not one of .*did you mean 'retain-on-failure'\?/,
  );
});

test('the steps as WebVTT: each title at its time from the video start, short steps readable', () => {
  const step = (title: string, startedAt: number, durationMs: number) =>
    ({ title, startedAt, durationMs, result: 'ok', source: 'locator', instance: null }) as never;
  const vtt = stepsVtt(
    [step('before', 900, 10), step('Tap text="New note"', 1500, 20), step('Fill', 63_000, 2000)],
    1000,
    70_000,
  );
  expect(vtt).toBe(
    'WEBVTT\n\n1\n00:00:00.500 --> 00:00:01.300\nTap text="New note"\n\n2\n00:01:02.000 --> 00:01:04.000\nFill\n',
  );
});

test('frames encode to a WebM (VP8) of the requested size that lasts as long as the recording', async () => {
  const h = await simSpace();
  await h.install('notes.apk');
  await h.launch(NOTES);
  const s = await h.call('screen_record_start', { package: NOTES });
  h.clock.advance(1000);
  await h.tap('New note');
  await h.settle();
  h.clock.advance(1000);
  const stop = await h.call('screen_record_stop', { recording_id: s.recording_id });
  const page = await h.call('screen_record_frames', { recording_id: s.recording_id });
  const dir = mkdtempSync(join(tmpdir(), 'video-test-'));
  try {
    const out = join(dir, 'v.webm');
    await encodeWebm(
      page.frames.map((f) => ({ atMs: f.at_ms, png: Buffer.from(f.png, 'base64') })),
      out,
      { durationMs: stop.duration_ms, size: { width: 400, height: 600 } },
    );
    const bytes = readFileSync(out);
    expect(bytes.subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // EBML: Matroska/WebM
    expect(bytes.includes(Buffer.from('webm'))).toBe(true);
    expect(bytes.includes(Buffer.from('V_VP8'))).toBe(true);
    expect(statSync(out).size).toBeGreaterThan(500);
    // ffmpeg reads it back: its size and length (stderr of `-i` describes the input).
    let info = '';
    try {
      execFileSync(ffmpegPath(), ['-hide_banner', '-i', out], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      info = String((e as { stderr: string }).stderr);
    }
    expect(info).toContain('vp8');
    expect(info).toContain('400x600');
    const m = /Duration: (\d+):(\d+):([\d.]+)/.exec(info)!;
    const seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
    expect(seconds).toBeGreaterThan(stop.duration_ms / 1000 - 0.2);
    expect(seconds).toBeLessThan(stop.duration_ms / 1000 + 0.5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
