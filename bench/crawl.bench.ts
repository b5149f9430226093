import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveConfig } from '../cli/crawl/config.js';
import type { CrawlResult } from '../cli/crawl/model.js';
import { runCrawl } from '../cli/crawl/run.js';
import { writeSuite } from '../cli/crawl/suite.js';
import { DeviceClient, McpToolTransport } from '../device-runtime/client/index.js';
import { EMBEDDED_TOKEN_ENV, EMBEDDED_URL_ENV } from '../device-runtime/providers/index.js';
import { matchesTruth, SAMPLE_SCREENS } from '../device-runtime/sim/apps/screens.js';
import { inMemoryTransport } from '../device-runtime/sim/mcp.js';
import { SimRuntime } from '../device-runtime/sim/runtime.js';
import type { BenchSection } from './section.js';

/**
 * `npm run bench crawl`: `nestwright crawl` on the four sample apps, measured against the
 * screens their models have (device-runtime/sim/apps/screens.ts) and the activities of their
 * manifests: what it reached, and when, with 1, 2 and 4 instances on `instant` and `realistic`,
 * and in the fallback mode (one copy, data cleared between branches, as on a runtime without
 * fresh instances). Then the suite it wrote for each app is replayed in a child Playwright run
 * under `realistic` and under `hostile` seed 7. WebViews have no Chromium here (the help page is
 * a box): the crawl's figures, not Chromium's start-up.
 * CRAWL_BENCH_APPS=shop,notes and CRAWL_BENCH_PROFILES=realistic narrow it.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const APPS: Record<string, { app: string; config: unknown }> = {
  notes: { app: 'fixtures/apks/notes.apk', config: { activities: 'all' } },
  shop: { app: 'fixtures/apks/shop.apk', config: { inputs: { email: 'ana@example.com' } } },
  chat: { app: 'fixtures/apks/chat.apk', config: {} },
  settings: { app: 'com.android.settings', config: {} },
};
const SETTINGS_ACTIVITIES = 6; // Settings has no APK: its model's activities.
const BUDGET_MINUTES = 2;

interface Run {
  result: CrawlResult;
  screens: number;
  truth: number;
  activities: number;
  allActivities: number;
  /** When the last screen of the truth it found was found (ms from the start). */
  lastMs: number;
  /** When 90% of the truth had been found, or null. */
  ninetyMs: number | null;
}

async function crawl(name: string, faults: string, instances: number, clearData = false): Promise<Run> {
  // The fallback measured as a runtime without fresh instances gets it: the simulator without its `instance` extension.
  const rt = new SimRuntime({
    faults: faults as 'instant',
    seed: 1,
    chromium: false,
    ...(clearData ? { withoutExtensions: ['instance'] } : {}),
  });
  const client = new DeviceClient(await McpToolTransport.connect(await inMemoryTransport(rt)));
  try {
    const { app, config } = APPS[name]!;
    const { result } = await runCrawl({
      client,
      app,
      instances,
      minutes: BUDGET_MINUTES,
      seed: 1,
      config: resolveConfig(config, null),
      screenshots: false,
    });
    const truth = SAMPLE_SCREENS[result.app.package]!;
    const firstFound = truth
      .map((t) => Math.min(...result.screens.filter((s) => matchesTruth(t, s)).map((s) => s.foundAtMs)))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    return {
      result,
      screens: firstFound.length,
      truth: truth.length,
      activities: result.activitiesReached.length,
      allActivities: result.app.activities.length || SETTINGS_ACTIVITIES,
      lastMs: firstFound.at(-1) ?? 0,
      ninetyMs: firstFound[Math.ceil(truth.length * 0.9) - 1] ?? null,
    };
  } finally {
    await client.close();
    rt.close();
  }
}

