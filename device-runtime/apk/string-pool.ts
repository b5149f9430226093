/**
 * The ResStringPool chunk shared by binary XML and resources.arsc (AOSP
 * `frameworks/base/libs/androidfw/ResourceTypes.cpp`). Strings are decoded lazily and cached,
 * because resources.arsc pools hold tens of thousands of strings and we need only a handful.
 */
import { ApkError, check } from './apk-error.js';
import type { ByteView } from './bytes.js';

const UTF8_FLAG = 0x100;
/** No legitimate pool holds more strings than this; keeps the offset table allocation bounded. */
const MAX_STRINGS = 4_000_000;

export class StringPool {
  private readonly cache = new Map<number, string>();
  private readonly utf8: boolean;
  readonly count: number;
  private readonly offsetsAt: number;
  private readonly stringsAt: number;

  /** `chunk` is the whole string pool chunk, starting at its ResChunk_header. */
  constructor(private readonly chunk: ByteView) {
    const headerSize = chunk.u16(2);
    check(headerSize >= 28, `${chunk.what}: string pool header too small (${headerSize})`);
    this.count = chunk.u32(8);
    const flags = chunk.u32(16);
    const stringsStart = chunk.u32(20);
    check(this.count <= MAX_STRINGS, `${chunk.what}: string pool claims ${this.count} strings`);
    check(headerSize + this.count * 4 <= chunk.length, `${chunk.what}: string offset table out of bounds`);
    check(this.count === 0 || stringsStart < chunk.length, `${chunk.what}: string data offset out of bounds`);
    this.utf8 = (flags & UTF8_FLAG) !== 0;
    this.offsetsAt = headerSize;
    this.stringsAt = stringsStart;
  }

  /** The string at `index`, or null for the "no string" index 0xFFFFFFFF. Throws ApkError when corrupt. */
  get(index: number): string | null {
    if (index === 0xffffffff) return null;
    if (index >= this.count)
      throw new ApkError(`${this.chunk.what}: string index ${index} out of range (${this.count} strings)`);
    const hit = this.cache.get(index);
    if (hit !== undefined) return hit;
    const at = this.stringsAt + this.chunk.u32(this.offsetsAt + index * 4);
    const s = this.utf8 ? this.decodeUtf8(at) : this.decodeUtf16(at);
    this.cache.set(index, s);
    return s;
  }

  private decodeUtf8(at: number): string {
    const c = this.chunk;
    // Two lengths: UTF-16 length (ignored), then UTF-8 byte length; each 1 or 2 bytes.
    let p = at;
    p += c.u8(p) & 0x80 ? 2 : 1;
    let len = c.u8(p);
    if (len & 0x80) {
      len = ((len & 0x7f) << 8) | c.u8(p + 1);
      p += 2;
    } else p += 1;
    return c.bytes(p, len).toString('utf8');
  }

  private decodeUtf16(at: number): string {
    const c = this.chunk;
    let p = at;
    let len = c.u16(p);
    if (len & 0x8000) {
      len = ((len & 0x7fff) << 16) | c.u16(p + 2);
      p += 4;
    } else p += 2;
    return c.bytes(p, len * 2).toString('utf16le');
  }
}
