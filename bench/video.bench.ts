import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDevice, startEmbeddedDevice } from '../device-runtime/providers/index.js';
import type { TestEnd } from '../framework/core/lifecycle.js';
import { runTest, TestContext } from '../framework/core/running-test.js';
import { Lifecycle } from '../framework/core/lifecycle.js';
import { expect } from '../framework/core/expect.js';
import { Space } from '../framework/core/space.js';
import { Trajectory } from '../framework/core/trajectory.js';
import { videoFeature } from '../framework/video/feature.js';
import type { VideoMode } from '../framework/video/options.js';
import { median, percentile, round, type BenchSection } from './section.js';

const NOTES_APK = 'fixtures/apks/notes.apk';
const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

/**
 * CPU time of this process and its waited-for children (ffmpeg), ms: /proc/self/stat's utime,
 * stime, cutime and cstime. The embedded simulator runs in this process, so its rendering counts.
 * Unlike wall time, it does not stretch when other work loads the machine.
 */
function cpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After the command: state is field 3, so utime..cstime (fields 14–17) are at 11–14 here.
    return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
}

/**
 * `use.video`'s cost on a phone's latencies (`realistic`): the same test — launch Notes, make a
 * note (tap, fill, tap), open it, go back, the instance closed — with video off, with
 * 'retain-on-failure' on a passing test (recorded, then dropped on the device) and 'on' (recorded,
 * read, encoded to WebM, attached), run in turns in one process through the instance lifecycle
 * the fixtures use. Target: 'on' at most 1.3× 'off'. Also the WebM's size per minute of screen.
 */
export async function benchVideo(): Promise<BenchSection> {
  const sim = await startEmbeddedDevice({ faults: 'realistic', seed: 1 });
  const out = mkdtempSync(join(tmpdir(), 'bench-video-'));
  try {
    const conn = await connectDevice({ provider: 'sim', url: sim.url, token: sim.token });
    const space = await Space.create(conn.client, 'bench-video');
    const times: Record<string, number[]> = { off: [], 'retain-on-failure': [], on: [] };
    const cpu: Record<string, number[]> = { off: [], 'retain-on-failure': [], on: [] };
    const sizes: Array<{ bytes: number; ms: number }> = [];
    const modes = ['off', 'retain-on-failure', 'on'] as const;
    const rounds = Number(process.env.BENCH_VIDEO_ROUNDS ?? 6);
    for (let i = 0; i < rounds + 1; i++) {
      for (const mode of i % 2 ? [...modes].reverse() : modes) {
        const c = cpuMs();
        const t = await oneTest(space, mode === 'off' ? null : mode, join(out, `${i}-${mode}`), sizes);
        if (i > 0) {
          // the first round warms up
          times[mode]!.push(t);
          cpu[mode]!.push(cpuMs() - c);
        }
      }
    }
    await space.delete();
    await conn.close();
    const perMinute = sizes.map((s) => (s.bytes / s.ms) * 60_000);
    return {
      title: 'use.video on realistic (one test: launch, 3 taps, a fill, back, close)',
      rows: [
        { measure: 'video off', ...stats(times.off!), cpu_ms: round(median(cpu.off!)) },
        {
          measure: "video 'retain-on-failure', test passed (dropped)",
          ...stats(times['retain-on-failure']!),
          vs: 'video off',
          ratio: `${round(median(times['retain-on-failure']!) / median(times.off!))}x`,
          cpu_ms: round(median(cpu['retain-on-failure']!)),
        },
        {
          measure: "video 'on' (read, encoded, attached)",
          ...stats(times.on!),
          vs: 'video off',
          ratio: `${round(median(times.on!) / median(times.off!))}x`,
          cpu_ms: round(median(cpu.on!)),
          // What 'on' would cost where its CPU is not stretched by other work: off's wall time
          // plus the CPU 'on' adds (the device's latencies are waits, not CPU).
          unloaded_ratio: `${round((median(times.off!) + median(cpu.on!) - median(cpu.off!)) / median(times.off!))}x`,
        },
        {
          measure: 'WebM size per minute of screen (360×800, this test)',
          kb_per_min: round(median(perMinute) / 1024),
          kb_per_video: round(median(sizes.map((s) => s.bytes)) / 1024),
          video_s: round(median(sizes.map((s) => s.ms)) / 1000),
        },
      ],
      notes: [
        `median of ${rounds} tests per mode, taken in turns; target: 'on' ≤ 1.3× 'off'. cpu_ms: CPU of this process (with the embedded simulator) and of ffmpeg per test; unloaded_ratio: off's wall time plus the CPU 'on' adds, over off's: the ratio where that CPU is not stretched by other work. A kept video's size grows with how often the screen changes, not with its length: a still screen adds almost nothing (one frame per change, variable frame rate).`,
      ],
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
    await sim.close();
  }
}

/** One test's wall time, ms, with video in `mode` (null: off); kept videos' sizes go to `sizes`. */
async function oneTest(
  space: Space,
  mode: VideoMode | null,
  dir: string,
  sizes: Array<{ bytes: number; ms: number }>,
): Promise<number> {
  const lifecycle = new Lifecycle();
  const options = { actionTimeout: 10_000, expectTimeout: 10_000, deviceActions: 'auto' as const, lifecycle };
  const ctx = new TestContext(new Trajectory(), options, [], lifecycle);
  const feature = mode ? videoFeature({ mode, size: null }, 0) : null;
  if (feature) lifecycle.add(feature);
  const started = performance.now();
  await runTest(ctx, async () => {
    const app = await space.launch(NOTES_APK);
    await app.getByText('New note').tap();
    await app.getById('title').fill('Buy milk');
    await app.getByRole('button', { name: 'Save' }).tap();
    await app.getByText('Buy milk').tap();
    await expect(app.getById('created')).toBeVisible();
    await app.press('back');
    await expect(app.getByText('Buy milk')).toBeVisible();
    const end: TestEnd = {
      outcome: { status: 'passed', expectedStatus: 'passed', failed: false, retry: 0 },
      instances: ctx.launched.map((a) => a.driver),
      startedAt: ctx.trajectory.startedAt,
      steps: ctx.trajectory.steps,
      annotations: [],
      outputPath: (...segments) => join(dir, ...segments),
      failureArtifact: () => {},
      attach: async (a) => {
        if (a.contentType === 'video/webm' && a.path)
          sizes.push({ bytes: statSync(a.path).size, ms: performance.now() - started });
      },
    };
    await lifecycle.ended(end);
    for (const a of ctx.launched.reverse()) await a.close();
  });
  return performance.now() - started;
}
