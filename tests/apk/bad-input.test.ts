/**
 * Hostile and broken input: each case must end in ApkError (code INVALID_APK) with a reason, in
 * bounded time and memory — never a crash, a hang, or a raw library error.
 */
import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { ApkError, inspectApk } from '../../device-runtime/apk/index.js';
import { ApkZip } from '../../device-runtime/apk/zip.js';
import { buildZip, type ZipSpec } from './zip-builder.js';
import { fixture, groundTruth } from './helpers.js';

test.skip(!groundTruth(), 'fixtures/apks not built yet (npm run fixtures:apks)');

let n = 0;
/** Writes a case into this test's output directory (test-results/, cleaned by Playwright). */
function file(bytes: Buffer | string, ext = '.apk'): string {
  const p = test.info().outputPath(`case-${n++}${ext}`);
  writeFileSync(p, bytes);
  return p;
}

async function notesEntries(): Promise<ZipSpec[]> {
  const zip = await ApkZip.open(fixture('notes.apk'));
  const out: ZipSpec[] = [];
  for (const e of zip.entries.values()) out.push({ name: e.fileName, data: await zip.read(e, 1 << 24) });
  await zip.close();
  return out;
}

async function expectInvalid(input: string | string[], reason: RegExp): Promise<ApkError> {
  const t = performance.now();
  const rss0 = process.memoryUsage().rss;
  const err = await inspectApk(input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'inspectApk should reject').toBeInstanceOf(ApkError);
  const e = err as ApkError;
  expect(e.code).toBe('INVALID_APK');
  expect(e.reason).toMatch(reason);
  expect(e.message).toMatch(/^inspectApk: /);
  // Bounds, not performance assertions: a zip bomb that got inflated would take seconds and GBs.
  expect(performance.now() - t).toBeLessThan(5_000);
  expect(process.memoryUsage().rss - rss0).toBeLessThan(256 * 1024 * 1024);
  return e;
}

test('a truncated zip', async () => {
  const bytes = readFileSync(fixture('notes.apk'));
  await expectInvalid(file(bytes.subarray(0, bytes.length >> 1)), /central directory|unreadable zip/);
  await expectInvalid(file(bytes.subarray(0, bytes.length - 10)), /central directory|unreadable zip/);
});

test('an empty file, a text file, a missing file, a directory', async () => {
  await expectInvalid(file(''), /end of central directory record not found/);
  await expectInvalid(file('hello'), /end of central directory record not found/);
  await expectInvalid(test.info().outputPath('nope.apk'), /cannot open file: ENOENT/);
  await expectInvalid(test.info().outputDir, /unreadable zip|cannot open/);
});

test('a zip that is not an APK', async () => {
  const e = await expectInvalid(
    file(buildZip([{ name: 'hello.txt', data: Buffer.from('hi') }])),
    /no AndroidManifest\.xml/,
  );
  expect(e.message).toMatch(/not an APK/);
});

test('a plain-text AndroidManifest.xml', async () => {
  await expectInvalid(
    file(
      buildZip([{ name: 'AndroidManifest.xml', data: Buffer.from('<?xml version="1.0"?><manifest package="a.b"/>') }]),
    ),
    /plain-text XML/,
  );
});

test('corrupted AXML: garbage, bad chunk sizes, string pool pointing outside the file', async () => {
  const good = (await notesEntries()).find((e) => e.name === 'AndroidManifest.xml')!.data;
  const bigChunk = Buffer.from(good);
  bigChunk.writeUInt32LE(0x7fffffff, 8 + 4); // string pool chunk size
  const badOffsets = Buffer.from(good);
  badOffsets.writeUInt32LE(0xfffffff0, 8 + 20); // stringsStart
  const truncated = good.subarray(0, 200);
  for (const [bytes, reason] of [
    [Buffer.from([0x03, 0x00, 0x08, 0x00, 0xff, 0xff, 0xff, 0xff, 1, 2, 3]), /chunk|string pool|no root/],
    [bigChunk, /bad size|out of bounds/],
    [badOffsets, /out of bounds/],
    [truncated, /bad size|out of bounds|no root/],
  ] as const) {
    await expectInvalid(file(buildZip([{ name: 'AndroidManifest.xml', data: bytes }])), reason);
  }
});

