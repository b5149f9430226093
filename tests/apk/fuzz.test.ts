/**
 * Deterministic fuzzing of the APK readers and verifiers. Mutates the fixture APKs — bit flips,
 * truncation and byte splices aimed at the manifest, resources.arsc, the signing block and the
 * central directory, both in the raw file and in the inflated entries (re-zipped stored, so the
 * mutation reaches the AXML/arsc parsers instead of dying in inflate) — and checks that every case
 * either parses into a schema-valid ApkInfo or throws ApkError, within a time bound, and that
 * every tampered case is refused (INVALID_APK, SIGNATURE_INVALID or UNSIGNED).
 *
 * "Tampered" means a byte changed that something covers: a signature (for v2/v3 APKs, every byte
 * but the contents of signing-block pairs no scheme reads, such as apksigner's padding), or, for a
 * v1-only APK, an entry's data. A mutation confined to the rest changes nothing that gets
 * installed; Android and apksigner accept those too, and they are counted apart.
 *
 * NESTWRIGHT_FUZZ_CASES (default 3000) sets the total; NESTWRIGHT_FUZZ_SEED (default 1) the seed.
 * `npm run test:soak` runs 10,000. A failure message names the shard, case index and mutation so
 * it can be replayed.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApkError, ApkInfoSchema, inspectApk, preflight } from '../../device-runtime/apk/index.js';
import { centralDirectoryOffset } from '../../device-runtime/apk/signing-block.js';
import { ApkZip } from '../../device-runtime/apk/zip.js';
import { buildZip, type ZipSpec } from './zip-builder.js';
import { DEVICE_16K, fixture, groundTruth } from './helpers.js';
import { layout, unprotectedRanges } from './tamper.js';

const TOTAL = Number(process.env.NESTWRIGHT_FUZZ_CASES ?? 3000);
const SEED = Number(process.env.NESTWRIGHT_FUZZ_SEED ?? 1);
const SHARDS = 6;
/** The preflight codes that mean "this file is not what was signed (or not signed at all)". */
const INTEGRITY = new Set(['INVALID_APK', 'SIGNATURE_INVALID', 'UNSIGNED']);
/**
 * Per-case bound. Real cases take milliseconds; this only catches hangs and runaway inflation.
 * Generous: at 3 s the 10,000-case soak, run at low priority on a loaded 2-core machine, saw
 * whole runs of cases time out together (starvation, not hangs).
 */
const CASE_BOUND_MS = 30_000;
const SOURCES = [
  'notes.apk',
  'native-4k.apk',
  'native-16k.apk',
  'gms-keystore.apk',
  'split-feature.apk',
  'v1-only.apk',
  'unsigned.apk',
  'multidex.apk',
  'split.apks',
];

test.skip(!groundTruth(), 'fixtures/apks not built yet (npm run fixtures:apks)');
test.describe.configure({ mode: 'parallel' });

/** mulberry32: small, fast, deterministic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Region = { name: string; start: number; end: number };
type Source = {
  name: string;
  bytes: Buffer;
  regions: Region[];
  entries: ZipSpec[];
  isTampered: (mutated: Buffer) => boolean;
};

async function loadSource(name: string): Promise<Source> {
  const path = fixture(name);
  const bytes = readFileSync(path);
  const zip = await ApkZip.open(path);
  const regions: Region[] = [{ name: 'anywhere', start: 0, end: bytes.length }];
  const entries: ZipSpec[] = [];
  try {
    for (const e of zip.entries.values()) {
      entries.push({ name: e.fileName, data: await zip.read(e, 1 << 26), store: e.compressionMethod === 0 });
      if (e.fileName === 'AndroidManifest.xml' || e.fileName === 'resources.arsc' || e.fileName.endsWith('.so')) {
        const start = await zip.dataOffset(e);
        regions.push({ name: `raw ${e.fileName}`, start, end: start + e.compressedSize });
      }
    }
    const cd = centralDirectoryOffset(zip);
    regions.push({ name: 'central directory', start: cd, end: bytes.length });
    const magic = bytes.lastIndexOf(Buffer.from('APK Sig Block 42'), cd);
    if (magic > 0) {
      const size = Number(bytes.readBigUInt64LE(magic - 8));
      regions.push({ name: 'signing block', start: Math.max(0, cd - size - 8), end: cd });
    }
  } finally {
    await zip.close();
  }
  return { name, bytes, regions, entries, isTampered: tamperOracle(name, bytes) };
}

/** Ranges of `apk` whose change is tampering (see the file comment); null = all but the unprotected. */
function protectedRanges(name: string, apk: Buffer): Array<[number, number]> | null {
  if (name.endsWith('.apks')) {
    // The bundle is not signed; what it carries is: each stored inner APK's protected bytes.
    const l = layout(apk);
    return l.entries.flatMap((e) => {
      const start = e.local + 30 + apk.readUInt16LE(e.local + 26) + apk.readUInt16LE(e.local + 28);
      const inner = apk.subarray(start, start + e.compressedSize);
      return complement(unprotectedRanges(inner), inner.length).map(([a, b]): [number, number] => [
        start + a,
        start + b,
      ]);
    });
  }
  const l = layout(apk);
  if (l.signingBlock !== null) return null;
  // v1 only: the entries' data.
  return l.entries.map((e) => {
    const start = e.local + 30 + apk.readUInt16LE(e.local + 26) + apk.readUInt16LE(e.local + 28);
    return [start, start + e.compressedSize] as [number, number];
  });
}

