/**
 * The APK Signing Block (v2/v3/v3.1 schemes, https://source.android.com/docs/security/features/apksigning/v2):
 * it sits right before the zip central directory and ends with the magic "APK Sig Block 42".
 * No maintained npm library reads it (apksigner is Java), so we do, with every length checked.
 *
 * This file only parses: each signer's signed data (kept as raw bytes, since that is what the
 * signature covers), digests, certificates, SDK range, attributes, signatures and public key.
 * `./signature-scheme-verify.ts` checks them.
 */
import { createHash } from 'node:crypto';
import { ApkError, check } from './apk-error.js';
import { ByteView } from './bytes.js';
import type { ApkZip } from './zip.js';
import type { Signer } from './model.js';

const MAGIC = Buffer.from('APK Sig Block 42', 'latin1');
export const SCHEME_IDS = { v2: 0x7109871a, v3: 0xf05368c0, 'v3.1': 0x1b93ad61 } as const;
export type BlockScheme = keyof typeof SCHEME_IDS;
/** v3 additional attribute: the proof-of-rotation lineage. */
const PROOF_OF_ROTATION_ID = 0x3ba06f8c;
/** Real blocks are a few KB (a few hundred KB with source stamps); cap what we are willing to read. */
const MAX_BLOCK = 16 * 1024 * 1024;

export type ParsedSigner = {
  scheme: BlockScheme;
  /** The signed data's contents (without its length prefix): the bytes every signature covers. */
  signedData: Buffer;
  digests: Array<{ algorithm: number; digest: Buffer }>;
  /** DER X.509 certificates, signing certificate first. */
  certificates: Buffer[];
  /** v3/v3.1 only: the SDK range as the signed data states it, and as the signer states it. */
  sdk: { signed: [number, number]; outer: [number, number] } | null;
  attributes: Array<{ id: number; value: Buffer }>;
  signatures: Array<{ algorithm: number; signature: Buffer }>;
  /** SubjectPublicKeyInfo DER. */
  publicKey: Buffer;
  lineageSha256: string[];
};

export type SigningBlock = {
  /** File offset of the block (its first size field): section 1 of the digested content ends here. */
  offset: number;
  centralDirectoryOffset: number;
  /** Schemes whose pair is present, even when a pair held no readable signer. */
  schemes: BlockScheme[];
  signers: ParsedSigner[];
  /** Why a present scheme's pair could not be read (it then counts as an invalid signature). */
  problems: string[];
};

/** Offset of the central directory (found by ApkZip via the EOCD record, zip64 included). */
export function centralDirectoryOffset(zip: ApkZip): number {
  return zip.centralDirectoryOffset;
}

/** The parsed block, or null when the APK has none. Throws ApkError when the block's framing is broken. */
export async function readSigningBlock(zip: ApkZip): Promise<SigningBlock | null> {
  const cd = zip.centralDirectoryOffset;
  if (cd < 32) return null; // no room for a block
  const footer = await zip.readRange(cd - 24, 24);
  if (!footer.subarray(8).equals(MAGIC)) return null;
  const sizeInFooter = Number(footer.readBigUInt64LE(0));
  check(
    sizeInFooter >= 24 && sizeInFooter <= MAX_BLOCK && sizeInFooter + 8 <= cd,
    `APK signing block size ${sizeInFooter} is invalid`,
  );
  const offset = cd - sizeInFooter - 8;
  const block = new ByteView(await zip.readRange(offset, sizeInFooter + 8), 'APK signing block');
  check(block.u64(0) === sizeInFooter, 'APK signing block: header and footer sizes differ');

  const out: SigningBlock = { offset, centralDirectoryOffset: cd, schemes: [], signers: [], problems: [] };
  let p = 8;
  const pairsEnd = block.length - 24;
  while (p < pairsEnd) {
    const len = block.u64(p);
    check(len >= 4 && p + 8 + len <= pairsEnd, `APK signing block: pair at ${p} has bad length ${len}`);
    const id = block.u32(p + 8);
    const scheme = (Object.keys(SCHEME_IDS) as BlockScheme[]).find((s) => SCHEME_IDS[s] === id);
    if (scheme) {
      check(!out.schemes.includes(scheme), `APK signing block: two ${scheme} blocks`);
      out.schemes.push(scheme);
      try {
        const signers = schemeSigners(block.sub(p + 12, len - 4), scheme);
        if (signers.length === 0) out.problems.push(`${scheme}: no signers`);
        out.signers.push(...signers);
      } catch (err) {
        // A present but unreadable scheme block is a broken signature, not an unreadable zip: the
        // platform refuses such an APK as unsigned/tampered, and so does preflight (SIGNATURE_INVALID).
        if (!(err instanceof ApkError)) throw err;
        out.problems.push(`${scheme}: ${err.reason}`);
      }
    }
    p += 8 + len;
  }
  return out;
}

