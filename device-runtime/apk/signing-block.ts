/**
 * The APK Signing Block (v2/v3/v3.1 schemes, https://source.android.com/docs/security/features/apksigning/v2):
 * it sits right before the zip central directory and ends with the magic "APK Sig Block 42".
 * No maintained npm library reads it (apksigner is Java), so we do, with every length checked.
 * We extract the certificates of each signer and hash them; signatures are not verified here.
 */
import { createHash } from 'node:crypto';
import { check } from './apk-error.js';
import { ByteView } from './bytes.js';
import type { ApkZip } from './zip.js';
import type { Signer } from './model.js';

const MAGIC = Buffer.from('APK Sig Block 42', 'latin1');
const V2_ID = 0x7109871a;
const V3_ID = 0xf05368c0;
const V31_ID = 0x1b93ad61;
const PROOF_OF_ROTATION_ID = 0x3ba06f8c;
/** Real blocks are a few KB (a few hundred KB with source stamps); cap what we are willing to read. */
const MAX_BLOCK = 16 * 1024 * 1024;

/** Offset of the central directory (found by ApkZip via the EOCD record, zip64 included). */
export function centralDirectoryOffset(zip: ApkZip): number {
  return zip.centralDirectoryOffset;
}

/** Signers from the signing block; an empty list when the APK has no signing block. */
export async function readSigningBlock(zip: ApkZip): Promise<Signer[]> {
  const cd = zip.centralDirectoryOffset;
  if (cd < 32) return []; // no room for a block
  const footer = await zip.readRange(cd - 24, 24);
  if (!footer.subarray(8).equals(MAGIC)) return [];
  const sizeInFooter = Number(footer.readBigUInt64LE(0));
  check(sizeInFooter >= 24 && sizeInFooter <= MAX_BLOCK && sizeInFooter + 8 <= cd, `APK signing block size ${sizeInFooter} is invalid`);
  const block = new ByteView(await zip.readRange(cd - sizeInFooter - 8, sizeInFooter + 8), 'APK signing block');
  check(block.u64(0) === sizeInFooter, 'APK signing block: header and footer sizes differ');

  const signers: Signer[] = [];
  let p = 8;
  const pairsEnd = block.length - 24;
  while (p < pairsEnd) {
    const len = block.u64(p);
    check(len >= 4 && p + 8 + len <= pairsEnd, `APK signing block: pair at ${p} has bad length ${len}`);
    const id = block.u32(p + 8);
    const value = block.sub(p + 12, len - 4);
    if (id === V2_ID) signers.push(...schemeSigners(value, 'v2'));
    else if (id === V3_ID) signers.push(...schemeSigners(value, 'v3'));
    else if (id === V31_ID) signers.push(...schemeSigners(value, 'v3.1'));
    p += 8 + len;
  }
  return signers;
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

function schemeSigners(value: ByteView, scheme: Signer['scheme']): Signer[] {
  const signers = lengthPrefixedItems(prefixed(value, 0));
  return signers.map((signer) => {
    // signer = signed data, (v3: min/max sdk,) signatures, public key — we need only signed data:
    // digests, certificates, (v3: min/max sdk,) additional attributes.
    const signedData = prefixed(signer, 0);
    const digests = prefixed(signedData, 0);
    const certsAt = 4 + digests.length;
    const certList = prefixed(signedData, certsAt);
    const certs = lengthPrefixedItems(certList);
    let lineageSha256: string[] = [];
    if (scheme !== 'v2') {
      const attrsAt = certsAt + 4 + certList.length + 8;
      if (attrsAt + 4 <= signedData.length) {
        for (const attr of lengthPrefixedItems(prefixed(signedData, attrsAt))) {
          if (attr.length >= 4 && attr.u32(0) === PROOF_OF_ROTATION_ID) lineageSha256 = lineage(attr.sub(4, attr.length - 4));
        }
      }
    }
    return { scheme, certSha256: certs.map(sha256), lineageSha256 };
  });
}

/**
 * The v3 proof-of-rotation attribute: u32 version, then length-prefixed nodes, each starting with
 * length-prefixed signed data whose first field is the (length-prefixed) certificate of one past or
 * present signer, oldest first.
 */
function lineage(v: ByteView): string[] {
  const nodes = lengthPrefixedItems(v.sub(4, v.length - 4, 'APK signing block lineage'));
  return nodes.map((node) => sha256(prefixed(prefixed(node, 0), 0)));
}

function sha256(v: ByteView): string {
  return createHash('sha256').update(v.bytes(0, v.length)).digest('hex');
}
