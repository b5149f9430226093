/**
 * Deterministic tampering of real, signed APKs, the way an attacker (or a broken mirror) would do
 * it: keep the zip well-formed and every CRC right, so only signature verification can notice.
 * Each function takes the bytes of an APK and returns altered bytes; nothing is random.
 */
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { buildZip } from './zip-builder.js';

type Entry = {
  name: string;
  cd: number;
  local: number;
  method: number;
  compressedSize: number;
  nameLen: number;
  extraLen: number;
  commentLen: number;
};
export type ZipLayout = {
  cdOffset: number;
  cdSize: number;
  eocd: number;
  signingBlock: number | null;
  entries: Entry[];
};

export function layout(buf: Buffer): ZipLayout {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('tamper: no EOCD record');
  const cdOffset = buf.readUInt32LE(eocd + 16);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const entries: Entry[] = [];
  for (let p = cdOffset; p < cdOffset + cdSize;) {
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      cd: p,
      local: buf.readUInt32LE(p + 42),
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      nameLen,
      extraLen,
      commentLen,
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  const magic = buf.toString('latin1', cdOffset - 16, cdOffset) === 'APK Sig Block 42';
  const signingBlock = magic ? cdOffset - Number(buf.readBigUInt64LE(cdOffset - 24)) - 8 : null;
  return { cdOffset, cdSize, eocd, signingBlock, entries };
}

function dataStart(buf: Buffer, e: Entry): number {
  return e.local + 30 + buf.readUInt16LE(e.local + 26) + buf.readUInt16LE(e.local + 28);
}
function entry(l: ZipLayout, name: string): Entry {
  const e = l.entries.find((x) => x.name === name);
  if (!e) throw new Error(`tamper: no entry ${name}`);
  return e;
}

/** Flips one byte in the middle of a stored entry; `fixCrc` rewrites both CRC fields to match. */
export function tamperStoredEntry(apk: Buffer, name: string, fixCrc = true): Buffer {
  const out = Buffer.from(apk);
  const l = layout(out);
  const e = entry(l, name);
  if (e.method !== 0) throw new Error(`tamper: ${name} is not stored`);
  const start = dataStart(out, e);
  out[start + Math.floor(e.compressedSize / 2)]! ^= 0x01;
  if (fixCrc) {
    const crc = crc32(out.subarray(start, start + e.compressedSize));
    out.writeUInt32LE(crc, e.local + 14);
    out.writeUInt32LE(crc, e.cd + 16);
  }
  return out;
}

/**
 * Changes one byte of a deflated entry's content and re-deflates it, moving everything after it
 * and rewriting offsets, sizes and CRCs: a perfectly valid zip with the original signing block.
 */
export function tamperCompressedEntry(apk: Buffer, name: string): Buffer {
  const l = layout(apk);
  const target = entry(l, name);
  if (target.method !== 8) throw new Error(`tamper: ${name} is not deflated`);
  const content = Buffer.from(
    inflateRawSync(apk.subarray(dataStart(apk, target), dataStart(apk, target) + target.compressedSize)),
  );
  content[Math.floor(content.length / 2)]! ^= 0x01;
  const data = deflateRawSync(content, { level: 9 });
  const byLocal = [...l.entries].sort((a, b) => a.local - b.local);
  const zipEnd = l.signingBlock ?? l.cdOffset;
  const parts: Buffer[] = [];
  const newLocal = new Map<Entry, number>();
  let pos = 0;
  for (const [i, e] of byLocal.entries()) {
    const end = byLocal[i + 1]?.local ?? zipEnd;
    newLocal.set(e, pos);
    if (e !== target) {
      parts.push(apk.subarray(e.local, end));
      pos += end - e.local;
      continue;
    }
    const headerLen = 30 + apk.readUInt16LE(e.local + 26) + apk.readUInt16LE(e.local + 28);
    const header = Buffer.from(apk.subarray(e.local, e.local + headerLen));
    header.writeUInt16LE(header.readUInt16LE(6) & ~0x08, 6); // no data descriptor
    header.writeUInt32LE(crc32(content), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(content.length, 22);
    parts.push(header, data);
    pos += headerLen + data.length;
  }
  if (l.signingBlock !== null) {
    parts.push(apk.subarray(l.signingBlock, l.cdOffset));
    pos += l.cdOffset - l.signingBlock;
  }
  const cd = Buffer.from(apk.subarray(l.cdOffset, l.cdOffset + l.cdSize));
  for (const e of l.entries) {
    const at = e.cd - l.cdOffset;
    cd.writeUInt32LE(newLocal.get(e)!, at + 42);
    if (e === target) {
      cd.writeUInt16LE(cd.readUInt16LE(at + 8) & ~0x08, at + 8);
      cd.writeUInt32LE(crc32(content), at + 16);
      cd.writeUInt32LE(data.length, at + 20);
      cd.writeUInt32LE(content.length, at + 24);
    }
  }
  const eocd = Buffer.from(apk.subarray(l.eocd));
  eocd.writeUInt32LE(pos, 16);
  return Buffer.concat([...parts, cd, eocd]);
}

/** Flips one byte of the first v2 signer's first signed digest (inside the signing block). */
export function tamperSigningBlock(apk: Buffer): Buffer {
  const out = Buffer.from(apk);
  const l = layout(out);
  if (l.signingBlock === null) throw new Error('tamper: no signing block');
  let p = l.signingBlock + 8;
  while (out.readUInt32LE(p + 8) !== 0x7109871a) p += 8 + Number(out.readBigUInt64LE(p));
  // pair value: signers len, signer len, signed data len, digests len, digest len, alg id, digest bytes len, digest…
  const digestAt = p + 12 + 4 * 7;
  out[digestAt + 3]! ^= 0x01;
  return out;
}

/** Changes the last-modified time of the first entry in the central directory only. */
export function tamperCentralDirectory(apk: Buffer): Buffer {
  const out = Buffer.from(apk);
  const l = layout(out);
  out.writeUInt16LE(out.readUInt16LE(l.cdOffset + 12) ^ 0x0021, l.cdOffset + 12);
  return out;
}

/** Removes the APK Signing Block (v2/v3), leaving only the v1 signature: a downgrade attack. */
export function stripSigningBlock(apk: Buffer): Buffer {
  const l = layout(apk);
  if (l.signingBlock === null) throw new Error('tamper: no signing block');
  const eocd = Buffer.from(apk.subarray(l.eocd));
  eocd.writeUInt32LE(l.signingBlock, 16);
  return Buffer.concat([apk.subarray(0, l.signingBlock), apk.subarray(l.cdOffset, l.eocd), eocd]);
}

/**
 * Byte ranges of an APK that no signature covers and Android does not read: the contents of
 * signing-block pairs other than v2/v3/v3.1 (their id and value) (apksigner's padding, source stamps). A change
 * confined to these is not tampering with anything that is installed.
 */
export function unprotectedRanges(apk: Buffer): Array<[number, number]> {
  let l: ZipLayout;
  try {
    l = layout(apk);
  } catch {
    return [];
  }
  if (l.signingBlock === null) return [];
  const out: Array<[number, number]> = [];
  const end = l.cdOffset - 24;
  for (let p = l.signingBlock + 8; p + 12 <= end;) {
    const len = Number(apk.readBigUInt64LE(p));
    const id = apk.readUInt32LE(p + 8);
    if (![0x7109871a, 0xf05368c0, 0x1b93ad61].includes(id)) out.push([p + 8, p + 8 + len]); // id and contents
    p += 8 + len;
  }
  return out;
}

/** The APK with its v1 signature files removed (and no signing block): ready to be signed again. */
export function withoutSignature(apk: Buffer): Buffer {
  const l = layout(apk);
  return buildZip(
    l.entries
      .filter((e) => !e.name.startsWith('META-INF/'))
      .map((e) => {
        const raw = apk.subarray(dataStart(apk, e), dataStart(apk, e) + e.compressedSize);
        return {
          name: e.name,
          data: e.method === 8 ? Buffer.from(inflateRawSync(raw)) : Buffer.from(raw),
          store: e.method === 0,
        };
      }),
  );
}

/** Every entry re-zipped (no signing block), with one byte of `name`'s content flipped at `at`. */
export function tamperEntryContent(apk: Buffer, name: string, at: number): Buffer {
  const l = layout(apk);
  return buildZip(
    l.entries.map((e) => {
      const raw = apk.subarray(dataStart(apk, e), dataStart(apk, e) + e.compressedSize);
      const data = e.method === 8 ? Buffer.from(inflateRawSync(raw)) : Buffer.from(raw);
      if (e.name === name) data[at]! ^= 0x01;
      return { name: e.name, data, store: e.method === 0 };
    }),
  );
}
