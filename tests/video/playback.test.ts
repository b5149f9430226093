import { chromium, expect, test, type Browser } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { runWithAllure, type AllureRun } from '../reporters/run-inline.js';

/**
 * use.video end to end, in one child run on the simulator with the Allure reporter: a failing
 * test with `retain-on-failure` keeps a WebM that plays in Debian's Chromium and shows the screen
 * change after each tap; a passing one keeps none; `on-first-retry` records the retry only;
 * `size` gives the video's size. The files are read from allure-results: what Allure copied is
 * what is played (Playwright attached the same file; its HTML report plays `video/webm`).
 */

// A phone's pace (realistic): each screen stays long enough to be a frame of its own, as on a device.
// One file per mode: \`video\` is worker-scoped, as Playwright's, so it is set at the top of a file.
const HEAD = `import { test, expect, devices } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk', deviceOptions: devices.sim({ faults: 'realistic', seed: 1 }) });
`;
const SPECS = {
  'retain.spec.ts': `${HEAD}test.use({ video: 'retain-on-failure' });
test('fails after three taps', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await app.getByText('Buy milk').tap();
  await expect(app.getById('created')).toBeVisible();
  await expect(app.getByText('Not on this screen')).toBeVisible({ timeout: 300 });
});
test('passes and keeps nothing', async ({ app }) => {
  await app.getByText('New note').tap();
  await expect(app.getById('title')).toBeVisible();
});
`,
  'retry.spec.ts': `${HEAD}test.use({ video: 'on-first-retry' });
test.describe.configure({ retries: 1 });
test('fails once, then passes', async ({ app }, testInfo) => {
  await app.getByText('New note').tap();
  expect(testInfo.retry).toBe(1);
});
`,
  'size.spec.ts': `${HEAD}test.use({ video: { mode: 'on', size: { width: 320, height: 240 } } });
test('kept at the size asked', async ({ app }) => {
  await app.getByText('New note').tap();
  await expect(app.getById('title')).toBeVisible();
});
`,
};

let run: AllureRun;
let browser: Browser;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  run = await runWithAllure(SPECS, { nestwright: true });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
});

test.afterAll(async () => {
  await browser?.close();
  if (run && !process.env.NESTWRIGHT_KEEP_INLINE) rmSync(run.dir, { recursive: true, force: true });
});

interface Attachment {
  name: string;
  source: string;
  type: string;
}
const attachmentsOf = (r: { attachments?: Attachment[] }): Attachment[] => r.attachments ?? [];
const results = (name: string) => run.results.filter((r) => r.name === name).sort((a, b) => a.start - b.start);
const file = (a: Attachment) => readFileSync(path.join(run.resultsDir, a.source));

/** Cue start times (s) and texts of a WebVTT track. */
function cues(vtt: string): Array<{ at: number; text: string }> {
  const out: Array<{ at: number; text: string }> = [];
  const re = /(\d+):(\d+):(\d+)\.(\d+) --> [^\n]+\n([^\n]+)/g;
  for (let m = re.exec(vtt); m; m = re.exec(vtt))
    out.push({ at: +m[1]! * 3600 + +m[2]! * 60 + +m[3]! + +m[4]! / 1000, text: m[5]! });
  return out;
}

/**
 * Play `webm` in Chromium: its duration and size, and at each of `times` (s) the picture, drawn
 * to a canvas at 90×200, as pixels.
 */
async function play(webm: Buffer, times: number[]) {
  const page = await browser.newPage();
  try {
    await page.setContent('<video muted preload="auto"></video><canvas width="90" height="200"></canvas>');
    return await page.evaluate(
      async ({ b64, times }) => {
        const video = document.querySelector('video')!;
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        video.src = URL.createObjectURL(new Blob([bytes], { type: 'video/webm' }));
        await new Promise<void>((resolve, reject) => {
          video.onloadeddata = () => resolve();
          video.onerror = () =>
            reject(new Error(`the video does not play: ${video.error?.message ?? video.error?.code}`));
        });
        const canvas = document.querySelector('canvas')!;
        const g = canvas.getContext('2d', { willReadFrequently: true })!;
        const frames: number[][] = [];
        for (const t of times) {
          video.currentTime = t;
          await new Promise((resolve) => (video.onseeked = resolve));
          g.drawImage(video, 0, 0, 90, 200);
          frames.push([...g.getImageData(0, 0, 90, 200).data]);
        }
        return {
          canPlay: video.canPlayType('video/webm; codecs="vp8"'),
          duration: video.duration,
          width: video.videoWidth,
          height: video.videoHeight,
          frames,
        };
      },
      { b64: webm.toString('base64'), times },
    );
  } finally {
    await page.close();
  }
}

