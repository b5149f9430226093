/**
 * The random-access reader we give yauzl for inflating entries. yauzl's own `open`/`fromFd`
 * readers close the file descriptor when their reference count drops to zero — under our
 * FileHandle, which we close ourselves, that is a double close that can hit a reused descriptor
 * (the fuzz test found it) — and they serialize every read. This one never closes anything.
 */
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

const CHUNK = 256 * 1024;

export class FileRangeReader extends yauzl.RandomAccessReader {
  constructor(private readonly fh: FileHandle) {
    super();
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null, bytesRead?: number) => void,
  ): void {
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
