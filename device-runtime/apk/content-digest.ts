/**
 * The content digests of APK Signature Scheme v2/v3 (https://source.android.com/docs/security/features/apksigning/v2#integrity-protected-contents):
 * the file is seen as three sections — zip entries (everything before the signing block), the
 * central directory, and the End of Central Directory record with its central-directory offset
 * replaced by the signing block's offset — and digested in one of two ways:
 *
 * - chunked (algorithms 0x0101–0x0301): each section is cut into 1 MiB chunks; each chunk digest is
 *   H(0xa5 ‖ u32le length ‖ chunk); the content digest is H(0x5a ‖ u32le chunk count ‖ chunk digests…);
 * - verity (0x0421, 0x0423, 0x0425): the root of a SHA-256 Merkle tree over 4 KiB blocks (the
 *   fs-verity layout with an 8-byte zero salt), followed by the digested length as u64le.
 *
 * Cost: one sequential read of the file (8 MiB at a time) per algorithm, hashing at node:crypto's
 * native speed. Both digests of one APK are computed at most once (the caller caches).
 */
import { createHash } from 'node:crypto';
import type { ApkZip } from './zip.js';

export type ContentDigestKind = 'chunked-sha256' | 'chunked-sha512' | 'verity-sha256';

const CHUNK = 1024 * 1024;
const READ = 8 * CHUNK;
const BLOCK = 4096;

/** The bytes covered, as ranges of the file plus the rewritten EOCD record. */
export type DigestedContent = {
  zip: ApkZip;
  signingBlockOffset: number;
  centralDirectoryOffset: number;
  eocdOffset: number;
  eocd: Buffer;
};

/** Yields each section's data in pieces of at most `READ` bytes, cut on chunk boundaries. */
async function* sections(c: DigestedContent): AsyncGenerator<{ section: number; data: Buffer }> {
  const ranges: Array<[number, number]> = [
    [0, c.signingBlockOffset],
    [c.centralDirectoryOffset, c.eocdOffset],
  ];
  for (const [i, [start, end]] of ranges.entries()) {
    for (let p = start; p < end; p += READ)
      yield { section: i, data: await c.zip.readRange(p, Math.min(READ, end - p)) };
  }
  yield { section: 2, data: c.eocd };
}

export async function contentDigest(c: DigestedContent, kind: ContentDigestKind): Promise<Buffer> {
  return kind === 'verity-sha256' ? verityDigest(c) : chunkedDigest(c, kind === 'chunked-sha256' ? 'sha256' : 'sha512');
}

async function chunkedDigest(c: DigestedContent, hash: 'sha256' | 'sha512'): Promise<Buffer> {
  const digests: Buffer[] = [];
  const prefix = Buffer.alloc(5);
  prefix[0] = 0xa5;
  for await (const { data } of sections(c)) {
    for (let p = 0; p < data.length; p += CHUNK) {
      const chunk = data.subarray(p, Math.min(data.length, p + CHUNK));
      prefix.writeUInt32LE(chunk.length, 1);
      digests.push(createHash(hash).update(prefix).update(chunk).digest());
    }
  }
  const head = Buffer.alloc(5);
  head[0] = 0x5a;
  head.writeUInt32LE(digests.length, 1);
  const top = createHash(hash).update(head);
  for (const d of digests) top.update(d);
  return top.digest();
}

const SALT = Buffer.alloc(8);
const blockHash = (block: Buffer): Buffer => createHash('sha256').update(SALT).update(block).digest();

/** Hashes `data` in 4 KiB blocks (the last one zero-padded) into concatenated digests. */
function hashLevel(data: Buffer): Buffer {
  const out = Buffer.alloc(Math.ceil(data.length / BLOCK) * 32);
  for (let i = 0, o = 0; i < data.length; i += BLOCK, o += 32) {
    let block = data.subarray(i, i + BLOCK);
    if (block.length < BLOCK) block = Buffer.concat([block, Buffer.alloc(BLOCK - block.length)]);
    blockHash(block).copy(out, o);
  }
  return out;
}

async function verityDigest(c: DigestedContent): Promise<Buffer> {
  // Leaf level: the three sections as one stream of 4 KiB blocks (a block may span sections).
  const leaves: Buffer[] = [];
  let carry: Buffer = Buffer.alloc(0);
  let total = 0;
  for await (const { data } of sections(c)) {
    total += data.length;
    const joined = carry.length ? Buffer.concat([carry, data]) : data;
    const whole = joined.length - (joined.length % BLOCK);
    leaves.push(hashLevel(joined.subarray(0, whole)));
    carry = Buffer.from(joined.subarray(whole));
  }
  if (carry.length) leaves.push(hashLevel(carry));
  let level: Buffer = Buffer.concat(leaves);
  // Each level is zero-padded to whole blocks and hashed again until it fits in one block.
  while (level.length > BLOCK) level = hashLevel(level);
  const root = blockHash(Buffer.concat([level, Buffer.alloc(BLOCK - level.length)]));
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(total));
  return Buffer.concat([root, size]);
}
