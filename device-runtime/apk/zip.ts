/**
 * Random-access zip reading for APKs. The central directory is walked by us
 * (./central-directory.ts, one buffer); entry data is inflated by yauzl's low-level stream
 * (maintained, validates that the inflated size equals the declared one).
 *
 * Everything here is bounded: entry count, central directory size, per-entry inflated size (the
 * caller states a cap; the declared size is checked before inflating, the actual size while
 * inflating), the total inflated from one file, and raw range reads. Entries whose records
 * overlap are refused (./zip-bomb.ts).
 *
 * Every entry read to its end has its CRC-32 checked against the central directory (node:zlib's
 * `crc32`, zlib's own implementation); a mismatch is a damaged or altered entry. Reads stopped
 * early (an ELF header, the dex marker scan) cannot be checked and are not.
 */
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { ApkError, asApkError } from './apk-error.js';
import { locateCentralDirectory, parseCentralDirectory, type ZipEntry } from './central-directory.js';
import { FileRangeReader } from './file-reader.js';
import { InflateBudget, overlapError } from './zip-bomb.js';

export type { ZipEntry } from './central-directory.js';

/** More entries than any real APK has (large games have ~30k). Stops central-directory bombs. */
export const MAX_ENTRIES = 200_000;
/** 200k entries with long names fit in this. */
const MAX_CENTRAL_DIRECTORY_BYTES = 64 * 1024 * 1024;

export class ApkZip {
  private constructor(
    readonly path: string,
    private readonly zip: yauzl.ZipFile,
    private readonly fh: FileHandle,
    readonly size: number,
    /** Offset of the central directory (the APK signing block ends right before it). */
    readonly centralDirectoryOffset: number,
    readonly centralDirectorySize: number,
    /** Offset of the End Of Central Directory record; a zip64 locator precedes it when `zip64`. */
    readonly eocdOffset: number,
    readonly zip64: boolean,
    readonly entries: ReadonlyMap<string, ZipEntry>,
    private readonly budget: InflateBudget,
  ) {}