/** The model's view of the signers: scheme, certificate digests, lineage. */
export function modelSigners(block: SigningBlock | null): Signer[] {
  return (block?.signers ?? []).map((s) => ({
    scheme: s.scheme,
    certSha256: s.certificates.map(sha256),
    lineageSha256: s.lineageSha256,
  }));
}

/** A u32-length-prefixed sequence of u32-length-prefixed items. */
function lengthPrefixedItems(v: ByteView): ByteView[] {
  const items: ByteView[] = [];
  let p = 0;
  while (p < v.length) {
    const len = v.u32(p);
    items.push(v.sub(p + 4, len));
    p += 4 + len;
    check(items.length <= 1024, `${v.what}: too many items`);
  }
  return items;
}
function prefixed(v: ByteView, at: number): ByteView {
  return v.sub(at + 4, v.u32(at));
}
/** (u32 id, u32-length-prefixed bytes) records: digests and signatures. */
function idAndBytes(v: ByteView, what: string): { id: number; bytes: Buffer } {
  check(v.length >= 8, `${what} record too short`);
  const inner = prefixed(v, 4);
  check(4 + 4 + inner.length === v.length, `${what} record has trailing bytes`);
  return { id: v.u32(0), bytes: inner.bytes(0, inner.length) };
}

function schemeSigners(value: ByteView, scheme: BlockScheme): ParsedSigner[] {
  const v3 = scheme !== 'v2';
  return lengthPrefixedItems(prefixed(value, 0)).map((signer) => {
    const signedData = prefixed(signer, 0);
    let q = 0;
    const digestsV = prefixed(signedData, q);
    q += 4 + digestsV.length;
    const certsV = prefixed(signedData, q);
    q += 4 + certsV.length;
    let signedSdk: [number, number] = [0, 0];
    if (v3) {
      signedSdk = [signedData.u32(q), signedData.u32(q + 4)];
      q += 8;
    }
    const attrsV = prefixed(signedData, q);
    const attributes = lengthPrefixedItems(attrsV).map((a) => {
      check(a.length >= 4, `${scheme} signer: additional attribute shorter than its id`);
      return { id: a.u32(0), value: a.bytes(4, a.length - 4) };
    });
    let r = 4 + signedData.length;
    let outerSdk: [number, number] = [0, 0];
    if (v3) {
      outerSdk = [signer.u32(r), signer.u32(r + 4)];
      r += 8;
    }
    const sigsV = prefixed(signer, r);
    r += 4 + sigsV.length;
    const publicKey = prefixed(signer, r);
    let lineageSha256: string[] = [];
    const por = attributes.find((a) => a.id === PROOF_OF_ROTATION_ID);
    if (v3 && por) lineageSha256 = lineage(new ByteView(por.value, 'APK signing block lineage'));
    return {
      scheme,
      signedData: signedData.bytes(0, signedData.length),
      digests: lengthPrefixedItems(digestsV)
        .map((d) => idAndBytes(d, `${scheme} digest`))
        .map((d) => ({ algorithm: d.id, digest: d.bytes })),
      certificates: lengthPrefixedItems(certsV).map((c) => c.bytes(0, c.length)),
      sdk: v3 ? { signed: signedSdk, outer: outerSdk } : null,
      attributes,
      signatures: lengthPrefixedItems(sigsV)
        .map((s) => idAndBytes(s, `${scheme} signature`))
        .map((s) => ({ algorithm: s.id, signature: s.bytes })),
      publicKey: publicKey.bytes(0, publicKey.length),
      lineageSha256,
    };
  });
}

/**
 * The v3 proof-of-rotation attribute: u32 version, then length-prefixed nodes, each starting with
 * length-prefixed signed data whose first field is the (length-prefixed) certificate of one past or
 * present signer, oldest first.
 */
function lineage(v: ByteView): string[] {
  const nodes = lengthPrefixedItems(v.sub(4, v.length - 4, 'APK signing block lineage'));
  return nodes.map((node) => {
    const cert = prefixed(prefixed(node, 0), 0);
    return sha256(cert.bytes(0, cert.length));
  });
}

export function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}
