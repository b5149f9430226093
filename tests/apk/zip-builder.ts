/**
 * A tiny zip writer for tests: builds archives that real tools refuse to make — lying sizes,
 * `../` names, duplicate entries, zip bombs, entries sharing one record — so the readers'
 * defences can be exercised.
 */
import { constants, crc32 as zlibCrc32, deflateRawSync } from 'node:zlib';

/** Data already deflated: the raw stream, and the size and CRC-32 of what it inflates to. */
export type Deflated = { body: Buffer; size: number; crc: number };

export type ZipSpec = {
  name: string;
  data: Buffer;
  /** Deflate (default) or store. */
  store?: boolean;
  /** Override the uncompressed size written in the headers (to lie about it). */
  declaredSize?: number;
};

/**
 * What buildZip takes: an entry's bytes, or a deflate stream made beforehand, or no record of its
 * own — `sameDataAs` points the central directory at an earlier entry's local header and data,
 * the overlap of the "non-recursive zip bomb".
 */
export type ZipEntrySpec = ZipSpec | { name: string; deflated: Deflated } | { name: string; sameDataAs: string };

/**
 * A deflate stream of `mib` MiB of zeros, built without deflating them all: one 1 MiB block ended
 * by a full flush (byte-aligned, no back-references across it) repeated, then an empty final block.
 */
export function deflatedZeros(mib: number): Deflated {
  const MiB = 1024 * 1024;
  const zeros = Buffer.alloc(MiB);
  const block = deflateRawSync(zeros, { finishFlush: constants.Z_FULL_FLUSH });
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = zlibCrc32(zeros, crc);
  return { body: Buffer.concat([...Array<Buffer>(mib).fill(block), Buffer.from([0x03, 0x00])]), size: mib * MiB, crc };
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function encode(e: ZipSpec): Deflated & { method: number } {
  return {
    body: e.store ? e.data : deflateRawSync(e.data),
    size: e.declaredSize ?? e.data.length,
    crc: crc32(e.data),
    method: e.store ? 0 : 8,
  };
}

export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const records = new Map<string, { offset: number; method: number; crc: number; body: number; size: number }>();
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    let rec = 'sameDataAs' in e ? records.get(e.sameDataAs) : undefined;
    if ('sameDataAs' in e && !rec) throw new Error(`buildZip: no earlier entry ${e.sameDataAs}`);
    if (!rec) {
      const { body, size, crc, method } = 'deflated' in e ? { ...e.deflated, method: 8 } : encode(e as ZipSpec);
      const lh = Buffer.alloc(30);
      lh.writeUInt32LE(0x04034b50, 0);
      lh.writeUInt16LE(20, 4);
      lh.writeUInt16LE(method, 8);
      lh.writeUInt32LE(crc, 14);
      lh.writeUInt32LE(body.length, 18);
      lh.writeUInt32LE(size >>> 0, 22);
      lh.writeUInt16LE(name.length, 26);
      locals.push(lh, name, body);
      rec = { offset, method, crc, body: body.length, size };
      records.set(e.name, rec);
      offset += 30 + name.length + body.length;
    }
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(rec.method, 10);
    ch.writeUInt32LE(rec.crc, 16);
    ch.writeUInt32LE(rec.body, 20);
    ch.writeUInt32LE(rec.size >>> 0, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(rec.offset, 42);
    centrals.push(ch, name);
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}
