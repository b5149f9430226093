import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDevice } from '../../device-runtime/providers/index.js';
import { startSimServer } from '../../device-runtime/sim/server.js';
import type { FeatureAttachment, TestEnd } from '../../framework/core/lifecycle.js';
import { Lifecycle } from '../../framework/core/lifecycle.js';
import { runTest, TestContext } from '../../framework/core/running-test.js';
import { NestwrightError } from '../../framework/core/errors.js';
import { Space } from '../../framework/core/space.js';
import { Trajectory } from '../../framework/core/trajectory.js';
import { videoFeature } from '../../framework/video/feature.js';
import type { VideoSettings } from '../../framework/video/options.js';

/**
 * The video feature through the instance lifecycle, in process on a real simulator over HTTP:
 * what the fixtures do for `use.video`, with the test's end made here (its outcome chosen).
 */

const NOTES_APK = 'fixtures/apks/notes.apk';

async function withTest(
  settings: VideoSettings,
  failed: boolean,
  body: (space: Space) => Promise<void>,
  sim: { url: string; token: string },
) {
  const conn = await connectDevice({ provider: 'sim', url: sim.url, token: sim.token });
  const space = await Space.create(conn.client, 'video-feature');
  const out = mkdtempSync(join(tmpdir(), 'video-feature-'));
  const attached: FeatureAttachment[] = [];
  const failure: Record<string, string[]> = {};
  const lifecycle = new Lifecycle();
  const ctx = new TestContext(
    new Trajectory(),
    { actionTimeout: 5_000, expectTimeout: 5_000, lifecycle },
    [],
    lifecycle,
  );
  const feature = videoFeature(settings, 0);
  if (feature) lifecycle.add(feature);
  try {
    await runTest(ctx, async () => {
      await body(space);
      const end: TestEnd = {
        outcome: { status: failed ? 'failed' : 'passed', expectedStatus: 'passed', failed, retry: 0 },
        instances: ctx.launched.map((a) => a.driver),
        startedAt: ctx.trajectory.startedAt,
        steps: ctx.trajectory.steps,
        annotations: [],
        outputPath: (...segments) => join(out, ...segments),
        failureArtifact: (key, name) => void (failure[key] = [...(failure[key] ?? []), name]),
        attach: async (a) => void attached.push({ ...a, ...(a.path ? { body: readFileSync(a.path) } : {}) }),
      };
      await lifecycle.ended(end);
      for (const a of ctx.launched.reverse()) await a.close();
    });
    return { attached, failure };
  } finally {
    await space.delete().catch(() => {});
    await conn.close();
    rmSync(out, { recursive: true, force: true });
  }
}

test('two instances, one closed before the test ends: each kept as its own video, named by instance', async () => {
  const sim = await startSimServer({});
  try {
    const { attached, failure } = await withTest(
      { mode: 'on', size: null },
      false,
      async (space) => {
        const ana = await space.launch(NOTES_APK);
        const ben = await ana.newInstance();
        await ben.getByText('New note').tap();
        await ben.close(); // recorded up to here, kept until the test ends
        await ana.getByText('New note').tap();
      },
      sim,
    );
    const videos = attached.filter((a) => a.contentType === 'video/webm');
    expect(videos.map((a) => a.name)).toEqual(['video', expect.stringMatching(/^video com\.nestwright\.notes@/)]);
    for (const v of videos) expect((v.body as Buffer).subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    expect(failure.video).toEqual(videos.map((v) => v.name));
    const tracks = attached.filter((a) => a.contentType === 'text/vtt');
    expect(tracks.map((a) => a.name)).toEqual(['video steps', expect.stringMatching(/^video steps com\.nestwright/)]);
    // Each track has its own instance's steps: one tap each, after its launch when that ran while recording.
    for (const t of tracks) {
      const cues = String(t.body).split('\n\n').slice(1);
      expect(cues.map((c) => c.split('\n')[2])).toEqual(
        cues.length === 2 ? ['Launch "com.nestwright.notes"', "Tap text='New note'"] : ["Tap text='New note'"],
      );
    }
  } finally {
    await sim.close();
  }
});

test('retain-on-failure: a passing test attaches nothing; a failing one attaches its video', async () => {
  const sim = await startSimServer({});
  try {
    const tap = async (space: Space) => {
      const app = await space.launch(NOTES_APK);
      await app.getByText('New note').tap();
    };
    const passed = await withTest({ mode: 'retain-on-failure', size: null }, false, tap, sim);
    expect(passed.attached).toEqual([]);
    expect(passed.failure).toEqual({});
    const failed = await withTest({ mode: 'retain-on-failure', size: null }, true, tap, sim);
    expect(failed.attached.map((a) => a.name)).toEqual(['video', 'video steps']);
    // 'off' and 'on-first-retry' on a first run: no feature at all.
    expect(videoFeature({ mode: 'off', size: null }, 0)).toBeNull();
    expect(videoFeature({ mode: 'on-first-retry', size: null }, 0)).toBeNull();
    expect(videoFeature({ mode: 'on-first-retry', size: null }, 1)).not.toBeNull();
  } finally {
    await sim.close();
  }
});

test('a runtime without screen_record: the launch fails with NOT_SUPPORTED naming the extension', async () => {
  const sim = await startSimServer({ withoutExtensions: ['screen_record'] });
  try {
    let error: unknown = null;
    await withTest(
      { mode: 'on', size: null },
      false,
      async (space) => {
        error = await space.launch(NOTES_APK).then(
          () => null,
          (e: unknown) => e,
        );
      },
      sim,
    );
    expect(error).toBeInstanceOf(NestwrightError);
    expect((error as NestwrightError).code).toBe('NOT_SUPPORTED');
    expect((error as Error).message).toMatch(/^use\.video: .*lacks the `screen_record` extension/);
  } finally {
    await sim.close();
  }
});
