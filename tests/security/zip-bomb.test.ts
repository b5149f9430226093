/**
 * Zip bombs against every path that inflates APK entries (device-runtime/apk, behind `nestwright
 * inspect`, preflight and the simulator's space_install_apk): an APK whose entries share one
 * stream of zeros (the overlap of the "non-recursive zip bomb") is refused before anything is
 * inflated, and so is an APK whose entries do not overlap but together inflate past the limit
 * docs/preflight.md states; real APKs still read, and their verdicts agree with `apksigner verify`.
 *
 * Each bomb is a real APK otherwise (notes.apk's manifest and resources), small on disk, built
 * here in a few milliseconds. Every read is bounded by `within` so a reader that inflates the bomb
 * fails the test instead of holding the run.
 */
import { test, expect } from '@playwright/test';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ApkError, inspectAndPreflight, inspectApk } from '../../device-runtime/apk/index.js';
import { ApkZip } from '../../device-runtime/apk/zip.js';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { apksignerVerifies, hasApksigner } from '../apk/apksigner.js';
import { DEVICE_16K, FIXTURES, fixture, groundTruth, npmShippedApks } from '../apk/helpers.js';
import { buildZip, deflatedZeros, type ZipEntrySpec, type ZipSpec } from '../apk/zip-builder.js';

test.skip(!groundTruth(), 'fixtures/apks not built yet (npm run fixtures:apks)');
test.describe.configure({ timeout: 180_000 });

const MiB = 1024 * 1024;
/** The most one APK may inflate in total (docs/preflight.md#limits). */
const LIMIT = 1024 * MiB;

