/** An APK whose end of central directory uses the zip64 form still yields its signing block. */
import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectApk } from '../../device-runtime/apk/index.js';
import { fixture, groundTruth } from './helpers.js';

test.skip(!groundTruth(), 'fixtures/apks not built yet (npm run fixtures:apks)');

/** Rewrites a zip's EOCD so that the central directory offset is only found via zip64 records. */
function toZip64Eocd(zip: Buffer): Buffer {
  const eocdAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const eocd = zip.subarray(eocdAt, eocdAt + 22);
  const count = eocd.readUInt16LE(10);
  const cdSize = eocd.readUInt32LE(12);
  const cdOffset = eocd.readUInt32LE(16);
  const rec = Buffer.alloc(56);
  rec.writeUInt32LE(0x06064b50, 0);
  rec.writeBigUInt64LE(44n, 4);
  rec.writeUInt16LE(45, 12);
  rec.writeUInt16LE(45, 14);
  rec.writeBigUInt64LE(BigInt(count), 24);
  rec.writeBigUInt64LE(BigInt(count), 32);
  rec.writeBigUInt64LE(BigInt(cdSize), 40);
  rec.writeBigUInt64LE(BigInt(cdOffset), 48);
  const loc = Buffer.alloc(20);
  loc.writeUInt32LE(0x07064b50, 0);
  loc.writeBigUInt64LE(BigInt(eocdAt), 8);
  loc.writeUInt32LE(1, 16);
  const newEocd = Buffer.from(eocd);
  newEocd.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([zip.subarray(0, eocdAt), rec, loc, newEocd]);
}

test('zip64 end of central directory', async () => {
  const dir = test.info().outputPath();
  const p = join(dir, 'notes64.apk');
  writeFileSync(p, toZip64Eocd(readFileSync(fixture('notes.apk'))));
  const plain = await inspectApk(fixture('notes.apk'));
  const z64 = await inspectApk(p);
  expect(z64.package).toBe(plain.package);
  expect(z64.signing.schemes).toEqual(plain.signing.schemes);
  expect(z64.signing.certSha256).toEqual(plain.signing.certSha256);
});