function complement(ranges: Array<[number, number]>, length: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let p = 0;
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    if (a > p) out.push([p, a]);
    p = Math.max(p, b);
  }
  if (p < length) out.push([p, length]);
  return out;
}

function tamperOracle(name: string, original: Buffer): (mutated: Buffer) => boolean {
  const prot = protectedRanges(name, original) ?? complement(unprotectedRanges(original), original.length);
  return (mutated) => {
    if (mutated.length === original.length)
      return prot.some(([a, b]) => !mutated.subarray(a, b).equals(original.subarray(a, b)));
    // Truncated or spliced: every byte from the first difference on has moved or gone.
    let d = 0;
    while (d < mutated.length && d < original.length && mutated[d] === original[d]) d++;
    return prot.some(([, b]) => b > d);
  };
}

function mutate(bytes: Buffer, region: Region, r: () => number): { out: Buffer; what: string } {
  const pick = (lo: number, hi: number) => lo + Math.floor(r() * Math.max(1, hi - lo));
  const kind = Math.floor(r() * 4);
  const out = Buffer.from(bytes);
  if (kind === 0) {
    const flips = 1 + Math.floor(r() * 8);
    for (let i = 0; i < flips; i++) {
      const at = pick(region.start, region.end);
      if (at < out.length) out[at]! ^= 1 << Math.floor(r() * 8);
    }
    return { out, what: `${flips} bit flips in ${region.name}` };
  }
  if (kind === 1) {
    const at = pick(region.start, region.end);
    return { out: out.subarray(0, at), what: `truncate at ${at} (${region.name})` };
  }
  if (kind === 2) {
    const at = pick(region.start, region.end);
    const len = 1 + Math.floor(r() * 16);
    // Interesting values: all-ones and large lengths break naive length fields.
    const fill = [0xff, 0x00, 0x7f, 0x80][Math.floor(r() * 4)]!;
    for (let i = 0; i < len && at + i < out.length; i++) out[at + i] = r() < 0.5 ? fill : Math.floor(r() * 256);
    return { out, what: `overwrite ${len} bytes at ${at} (${region.name})` };
  }
  const at = pick(region.start, region.end);
  const del = Math.floor(r() * 8);
  const ins = Buffer.from(Array.from({ length: Math.floor(r() * 8) }, () => Math.floor(r() * 256)));
  return {
    out: Buffer.concat([out.subarray(0, at), ins, out.subarray(Math.min(out.length, at + del))]),
    what: `splice -${del}+${ins.length} at ${at} (${region.name})`,
  };
}

function makeCase(src: Source, r: () => number): { bytes: Buffer; what: string; tampered: boolean } {
  if (r() < 0.5) {
    const region = src.regions[Math.floor(r() * src.regions.length)]!;
    const { out, what } = mutate(src.bytes, region, r);
    return { bytes: out, what: `raw: ${what}`, tampered: src.isTampered(out) };
  }
  // Content level: mutate one inflated entry (mostly manifest / arsc) and re-zip it stored.
  const targets = src.entries.filter(
    (e) =>
      e.name === 'AndroidManifest.xml' ||
      e.name === 'resources.arsc' ||
      e.name.endsWith('.so') ||
      e.name.endsWith('.dex') ||
      /\.(RSA|EC|DSA)$/.test(e.name),
  );
  const pool = targets.length ? targets : src.entries; // a bundle: mutate one of its inner APKs
  const weighted = [...pool.filter((e) => e.name === 'AndroidManifest.xml' || e.name === 'resources.arsc'), ...pool];
  const target = weighted[Math.floor(r() * weighted.length)]!;
  const { out, what } = mutate(target.data, { name: target.name, start: 0, end: target.data.length }, r);
  const entries = src.entries.map((e) => (e === target ? { name: e.name, data: out, store: true } : e));
  // Re-zipping drops a v2+ signing block: tampering whatever else changed. A bundle's inner APK is
  // tampered when its protected bytes changed; a v1-only APK's entry when its data changed.
  const bundle = src.name.endsWith('.apks');
  const tampered = bundle
    ? tamperOracle(target.name, target.data)(out)
    : layout(src.bytes).signingBlock !== null || !out.equals(target.data);
  return { bytes: buildZip(entries), what: `entry: ${what}`, tampered };
}

async function within<T>(ms: number, p: Promise<T>): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<'timeout'>((res) => {
    timer = setTimeout(() => res('timeout'), ms);
  });
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

