/**
 * The zip central directory, read by us in one buffer. yauzl's entry-by-entry `readEntry()` costs
 * ~17 µs per entry (68 ms for a 3,800-entry APK, measured in bench/apk.bench.ts) where a plain walk
 * over the buffer costs under 1 ms; we keep yauzl for what it does well — inflating with size
 * validation (`openReadStreamLowLevel`), path checks (`validateFileName`) and zip64 extra fields
 * (`parseExtraFields`), its documented low-level API — and do the walk and the EOCD search here.
 */
import yauzl from 'yauzl';
import { ApkError, check } from './apk-error.js';
import { ByteView } from './bytes.js';
import { checkNoOverlap, type EntryRecord } from './zip-bomb.js';
import type { ZipEntry } from './zip-entry.js';

export type { ZipEntry } from './zip-entry.js';

export type CentralDirectoryLocation = {
  offset: number;
  size: number;
  entryCount: number;
  /** File offset of the End Of Central Directory record. */
  eocdOffset: number;
  /** A zip64 EOCD locator precedes the EOCD record. */
  zip64: boolean;
};

/** Finds the End Of Central Directory record (and its zip64 form) in the last 64 KB of the file. */
export async function locateCentralDirectory(
  read: (offset: number, length: number) => Promise<Buffer>,
  fileSize: number,
): Promise<CentralDirectoryLocation> {
  const tailLen = Math.min(fileSize, 22 + 0xffff);
  const tail = await read(fileSize - tailLen, tailLen);
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== 0x06054b50) continue;
    // The comment must end exactly at the end of the file, otherwise this is data that looks like a signature.
    if (i + 22 + tail.readUInt16LE(i + 20) !== tail.length) continue;
    const eocdOffset = fileSize - tailLen + i;
    const zip64 = i >= 20 && tail.readUInt32LE(i - 20) === 0x07064b50;
    let loc: CentralDirectoryLocation = {
      entryCount: tail.readUInt16LE(i + 10),
      size: tail.readUInt32LE(i + 12),
      offset: tail.readUInt32LE(i + 16),
      eocdOffset,
      zip64,
    };
    if (
      (loc.offset === 0xffffffff || loc.entryCount === 0xffff || loc.size === 0xffffffff) &&
      i >= 20 &&
      tail.readUInt32LE(i - 20) === 0x07064b50
    ) {
      const recAt = Number(tail.readBigUInt64LE(i - 20 + 8));
      check(recAt + 56 <= fileSize, 'zip64 end of central directory record is outside the file');
      const rec = new ByteView(await read(recAt, 56), 'zip64 end of central directory');
      check(rec.u32(0) === 0x06064b50, 'zip64 end of central directory record not found');
      loc = { entryCount: rec.u64(32), size: rec.u64(40), offset: rec.u64(48), eocdOffset, zip64 };
    }
    check(
      loc.offset + loc.size <= fileSize,
      `central directory [${loc.offset}, +${loc.size}) lies outside the ${fileSize}-byte file`,
    );
    return loc;
  }
  throw new ApkError('end of central directory record not found: the file is truncated or is not a zip archive');
}

/**
 * Parses `count` central directory headers from `cd` (found at `cdOffset` in a file of
 * `fileSize` bytes). Throws ApkError on any inconsistency, and on records that overlap.
 */
export function parseCentralDirectory(
  cd: Buffer,
  count: number,
  fileSize: number,
  cdOffset: number,
): Map<string, ZipEntry> {
  const v = new ByteView(cd, 'central directory');
  const entries = new Map<string, ZipEntry>();
  const records: EntryRecord[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (v.u32(p) !== 0x02014b50) throw new ApkError(`central directory entry ${i}: bad signature`);
    const flag = v.u16(p + 8);
    const nameLen = v.u16(p + 28);
    const extraLen = v.u16(p + 30);
    const commentLen = v.u16(p + 32);
    const nameRaw = v.bytes(p + 46, nameLen);
    const extraRaw = v.bytes(p + 46 + nameLen, extraLen);
    const e: ZipEntry = {
      // Android's libziparchive reads names as UTF-8 whatever general purpose bit 11 says (yauzl
      // would decode CP437, and slowly), so we do too.
      fileName: nameRaw.toString('utf8'),
      compressionMethod: v.u16(p + 10),
      generalPurposeBitFlag: flag,
      crc32: v.u32(p + 16),
      compressedSize: v.u32(p + 20),
      uncompressedSize: v.u32(p + 24),
      relativeOffsetOfLocalHeader: v.u32(p + 42),
      recordLimit: cdOffset,
    };
    if (
      e.compressedSize === 0xffffffff ||
      e.uncompressedSize === 0xffffffff ||
      e.relativeOffsetOfLocalHeader === 0xffffffff
    ) {
      let extraFields: yauzl.ExtraField[];
      try {
        extraFields = yauzl.parseExtraFields(extraRaw);
      } catch (err) {
        throw new ApkError(`central directory entry ${i}: ${(err as Error).message}`);
      }
      applyZip64(e, extraFields);
    }
    const bad = yauzl.validateFileName(e.fileName.replace(/\\/g, '/'));
    if (bad) throw new ApkError(`${bad}`);
    if (e.relativeOffsetOfLocalHeader + 30 > fileSize)
      throw new ApkError(`entry ${e.fileName}: local header offset outside the file`);
    // Two entries with one name let different readers see different files (the "Janus"/master-key
    // family of bugs); Android rejects such APKs, so do we.
    if (entries.has(e.fileName)) throw new ApkError(`duplicate zip entry ${e.fileName}`);
    entries.set(e.fileName, e);
    records.push({ entry: e, nameLength: nameLen });
    p += 46 + nameLen + extraLen + commentLen;
  }
  checkNoOverlap(records, cdOffset);
  return entries;
}

/** Zip64 extended information (0x0001): 64-bit values for whichever fields are 0xFFFFFFFF. */
function applyZip64(e: ZipEntry, extraFields: yauzl.ExtraField[]): void {
  const z = extraFields.find((f) => f.id === 0x0001);
  if (!z) return;
  const v = new ByteView(z.data, `zip64 extra field of ${e.fileName}`);
  let p = 0;
  if (e.uncompressedSize === 0xffffffff) {
    e.uncompressedSize = v.u64(p);
    p += 8;
  }
  if (e.compressedSize === 0xffffffff) {
    e.compressedSize = v.u64(p);
    p += 8;
  }
  if (e.relativeOffsetOfLocalHeader === 0xffffffff) {
    e.relativeOffsetOfLocalHeader = v.u64(p);
    p += 8;
  }
}