test('zip bomb: a manifest that inflates past its 8 MB cap, truthfully declared or not', async () => {
  const zeros = Buffer.alloc(64 * 1024 * 1024); // deflates to ~64 KB
  await expectInvalid(
    file(buildZip([{ name: 'AndroidManifest.xml', data: zeros }])),
    /declares 67108864 bytes, more than the 8388608-byte limit/,
  );
  await expectInvalid(
    file(buildZip([{ name: 'AndroidManifest.xml', data: zeros, declaredSize: 1000 }])),
    /inflate|too many bytes|limit/,
  );
});

test('zip bomb: resources.arsc past its 64 MB cap, dex past 256 MB, inner APK of a bundle', async () => {
  const entries = await notesEntries();
  const withArsc = entries.map((e) => (e.name === 'resources.arsc' ? { ...e, declaredSize: 100 * 1024 * 1024 } : e));
  await expectInvalid(file(buildZip(withArsc)), /resources\.arsc declares \d+ bytes/);
  const withDex = entries.map((e) => (e.name === 'classes.dex' ? { ...e, declaredSize: 0x80000000 } : e));
  await expectInvalid(file(buildZip(withDex)), /classes\.dex declares 2147483648 bytes/);
  const inner = buildZip([{ name: 'AndroidManifest.xml', data: Buffer.alloc(0) }]);
  await expectInvalid(
    file(buildZip([{ name: 'base.apk', data: inner, declaredSize: 0xfffffff0 }]), '.apks'),
    /zip bomb|limit|inflate/,
  );
});

test('a declared size of 2 GB on the manifest', async () => {
  const entries = (await notesEntries()).map((e) =>
    e.name === 'AndroidManifest.xml' ? { ...e, declaredSize: 0x80000000 } : e,
  );
  await expectInvalid(file(buildZip(entries)), /AndroidManifest\.xml declares 2147483648 bytes/);
});

test('an entry name with ../ and a duplicate entry', async () => {
  const entries = await notesEntries();
  await expectInvalid(
    file(buildZip([...entries, { name: '../../evil.so', data: Buffer.from('x') }])),
    /invalid relative path/,
  );
  await expectInvalid(
    file(buildZip([...entries, entries.find((e) => e.name === 'AndroidManifest.xml')!])),
    /duplicate zip entry AndroidManifest\.xml/,
  );
});

test('a bundle with no APKs inside', async () => {
  await expectInvalid(
    file(buildZip([{ name: 'toc.pb', data: Buffer.from('x') }]), '.apks'),
    /contains no \.apk entries/,
  );
  await expectInvalid(file('not a zip', '.xapk'), /end of central directory record not found/);
});

test('a broken .so is reported on the library, not as a crash', async () => {
  const entries = [
    ...(await notesEntries()),
    { name: 'lib/x86_64/libbroken.so', data: Buffer.from('not an elf at all'), store: true },
  ];
  const info = await inspectApk(file(buildZip(entries)));
  expect(info.apks[0]!.nativeLibs[0]).toMatchObject({
    abi: 'x86_64',
    pAlign: null,
    error: expect.stringMatching(/not an ELF/),
  });
});

test('resources.arsc with hundreds of thousands of tiny type chunks is refused, not indexed', async () => {
  const { ResourceTable } = await import('../../device-runtime/apk/arsc.js');
  const n = 300_000;
  const chunk = Buffer.alloc(24);
  chunk.writeUInt16LE(0x0201, 0);
  chunk.writeUInt16LE(24, 2);
  chunk.writeUInt32LE(24, 4);
  chunk[8] = 1; // type id
  chunk.writeUInt32LE(4, 20); // ResTable_config.size
  const pkgHeader = Buffer.alloc(288);
  pkgHeader.writeUInt16LE(0x0200, 0);
  pkgHeader.writeUInt16LE(288, 2);
  pkgHeader.writeUInt32LE(288 + n * 24, 4);
  pkgHeader.writeUInt32LE(0x7f, 8);
  const table = Buffer.alloc(12);
  table.writeUInt16LE(0x0002, 0);
  table.writeUInt16LE(12, 2);
  table.writeUInt32LE(12 + 288 + n * 24, 4);
  table.writeUInt32LE(1, 8);
  const arsc = Buffer.concat([table, pkgHeader, Buffer.alloc(n * 24).fill(chunk.toString('latin1'), 'latin1')]);
  // Refused by count before any indexing; a quadratic walk would show as the test's own timeout
  // (a wall-clock bound here failed on a loaded 2-core machine: timed assertions flake).
  expect(() => new ResourceTable(arsc)).toThrow(/more than 262144 type chunks/);
});
