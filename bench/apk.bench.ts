/**
 * APK inspection: time (median, p95 over N runs, in-process) and peak memory (VmHWM of a fresh
 * child process that inspects once, minus its RSS before the run) on the largest APK available
 * (fixtures and the npm-shipped APKs), against @devicefarmer/adbkit-apkreader in the same run.
 *
 * Not like for like: adbkit-apkreader parses only AndroidManifest.xml (no arsc label, signing,
 * native libs or dex), so the table also has "nestwright manifest only" (zip open + manifest +
 * arsc label) which does the comparable work. This file is also its own child process when
 * NESTWRIGHT_APK_BENCH_CHILD is set.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspectApk } from '../device-runtime/apk/index.js';
import { ResourceTable } from '../device-runtime/apk/arsc.js';
import { parseAxml } from '../device-runtime/apk/axml.js';
import { readManifest } from '../device-runtime/apk/manifest.js';
import { ApkZip } from '../device-runtime/apk/zip.js';
import { median, percentile, round, sample, type BenchSection } from './section.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const require = createRequire(join(root, 'package.json'));
const RUNS = Number(process.env.NESTWRIGHT_BENCH_RUNS ?? 25);

type Parser = 'nestwright inspectApk' | 'nestwright manifest only' | 'adbkit-apkreader';
const PARSERS: Parser[] = ['nestwright inspectApk', 'nestwright manifest only', 'adbkit-apkreader'];

async function manifestOnly(path: string): Promise<unknown> {
  const zip = await ApkZip.open(path);
  try {
    const m = zip.get('AndroidManifest.xml');
    const a = zip.get('resources.arsc');
    if (!m) throw new Error('no manifest');
    return readManifest(
      parseAxml(await zip.read(m, 8 << 20)),
      a ? new ResourceTable(await zip.read(a, 64 << 20)) : null,
    );
  } finally {
    await zip.close();
  }
}

async function adbkit(path: string): Promise<unknown> {
  const ApkReader = require('@devicefarmer/adbkit-apkreader') as {
    open(p: string): Promise<{ readManifest(): Promise<unknown> }>;
  };
  return (await ApkReader.open(path)).readManifest();
}

const run = (p: Parser, path: string): Promise<unknown> =>
  p === 'adbkit-apkreader' ? adbkit(path) : p === 'nestwright manifest only' ? manifestOnly(path) : inspectApk(path);

function candidates(): string[] {
  const out: string[] = [];
  const fx = join(root, 'fixtures/apks');
  if (existsSync(fx))
    out.push(
      ...readdirSync(fx)
        .filter((f) => f.endsWith('.apk'))
        .map((f) => join(fx, f)),
    );
  for (const pkg of ['io.appium.settings', 'appium-uiautomator2-server']) {
    try {
      const dir = join(dirname(require.resolve(`${pkg}/package.json`)), 'apks');
      out.push(
        ...readdirSync(dir)
          .filter((f) => f.endsWith('.apk'))
          .map((f) => join(dir, f)),
      );
    } catch {
      /* not installed */
    }
  }
  return out.sort((a, b) => statSync(b).size - statSync(a).size);
}

function status(): { hwm: number; rss: number } {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
  return { hwm: kb('VmHWM') * 1024, rss: kb('VmRSS') * 1024 };
}

/** Peak extra memory of one inspection, measured in a fresh process. NaN when /proc is unavailable. */
function peakMemory(p: Parser, path: string): number {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    cwd: root,
    env: { ...process.env, NESTWRIGHT_APK_BENCH_CHILD: JSON.stringify({ parser: p, path }) },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const m = /^PEAK (\d+)$/m.exec(r.stdout ?? '');
  return m ? Number(m[1]) : NaN;
}

export async function benchApk(): Promise<BenchSection> {
  const apks = candidates();
  if (apks.length === 0)
    return {
      title: 'APK inspection',
      rows: [],
      notes: ['No APKs found: build fixtures (npm run fixtures:apks) and npm install.'],
    };
  const targets = [apks[0]!, apks.find((a) => a.includes('fixtures/apks/notes.apk'))].filter((a): a is string => !!a);
  const rows: BenchSection['rows'] = [];
  for (const apk of targets) {
    const base: Record<Parser, number> = {} as Record<Parser, number>;
    for (const p of PARSERS) {
      const times = await sample(RUNS, () => run(p, apk), 3);
      base[p] = median(times);
      const peak = peakMemory(p, apk);
      rows.push({
        apk: relative(root, apk).replace(/^node_modules\//, ''),
        'size MB': round(statSync(apk).size / 1e6, 1),
        parser: p,
        runs: RUNS,
        'median ms': round(median(times), 1),
        'p95 ms': round(percentile(times, 95), 1),
        'peak MB': Number.isNaN(peak) ? 'n/a' : round(peak / 1e6, 1),
        'vs adbkit': '',
      });
    }
    for (const r of rows.filter((x) => x.apk === relative(root, apk).replace(/^node_modules\//, ''))) {
      r['vs adbkit'] = `${round(base[r.parser as Parser] / base['adbkit-apkreader'], 2)}x`;
    }
  }
  return {
    title: 'APK inspection (inspectApk vs @devicefarmer/adbkit-apkreader)',
    rows,
    notes: [
      'inspectApk also reads resources.arsc, v1/v2/v3 signatures, every native lib ELF header and streams all dex files; adbkit-apkreader reads only the manifest. "manifest only" is the like-for-like row.',
      'adbkit-apkreader stops walking the central directory at AndroidManifest.xml (usually the first entry); nestwright reads every entry (duplicate-entry check, native libs, dex). On the big APK, inspectApk time is mostly inflating ~14 MB of dex for the Keystore/GMS/Integrity markers.',
      'peak MB = VmHWM − VmRSS before the run, in a fresh child process (one inspection, includes module loading).',
    ],
  };
}

if (process.env.NESTWRIGHT_APK_BENCH_CHILD) {
  const { parser, path } = JSON.parse(process.env.NESTWRIGHT_APK_BENCH_CHILD) as { parser: Parser; path: string };
  const before = status();
  await run(parser, path);
  const after = status();
  process.stdout.write(`PEAK ${Math.max(0, after.hwm - before.rss)}\n`);
}