for (let shard = 0; shard < SHARDS; shard++) {
  test(`fuzz shard ${shard + 1}/${SHARDS}`, async () => {
    const cases = Math.floor(TOTAL / SHARDS) + (shard < TOTAL % SHARDS ? 1 : 0);
    test.setTimeout(60_000 + cases * 200);
    const sources = await Promise.all(SOURCES.map(loadSource));
    const dir = mkdtempSync(join(tmpdir(), 'nw-fuzz-'));
    const r = rng(SEED * 1000 + shard);
    const stats = { parsed: 0, rejected: 0, tampered: 0, tamperedRefused: 0, untouchedAccepted: 0 };
    const failures: string[] = [];
    try {
      for (let i = 0; i < cases; i++) {
        const src = sources[Math.floor(r() * sources.length)]!;
        const { bytes, what, tampered } = makeCase(src, r);
        const p = join(dir, `case-${i}${src.name.slice(src.name.lastIndexOf('.'))}`);
        writeFileSync(p, bytes);
        const label = `shard ${shard} case ${i} (${src.name}, ${what})`;
        const result = await within(
          CASE_BOUND_MS,
          inspectApk(p).then(
            (info) => ({ info }),
            (error: unknown) => ({ error }),
          ),
        );
        let refused = true;
        if (result === 'timeout') failures.push(`${label}: did not finish within ${CASE_BOUND_MS} ms`);
        else if ('info' in result) {
          const parsed = ApkInfoSchema.safeParse(result.info);
          if (parsed.success) stats.parsed++;
          else
            failures.push(`${label}: parsed into an ApkInfo that fails its schema: ${parsed.error.issues[0]?.message}`);
          const report = preflight(result.info, DEVICE_16K);
          refused = report.checks.some((c) => c.status === 'reject' && INTEGRITY.has(c.code));
        } else if (result.error instanceof ApkError && result.error.code === 'INVALID_APK' && result.error.reason)
          stats.rejected++;
        else failures.push(`${label}: threw ${(result.error as Error)?.stack ?? String(result.error)}`);
        if (tampered) {
          stats.tampered++;
          if (refused) stats.tamperedRefused++;
          else failures.push(`${label}: tampered, yet accepted (no INVALID_APK, SIGNATURE_INVALID or UNSIGNED)`);
        } else if (!refused) stats.untouchedAccepted++;
        rmSync(p, { force: true });
        if (failures.length >= 5) break;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const line = `${cases} cases: ${stats.parsed} parsed, ${stats.rejected} INVALID_APK; tampered ${stats.tampered}, refused ${stats.tamperedRefused}, accepted ${stats.tampered - stats.tamperedRefused}; unprotected bytes only, accepted: ${stats.untouchedAccepted}`;
    test.info().annotations.push({ type: 'fuzz', description: line });
    if (process.env.NESTWRIGHT_FUZZ_REPORT) console.log(`fuzz shard ${shard + 1}/${SHARDS}: ${line}`);
    expect(failures, failures.join('\n\n')).toEqual([]);
    expect(stats.parsed + stats.rejected).toBe(cases);
  });
}

/**
 * Cases a soak run found, replayed from their seed: the generator is run up to the case (the
 * inspections before it do not touch the random stream) and that case is inspected.
 * - seed 2, shard 2 case 469 and shard 3 case 54: a v1-only APK whose signing certificate had
 *   its subject edited. Its issuer then no longer equals its subject, so it was not checked as
 *   self-signed, and nothing else covers a v1 certificate: accepted with a changed identity.
 */
const REGRESSIONS = [
  { seed: 2, shard: 2, index: 469 },
  { seed: 2, shard: 3, index: 54 },
];

test('cases found by soak runs stay refused', async () => {
  const sources = await Promise.all(SOURCES.map(loadSource));
  const dir = mkdtempSync(join(tmpdir(), 'nw-fuzz-regress-'));
  try {
    for (const { seed, shard, index } of REGRESSIONS) {
      const r = rng(seed * 1000 + shard);
      let made: ReturnType<typeof makeCase> & { src: Source } = {
        bytes: Buffer.alloc(0),
        what: '',
        tampered: false,
        src: sources[0]!,
      };
      for (let i = 0; i <= index; i++) {
        const src = sources[Math.floor(r() * sources.length)]!;
        made = { ...makeCase(src, r), src };
      }
      const label = `seed ${seed} shard ${shard} case ${index} (${made.src.name}, ${made.what})`;
      expect(made.tampered, label).toBe(true);
      const p = join(dir, `case${made.src.name.slice(made.src.name.lastIndexOf('.'))}`);
      writeFileSync(p, made.bytes);
      const outcome = await inspectApk(p).then(
        (info) =>
          preflight(info, DEVICE_16K)
            .checks.filter((c) => c.status === 'reject')
            .map((c) => `${c.code}: ${c.message}`),
        (e: unknown) => [`${(e as ApkError).code}: ${(e as Error).message}`],
      );
      expect(outcome.join('\n'), label).toMatch(/^(INVALID_APK|SIGNATURE_INVALID|UNSIGNED)\b/m);
      if (made.what.includes('DEFAULT.RSA')) expect(outcome.join('\n'), label).toContain('signing certificate');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
