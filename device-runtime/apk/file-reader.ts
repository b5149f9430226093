/**
 * The random-access reader we give yauzl. yauzl's own `open`/`fromFd` readers close the file
 * descriptor when their reference count drops to zero — under our FileHandle, which we close
 * ourselves, that is a double close that can hit a reused descriptor — and they serialize every
 * read. This reader never closes anything, reads with `FileHandle.read`, and serves the central
 * directory from one buffer read up front (entry listing of a 4,000-entry APK goes from thousands
 * of small reads to one).
 */
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** Largest central directory we cache in memory; bigger ones are read piecewise. */
const MAX_CACHED_CD = 32 * 1024 * 1024;
const CHUNK = 256 * 1024;

export class FileRangeReader extends yauzl.RandomAccessReader {
  private cache: { start: number; buf: Buffer } | null = null;

  constructor(private readonly fh: FileHandle, private readonly size: number) {
    super();
  }

  /** Reads the file tail holding the central directory, located via the EOCD record. Best effort. */
  async preloadCentralDirectory(): Promise<void> {
    const tailLen = Math.min(this.size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLen);
    await this.fh.read(tail, 0, tailLen, this.size - tailLen);
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) !== 0x06054b50) continue;
      const cdStart = tail.readUInt32LE(i + 16);
      if (cdStart === 0xffffffff || cdStart > this.size || this.size - cdStart > MAX_CACHED_CD) break;
      const buf = Buffer.alloc(this.size - cdStart);
      const { bytesRead } = await this.fh.read(buf, 0, buf.length, cdStart);
      this.cache = { start: cdStart, buf: buf.subarray(0, bytesRead) };
      return;
    }
    this.cache = { start: this.size - tailLen, buf: tail };
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null, bytesRead?: number) => void): void {
    const c = this.cache;
    if (c && position >= c.start && position + length <= c.start + c.buf.length) {
      c.buf.copy(buffer, offset, position - c.start, position - c.start + length);
      queueMicrotask(() => callback(null, length));
      return;
    }
    this.fh.read(buffer, offset, length, position).then(
      ({ bytesRead }) => callback(null, bytesRead),
      (err: Error) => callback(err),
    );
  }

  override _readStreamForRange(start: number, end: number): Readable {
    let pos = start;
    const fh = this.fh;
    return new Readable({
      highWaterMark: CHUNK,
      read() {
        const len = Math.min(CHUNK, end - pos);
        if (len <= 0) {
          this.push(null);
          return;
        }
        const b = Buffer.allocUnsafe(len);
        fh.read(b, 0, len, pos).then(
          ({ bytesRead }) => {
            if (bytesRead === 0) return this.destroy(new Error('unexpected end of file'));
            pos += bytesRead;
            this.push(bytesRead < len ? b.subarray(0, bytesRead) : b);
          },
          (err: Error) => this.destroy(err),
        );
      },
    });
  }

  override close(callback: (err: Error | null) => void): void {
    setImmediate(() => callback(null)); // the FileHandle belongs to ApkZip
  }
}
