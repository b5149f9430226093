/**
 * resources.arsc reader: just enough of the resource table to resolve a reference
 * (`@string/app_name` = 0x7f0b0001) to its value, the way the manifest label needs it.
 *
 * Why our own reader: no maintained npm package parses resources.arsc with bounds checks (the
 * readers inside `adbkit-apkreader`/`app-info-parser` are unmaintained and trust every offset, and
 * do not understand sparse or 16-bit-offset type chunks that aapt2 emits since Android 8/14).
 * Follows AOSP `ResourceTypes.h`. Indexing is lazy: we record where each type chunk is and decode
 * an entry only when asked, so a 60 MB table costs one pass over chunk headers.
 */
import { check } from './apk-error.js';
import { ByteView } from './bytes.js';
import { StringPool } from './string-pool.js';

const RES_TABLE_TYPE = 0x0002;
const RES_STRING_POOL_TYPE = 0x0001;
const RES_TABLE_PACKAGE_TYPE = 0x0200;
const RES_TABLE_TYPE_TYPE = 0x0201;
const FLAG_SPARSE = 0x01;
const FLAG_OFFSET16 = 0x02;
const ENTRY_FLAG_COMPLEX = 0x0001;
const ENTRY_FLAG_COMPACT = 0x0008;
/** Real tables have a few thousand type chunks (types × configurations); this bounds the index's memory. */
const MAX_TYPE_CHUNKS = 262_144;

type TypeChunk = {
  view: ByteView;
  headerSize: number;
  flags: number;
  entryCount: number;
  entriesStart: number;
  config: Buffer;
};

export type ResValue = { dataType: number; data: number };

export class ResourceTable {
  /** package id → type id → type chunks (one per configuration). */
  private readonly packages = new Map<number, Map<number, TypeChunk[]>>();
  private readonly strings: StringPool | null;
  private typeChunks = 0;

  constructor(buf: Buffer) {
    const t = new ByteView(buf, 'resources.arsc');
    check(t.length >= 12 && t.u16(0) === RES_TABLE_TYPE, 'resources.arsc: not a resource table');
    const tableSize = Math.min(t.u32(4), t.length);
    let strings: StringPool | null = null;
    let off = t.u16(2);
    while (off + 8 <= tableSize) {
      const { type, headerSize, size } = chunkHeader(t, off, tableSize);
      if (type === RES_STRING_POOL_TYPE && strings === null)
        strings = new StringPool(t.sub(off, size, 'resources.arsc string pool'));
      else if (type === RES_TABLE_PACKAGE_TYPE)
        this.indexPackage(t.sub(off, size, 'resources.arsc package'), headerSize);
      off += size;
    }
    this.strings = strings;
  }

  private indexPackage(p: ByteView, headerSize: number): void {
    const id = p.u32(8);
    const types = this.packages.get(id) ?? new Map<number, TypeChunk[]>();
    this.packages.set(id, types);
    let off = headerSize;
    while (off + 8 <= p.length) {
      const { type, headerSize: hs, size } = chunkHeader(p, off, p.length);
      if (type === RES_TABLE_TYPE_TYPE) {
        check(++this.typeChunks <= MAX_TYPE_CHUNKS, `resources.arsc: more than ${MAX_TYPE_CHUNKS} type chunks`);
        const v = p.sub(off, size, 'resources.arsc type chunk');
        const typeId = v.u8(8);
        const configSize = v.u32(20);
        check(configSize >= 4 && 20 + configSize <= hs, 'resources.arsc: bad ResTable_config size');
        const tc: TypeChunk = {
          view: v,
          headerSize: hs,
          flags: v.u8(9),
          entryCount: v.u32(12),
          entriesStart: v.u32(16),
          config: v.bytes(20, configSize),
        };
        const list = types.get(typeId) ?? [];
        list.push(tc);
        types.set(typeId, list);
      }
      off += size;
    }
  }

  /**
   * Resolves a resource id to a string, following references (bounded depth). Null if absent or
   * not a string. `language` (two letters, e.g. "fr") prefers that locale's value when present.
   */
  resolveString(id: number, language?: string): string | null {
    let cur = id;
    for (let depth = 0; depth < 8; depth++) {
      const v = this.value(cur, language);
      if (!v) return null;
      if (v.dataType === 0x03) return this.strings?.get(v.data) ?? null;
      if (v.dataType !== 0x01) return null;
      cur = v.data;
    }
    return null;
  }

  /** The value of a simple entry, preferring `language` (if given), then the default configuration, then English, then any. */
  value(id: number, language?: string): ResValue | null {
    const types = this.packages.get(id >>> 24)?.get((id >>> 16) & 0xff);
    if (!types) return null;
    const entry = id & 0xffff;
    let best: ResValue | null = null;
    let bestRank = 99;
    for (const tc of types) {
      const rank = configRank(tc.config, language);
      if (rank >= bestRank) continue;
      const v = readEntry(tc, entry);
      if (v) {
        best = v;
        bestRank = rank;
      }
    }
    return best;
  }
}

function chunkHeader(v: ByteView, off: number, limit: number): { type: number; headerSize: number; size: number } {
  const type = v.u16(off);
  const headerSize = v.u16(off + 2);
  const size = v.u32(off + 4);
  check(
    size >= 8 && headerSize >= 8 && headerSize <= size && off + size <= limit,
    `${v.what}: chunk at ${off} has bad size ${size}`,
  );
  return { type, headerSize, size };
}

/** 0 = only the preferred language, 1 = default config, 2 = only language "en", 3 = anything else. */
function configRank(config: Buffer, language?: string): number {
  const rest = config.subarray(4);
  if (rest.every((b) => b === 0)) return 1;
  const lang = config.length >= 10 ? config.subarray(8, 10).toString('latin1') : '';
  const others = Buffer.concat([rest.subarray(0, 4), rest.subarray(6)]);
  if (!others.every((b) => b === 0)) return 3;
  if (language && lang === language) return 0;
  return lang === 'en' ? 2 : 3;
}

function readEntry(tc: TypeChunk, index: number): ResValue | null {
  const v = tc.view;
  const offsets = tc.headerSize;
  let entryOff: number | null = null;
  if (tc.flags & FLAG_SPARSE) {
    // Sorted (u16 index, u16 offset/4) pairs: binary search.
    let lo = 0;
    let hi = tc.entryCount - 1;
    check(offsets + tc.entryCount * 4 <= v.length, 'resources.arsc: sparse entry table out of bounds');
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const idx = v.u16(offsets + mid * 4);
      if (idx === index) {
        entryOff = v.u16(offsets + mid * 4 + 2) * 4;
        break;
      }
      if (idx < index) lo = mid + 1;
      else hi = mid - 1;
    }
  } else {
    if (index >= tc.entryCount) return null;
    if (tc.flags & FLAG_OFFSET16) {
      const o = v.u16(offsets + index * 2);
      entryOff = o === 0xffff ? null : o * 4;
    } else {
      const o = v.u32(offsets + index * 4);
      entryOff = o === 0xffffffff ? null : o;
    }
  }
  if (entryOff === null) return null;
  const e = tc.entriesStart + entryOff;
  const size = v.u16(e);
  const flags = v.u16(e + 2);
  if (flags & ENTRY_FLAG_COMPACT) return { dataType: flags >>> 8, data: v.u32(e + 4) };
  if (flags & ENTRY_FLAG_COMPLEX) return null; // bags (styles, plurals) are not strings
  // Res_value follows the entry header: u16 size, u8 res0, u8 dataType, u32 data.
  return { dataType: v.u8(e + size + 3), data: v.u32(e + size + 4) };
}