/** A reader that inflates a bomb runs for minutes: fail after `ms` instead. */
async function within<T>(what: string, p: Promise<T>, ms = 60_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s (still inflating?)`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** notes.apk's manifest and resources: the bombs are APKs up to their dex files (unsigned). */
async function apkParts(): Promise<ZipSpec[]> {
  const zip = await ApkZip.open(fixture('notes.apk'));
  try {
    const keep = [...zip.entries.values()].filter(
      (e) => !e.fileName.startsWith('META-INF/') && !/\.dex$/.test(e.fileName),
    );
    return await Promise.all(keep.map(async (e) => ({ name: e.fileName, data: await zip.read(e, MiB) })));
  } finally {
    await zip.close();
  }
}

function write(name: string, entries: ZipEntrySpec[]): string {
  const path = test.info().outputPath(name);
  writeFileSync(path, buildZip(entries));
  return path;
}

/** 300 classesN.dex entries whose central directory records all point at one 4 MiB stream of zeros. */
async function overlappingBomb(): Promise<{ path: string; declared: number }> {
  const dexNames = Array.from({ length: 300 }, (_, i) => (i === 0 ? 'classes.dex' : `classes${i + 1}.dex`));
  const path = write('overlap.apk', [
    ...(await apkParts()),
    { name: dexNames[0]!, deflated: deflatedZeros(4) },
    ...dexNames.slice(1).map((name) => ({ name, sameDataAs: 'classes.dex' })),
  ]);
  return { path, declared: dexNames.length * 4 * MiB };
}

/** 5 dex files of 240 MiB of zeros each (under the 256 MiB one dex may have), each its own record. */
async function spreadBomb(): Promise<{ path: string; declared: number }> {
  const zeros = deflatedZeros(240);
  const dex = Array.from({ length: 5 }, (_, i) => ({
    name: i ? `classes${i + 1}.dex` : 'classes.dex',
    deflated: zeros,
  }));
  return { path: write('spread.apk', [...(await apkParts()), ...dex]), declared: 5 * zeros.size };
}

/** The preflight report `nestwright inspect` prints: refused by INVALID_APK, naming the problem and the file. */
function expectRefused(
  report: { installable: boolean; checks: Array<{ code: string; status: string; message: string; details?: any }> },
  path: string,
  problem: string,
): void {
  expect(report.installable).toBe(false);
  const check = report.checks.find((c) => c.status === 'reject')!;
  expect(check, JSON.stringify(report.checks)).toMatchObject({ code: 'INVALID_APK', details: { problem, file: path } });
  expect(check.message).toContain(path);
  // What to do: the message ends with a hint.
  expect(check.message).toMatch(/Rebuild|rebuild|re-download|v2/);
}

test('300 dex entries sharing one stream of zeros (overlapping entries) are refused before inflating', async () => {
  const bomb = await overlappingBomb();
  // What makes it a bomb: a small file that would inflate past the limit.
  expect(statSync(bomb.path).size).toBeLessThan(64 * 1024);
  expect(bomb.declared).toBeGreaterThan(LIMIT);

  const { info, report } = await within('inspectAndPreflight', inspectAndPreflight(bomb.path, DEVICE_16K));
  expect(info).toBeNull();
  expectRefused(report, bomb.path, 'ZIP_ENTRIES_OVERLAP');
  expect(report.checks[0]!.message).toMatch(/overlap/);

  const thrown = await within(
    'inspectApk',
    inspectApk(bomb.path).catch((e: unknown) => e),
  );
  expect(thrown).toBeInstanceOf(ApkError);
  expect((thrown as ApkError).details).toMatchObject({ problem: 'ZIP_ENTRIES_OVERLAP' });
  // Refused on opening, from the central directory alone: no entry was inflated.
  const opened = await within(
    'ApkZip.open',
    ApkZip.open(bomb.path).catch((e: unknown) => e),
  );
  expect((opened as ApkError).details).toMatchObject({ problem: 'ZIP_ENTRIES_OVERLAP', entry: 'classes.dex' });
});

test('entries that do not overlap but together inflate past 1 GiB are refused before inflating', async () => {
  const bomb = await spreadBomb();
  expect(statSync(bomb.path).size).toBeLessThan(2 * MiB);
  expect(bomb.declared).toBeGreaterThan(LIMIT);
  const { info, report } = await within('inspectAndPreflight', inspectAndPreflight(bomb.path, DEVICE_16K));
  expect(info).toBeNull();
  expectRefused(report, bomb.path, 'INFLATE_LIMIT');
  // Refused from the declared sizes: only the manifest and resources (a few KB) were inflated.
  expect(report.checks[0]!.details).toMatchObject({ limit_bytes: LIMIT, declared_bytes: bomb.declared });
  expect(report.checks[0]!.details!.used_bytes).toBeLessThan(64 * 1024);
});

test('an entry whose data runs into the central directory is refused', async () => {
  const parts = await apkParts();
  const bytes = buildZip(parts);
  // The last entry's compressed size, in its central directory record, made to reach 10 bytes
  // into the central directory (its local header and data are untouched).
  const cdOffset = bytes.readUInt32LE(bytes.length - 22 + 16);
  let p = cdOffset;
  for (let i = 0; i < parts.length - 1; i++) p += 46 + bytes.readUInt16LE(p + 28);
  const lho = bytes.readUInt32LE(p + 42);
  const nameLen = bytes.readUInt16LE(p + 28);
  bytes.writeUInt32LE(cdOffset - (lho + 30 + nameLen) + 10, p + 20);
  const path = test.info().outputPath('into-cd.apk');
  writeFileSync(path, bytes);
  const { report } = await within('inspectAndPreflight', inspectAndPreflight(path, DEVICE_16K));
  expectRefused(report, path, 'ZIP_ENTRIES_OVERLAP');
  expect(report.checks[0]!.message).toMatch(/central directory/);
});

test('space_install_apk on the simulator refuses both bombs with INVALID_APK and the preflight report', async () => {
  const bombs = [
    { ...(await overlappingBomb()), problem: 'ZIP_ENTRIES_OVERLAP' },
    { ...(await spreadBomb()), problem: 'INFLATE_LIMIT' },
  ];
  const sim = await startSimServer();
  const client = new Client({ name: 'zip-bomb-test', version: '0' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(sim.url), {
        requestInit: { headers: { Authorization: `Bearer ${sim.token}` } },
      }),
    );
    const call = (name: string, args: Record<string, unknown>) =>
      within(name, client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as Promise<{
        isError?: boolean;
        structuredContent?: any;
        content: Array<{ type: string; text?: string }>;
      }>;
    const { space_id } = (await call('space_create', { name: 'bombs' })).structuredContent;
    await call('session_acquire', { space_id, mode: 'EXCLUSIVE' });
    for (const bomb of bombs) {
      const r = await call('space_install_apk', { space_id, apk_paths: [bomb.path] });
      expect(r.isError, JSON.stringify(r.structuredContent)).toBe(true);
      const error = JSON.parse(r.content.find((c) => c.type === 'text')!.text!).error;
      expect(error.code).toBe('INVALID_APK');
      expect(error.message).toMatch(/^space_install_apk: /);
      expectRefused(error.details.preflight, bomb.path, bomb.problem);
    }
    expect((await call('space_list_apps', { space_id })).structuredContent.apps).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ package: 'com.nestwright.notes' })]),
    );
  } finally {
    await client.close();
    await sim.close();
  }
});

test('the fixture APKs and the APKs shipped in npm packages still read; signatures agree with apksigner verify', async () => {
  const apks = [
    ...readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.apk'))
      .map((f) => join(FIXTURES, f)),
    ...npmShippedApks(),
  ];
  expect(apks.length).toBeGreaterThan(20);
  const verdicts = hasApksigner ? apks.map((apk) => apksignerVerifies(apk)) : [];
  for (const [i, apk] of apks.entries()) {
    const info = await within(apk, inspectApk(apk));
    if (!hasApksigner) continue;
    const { ok, out } = await verdicts[i]!;
    expect(info.signing.verified, `${apk}: apksigner says ${ok ? 'verified' : 'not verified'}\n${out}`).toBe(ok);
  }
  if (!hasApksigner)
    test
      .info()
      .annotations.push({ type: 'note', description: 'apksigner is not installed: only the reading was checked' });
});