/** Replay a suite in a child Playwright run: how many tests went as expected (the crash specs are expected to fail). */
function replay(
  name: string,
  result: CrawlResult,
  env: Record<string, string>,
): Promise<{ expected: number; total: number }> {
  const dir = path.join(ROOT, 'test-results', 'crawl-suite');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.spec.ts`), writeSuite(result, APPS[name]!.app));
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  delete childEnv[EMBEDDED_URL_ENV];
  delete childEnv[EMBEDDED_TOKEN_ENV];
  const cli = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
  const args = [cli, 'test', '-c', 'bench/crawl-suite.config.ts', '--workers=2', '--reporter=json'];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', () => {
      let expected = 0;
      let total = 0;
      try {
        const walk = (suite: any): void => {
          for (const spec of suite.specs ?? [])
            for (const t of spec.tests) {
              total++;
              if (t.status === 'expected') expected++;
            }
          for (const s of suite.suites ?? []) walk(s);
        };
        for (const s of JSON.parse(out.slice(out.indexOf('{'))).suites) walk(s);
      } catch {
        /* no report: nothing passed */
      }
      resolve({ expected, total });
    });
  });
}

const list = (env: string | undefined, all: string[]) => (env ? env.split(',').filter((x) => all.includes(x)) : all);
const s = (ms: number | null) => (ms === null ? '—' : (ms / 1000).toFixed(1));

/** One app's table: its crawls and its suite's replays (a section per app, printed as each ends). */
async function benchApp(name: string): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  const notes: string[] = [];
  const apps = list(process.env.CRAWL_BENCH_APPS, Object.keys(APPS)).filter((a) => a === name);
  const profiles = list(process.env.CRAWL_BENCH_PROFILES, ['instant', 'realistic']);
  for (const name of apps) {
    for (const faults of profiles) {
      const one: Record<number, Run> = {};
      for (const k of [1, 2, 4]) {
        const r = await crawl(name, faults, k);
        one[k] = r;
        const crash = r.result.crashes[0];
        rows.push({
          measure: `${name} ${faults} ×${k}`,
          ...coverage(r),
          crash: crash ? `${crash.reproduced ? 'reproduced' : 'found'} at ${s(crash.foundAtMs)} s` : '—',
          ...(k > 1
            ? { vs: `${name} ${faults} ×1`, ratio: `${(one[1]!.lastMs / Math.max(1, r.lastMs)).toFixed(2)}x` }
            : {}),
        });
      }
      if (faults === 'realistic') {
        const r = await crawl(name, faults, 1, true);
        rows.push({
          measure: `${name} ${faults} clear-data`,
          ...coverage(r),
          crash: r.result.crashes[0] ? `${r.result.crashes[0].reproduced ? 'reproduced' : 'found'}` : '—',
          vs: `${name} ${faults} ×1`,
          ratio: `${(one[1]!.lastMs / Math.max(1, r.lastMs)).toFixed(2)}x`,
        });
        for (const [profile, env] of [
          ['realistic', { NESTWRIGHT_FAULTS: 'realistic' }],
          ['hostile seed 7', { NESTWRIGHT_FAULTS: 'hostile', NESTWRIGHT_SEED: '7' }],
        ] as const) {
          const rep = await replay(name, one[4]!.result, env);
          rows.push({
            measure: `${name} suite replay, ${profile}`,
            'specs as expected': `${rep.expected}/${rep.total}`,
          });
        }
      }
    }
  }
  notes.push(
    `screens: those of the app's model (device-runtime/sim/apps/screens.ts) a crawled screen matched; "model screens": distinct screens in the crawl's own model. Budget ${BUDGET_MINUTES} min.`,
    'ratio on ×2/×4 rows: time to the last screen found with 1 instance over with K (higher is faster); on clear-data rows: ×1 with fresh instances over clear-data.',
  );
  return { title: `nestwright crawl: ${name}`, rows, notes };
}

/** The columns every crawl row shares: what it reached, and when. */
function coverage(r: Awaited<ReturnType<typeof crawl>>) {
  return {
    activities: `${r.activities}/${r.allActivities}`,
    screens: `${r.screens}/${r.truth}`,
    'model screens': r.result.screens.length,
    '90% at s': s(r.ninetyMs),
    'last at s': s(r.lastMs),
    'ended s': s(r.result.elapsedMs),
    stopped: r.result.stopped,
    branches: r.result.branches,
  };
}

export const benchCrawlShop = () => benchApp('shop');
export const benchCrawlNotes = () => benchApp('notes');
export const benchCrawlSettings = () => benchApp('settings');
export const benchCrawlChat = () => benchApp('chat');