/** Mean absolute difference per channel of two pictures (0 identical … 255). */
const difference = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;

test("a failing test with retain-on-failure keeps a video that plays in Chromium and shows each tap's change", async () => {
  const [r] = results('fails after three taps');
  expect(r?.status, run.output).not.toBe('passed');
  const video = attachmentsOf(r).find((a) => a.name === 'video');
  const track = attachmentsOf(r).find((a) => a.name === 'video steps');
  expect(video?.type).toBe('video/webm');
  expect(video?.source).toMatch(/\.webm$/);
  expect(track?.type).toBe('text/vtt');
  const steps = cues(file(track!).toString('utf8'));
  const taps = steps.filter((c) => c.text.startsWith('Tap'));
  expect(taps.map((c) => c.text)).toEqual([
    expect.stringContaining('New note'),
    expect.stringContaining('Save'),
    expect.stringContaining('Buy milk'),
  ]);
  // Before each tap (its cue's start) and after it (the next step's start): different pictures.
  const after = taps.map((t) => steps[steps.indexOf(t) + 1]!.at);
  const times = taps.flatMap((t, i) => [t.at, after[i]!]);
  const played = await play(file(video!), times);
  expect(played.canPlay).toBe('probably');
  expect(played.width).toBe(360);
  expect(played.height).toBe(800);
  // As long as the test acted: past its last step's start, and not much longer.
  expect(played.duration).toBeGreaterThan(steps.at(-1)!.at);
  expect(played.duration).toBeLessThan(steps.at(-1)!.at + 30);
  for (let i = 0; i < taps.length; i++) {
    const change = difference(played.frames[2 * i]!, played.frames[2 * i + 1]!);
    expect(change, `the picture before and after ${taps[i]!.text}`).toBeGreaterThan(1);
  }
  // The trajectory names it for reports and the MCP server's failure reader.
  const trajectory = attachmentsOf(r).find((a) => a.name === 'trajectory');
  if (trajectory) expect(JSON.parse(file(trajectory).toString('utf8')).failure?.video).toEqual(['video']);
});

test('a passing test with retain-on-failure keeps no video, on the device or in the output', async () => {
  const [r] = results('passes and keeps nothing');
  expect(r?.status, run.output).toBe('passed');
  expect(attachmentsOf(r).filter((a) => a.name.startsWith('video'))).toEqual([]);
  const out = path.join(run.dir, 'test-results');
  const webms = existsSync(out)
    ? readdirSync(out, { recursive: true, encoding: 'utf8' }).filter(
        (f) => f.includes('passes-and-keeps') && f.endsWith('.webm'),
      )
    : [];
  expect(webms).toEqual([]);
});

test('on-first-retry records the first retry only', async () => {
  const [first, retry] = results('fails once, then passes');
  expect(first?.status, run.output).not.toBe('passed');
  expect(retry?.status, run.output).toBe('passed');
  expect(attachmentsOf(first).filter((a) => a.name === 'video')).toEqual([]);
  const video = attachmentsOf(retry).find((a) => a.name === 'video');
  expect(video?.type).toBe('video/webm');
  const played = await play(file(video!), [0]);
  expect(played.duration).toBeGreaterThan(0);
});

test("size: the video has the size asked, the screen scaled down to fit (Playwright's rule)", async () => {
  const [r] = results('kept at the size asked');
  expect(r?.status, run.output).toBe('passed');
  const video = attachmentsOf(r).find((a) => a.name === 'video');
  const played = await play(file(video!), [0]);
  expect([played.width, played.height]).toEqual([320, 240]);
});