  /**
   * Opens `path` and reads the whole central directory. Throws ApkError for anything unreadable.
   * `maxInflatedBytes`: the most all reads of this file may inflate together (default
   * MAX_INFLATED_BYTES; a bundle passes its own limit for the APKs it unpacks).
   */
  static async open(path: string, opts: { maxInflatedBytes?: number } = {}): Promise<ApkZip> {
    let fh: FileHandle;
    try {
      fh = await openFile(path, 'r');
    } catch (err) {
      throw new ApkError(`cannot open file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, {
        file: path,
        hint: 'Pass the path of an existing, readable .apk, .apks or .xapk file.',
        cause: err,
      });
    }
    try {
      const size = (await fh.stat()).size;
      const read = (offset: number, length: number) => readRange(fh, size, offset, length, path);
      const loc = await locateCentralDirectory(read, size);
      if (loc.entryCount > MAX_ENTRIES)
        throw new ApkError(`central directory declares ${loc.entryCount} entries (limit ${MAX_ENTRIES})`);
      if (loc.size > MAX_CENTRAL_DIRECTORY_BYTES)
        throw new ApkError(`central directory is ${loc.size} bytes (limit ${MAX_CENTRAL_DIRECTORY_BYTES})`);
      const entries = parseCentralDirectory(await read(loc.offset, loc.size), loc.entryCount, size, loc.offset);
      const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
        yauzl.fromRandomAccessReader(
          new FileRangeReader(fh),
          size,
          { lazyEntries: true, autoClose: false, validateEntrySizes: true },
          (err, z) => (err ? reject(err) : resolve(z)),
        ),
      );
      const budget = new InflateBudget(opts.maxInflatedBytes);
      return new ApkZip(path, zip, fh, size, loc.offset, loc.size, loc.eocdOffset, loc.zip64, entries, budget);
    } catch (err) {
      await fh.close().catch(() => undefined);
      throw asApkError(err, path);
    }
  }

  async close(): Promise<void> {
    try {
      this.zip.close();
    } catch {
      /* the FileHandle is ours, closed below */
    }
    await this.fh.close().catch(() => undefined);
  }

  get(name: string): ZipEntry | undefined {
    return this.entries.get(name);
  }

  /**
   * Before a pass that inflates many entries (`what`: "the dex files", each read up to
   * `perEntryCap`): refuses it, inflating nothing, when their declared sizes would take this file
   * past its inflation limit.
   */
  reserve(entries: Iterable<ZipEntry>, what: string, perEntryCap?: number): void {
    try {
      this.budget.reserve(entries, what, perEntryCap);
    } catch (err) {
      throw asApkError(err, this.path);
    }
  }

  /** Inflates a whole entry, refusing (ApkError) if it declares or produces more than `maxBytes`. */
  async read(entry: ZipEntry, maxBytes: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await this.scan(entry, maxBytes, (c) => {
      chunks.push(c);
    });
    return Buffer.concat(chunks);
  }

  /**
   * Streams an entry through `onChunk`; `onChunk` may return `false` to stop early (used to read
   * just an ELF header). Caps declared and actual inflated size at `maxBytes`.
   */
  async scan(
    entry: ZipEntry,
    maxBytes: number,
    onChunk: (chunk: Buffer) => boolean | void | Promise<boolean | void>,
  ): Promise<void> {
    const name = entry.fileName;
    if (entry.uncompressedSize > maxBytes) {
      throw new ApkError(
        `entry ${name} declares ${entry.uncompressedSize} bytes, more than the ${maxBytes}-byte limit for it (zip bomb or corrupt size)`,
        { file: this.path },
      );
    }
    if (entry.generalPurposeBitFlag & 0x1) throw new ApkError(`entry ${name} is encrypted`, { file: this.path });
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw new ApkError(
        `entry ${name} uses compression method ${entry.compressionMethod}; APKs use only stored (0) or deflate (8)`,
        { file: this.path },
      );
    }
    const deflated = entry.compressionMethod === 8;
    if (deflated) this.reserve([entry], `entry ${name}`);
    const start = await this.dataOffset(entry);
    let stream: NodeJS.ReadableStream & { destroy(): void };
    try {
      stream = await new Promise((resolve, reject) =>
        this.zip.openReadStreamLowLevel(
          start,
          entry.compressedSize,
          0,
          entry.compressedSize,
          deflated,
          entry.uncompressedSize,
          (err, s) => (err ? reject(err) : resolve(s as never)),
        ),
      );
    } catch (err) {
      throw new ApkError(`cannot read entry ${name}: ${(err as Error).message}`, { file: this.path, cause: err });
    }
    let total = 0;
    let crc = 0;
    let complete = true;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > maxBytes)
          throw new ApkError(`entry ${name} inflates past its ${maxBytes}-byte limit`, { file: this.path });
        if (deflated) this.budget.add(entry, chunk.length);
        crc = crc32(chunk, crc);
        if ((await onChunk(chunk)) === false) {
          complete = false;
          break;
        } // awaiting gives backpressure
      }
      if (complete && crc !== entry.crc32) {
        throw new ApkError(
          `entry ${name} fails its CRC-32 check (data ${hex8(crc)}, central directory ${hex8(entry.crc32)}): the entry was altered or damaged`,
          { file: this.path },
        );
      }
    } catch (err) {
      if (err instanceof ApkError) throw asApkError(err, this.path);
      throw new ApkError(`cannot inflate entry ${name}: ${(err as Error).message}`, { file: this.path, cause: err });
    } finally {
      stream.destroy();
    }
  }

  /** Inflates an entry into a new file at `dest` (streaming with backpressure, bounded by `maxBytes`). */
  async copyTo(entry: ZipEntry, maxBytes: number, dest: string): Promise<void> {
    const out = await openFile(dest, 'wx');
    try {
      await this.scan(entry, maxBytes, async (c) => {
        await out.write(c);
      });
    } finally {
      await out.close();
    }
  }

  /** Reads up to `n` inflated bytes from the start of an entry (ELF headers). */
  async readPrefix(entry: ZipEntry, n: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let got = 0;
    await this.scan(entry, Number.MAX_SAFE_INTEGER, (c) => {
      chunks.push(c);
      got += c.length;
      return got < n;
    });
    const all = Buffer.concat(chunks);
    return all.subarray(0, Math.min(n, all.length));
  }

  /**
   * Offset of an entry's data in the file: local header offset + 30 + name len + extra len (from
   * the local header). The data must end within the entry's record (./zip-bomb.ts).
   */
  async dataOffset(entry: ZipEntry): Promise<number> {
    const h = await this.readRange(entry.relativeOffsetOfLocalHeader, 30);
    if (h.readUInt32LE(0) !== 0x04034b50) {
      throw new ApkError(`bad local header signature for ${entry.fileName}`, { file: this.path });
    }
    const start = entry.relativeOffsetOfLocalHeader + 30 + h.readUInt16LE(26) + h.readUInt16LE(28);
    const end = start + entry.compressedSize;
    if (end > entry.recordLimit) {
      const next = [...this.entries.values()].find((e) => e.relativeOffsetOfLocalHeader === entry.recordLimit);
      throw asApkError(overlapError(entry, end, next), this.path);
    }
    return start;
  }

  /** Raw bytes [offset, offset+length) of the file; ApkError when the range is outside the file. */
  readRange(offset: number, length: number): Promise<Buffer> {
    return readRange(this.fh, this.size, offset, length, this.path);
  }
}

const hex8 = (n: number): string => n.toString(16).padStart(8, '0');

async function readRange(fh: FileHandle, size: number, offset: number, length: number, path: string): Promise<Buffer> {
  if (
    !Number.isSafeInteger(offset) ||
    !Number.isSafeInteger(length) ||
    offset < 0 ||
    length < 0 ||
    offset + length > size
  ) {
    throw new ApkError(`range [${offset}, +${length}) is outside the ${size}-byte file`, { file: path });
  }
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, offset);
  if (bytesRead !== length) throw new ApkError(`short read at ${offset}`, { file: path });
  return buf;
}
