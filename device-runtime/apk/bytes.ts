import { ApkError, check } from './apk-error.js';

/**
 * A bounds-checked little-endian view over a Buffer. Every read checks its offset against the
 * window [start, end) and throws ApkError (INVALID_APK) instead of returning garbage or throwing
 * a RangeError: the binary formats we read (AXML, resources.arsc, the signing block, ELF) are full
 * of length fields that a damaged or hostile file can set to anything.
 */
export class ByteView {
  constructor(
    readonly buf: Buffer,
    readonly what: string,
    readonly start = 0,
    readonly end = buf.length,
  ) {
    check(
      start >= 0 && end <= buf.length && start <= end,
      `${what}: window [${start}, ${end}) outside ${buf.length} bytes`,
    );
  }

  get length(): number {
    return this.end - this.start;
  }

  private at(off: number, n: number): number {
    const abs = this.start + off;
    // Hot path: build the message only on failure.
    if (!(off >= 0 && abs + n <= this.end && Number.isSafeInteger(off))) {
      throw new ApkError(`${this.what}: read of ${n} bytes at offset ${off} is out of bounds (size ${this.length})`);
    }
    return abs;
  }

  u8(off: number): number {
    return this.buf.readUInt8(this.at(off, 1));
  }
  u16(off: number): number {
    return this.buf.readUInt16LE(this.at(off, 2));
  }
  u32(off: number): number {
    return this.buf.readUInt32LE(this.at(off, 4));
  }
  /** u64 as a JS number; values above 2^53 are rejected as corrupt (no real length is that big). */
  u64(off: number): number {
    const v = this.buf.readBigUInt64LE(this.at(off, 8));
    check(v <= BigInt(Number.MAX_SAFE_INTEGER), `${this.what}: 64-bit value at offset ${off} is implausibly large`);
    return Number(v);
  }
  bytes(off: number, n: number): Buffer {
    const abs = this.at(off, n);
    return this.buf.subarray(abs, abs + n);
  }
  /** A child view of [off, off+n) relative to this view. */
  sub(off: number, n: number, what = this.what): ByteView {
    const abs = this.at(off, n);
    return new ByteView(this.buf, what, abs, abs + n);
  }
}
