/**
 * Verifies APK Signature Scheme v2, v3 and v3.1 signers as Android's `ApkSignatureSchemeV2Verifier`
 * / `V3Verifier` and apksigner do, with node:crypto:
 *
 * 1. every signature with an algorithm we know verifies over the signed data with the signer's
 *    public key (RSA PKCS#1 v1.5 / PSS, ECDSA, DSA, per the algorithm id), and at least one is known;
 * 2. the algorithm ids of the signatures and of the signed digests are the same list;
 * 3. the first certificate's public key is the signer's public key;
 * 4. v3/v3.1: the SDK range inside the signed data equals the signer's;
 * 5. every content digest named by a verified signature equals the digest of the APK's contents
 *    (./content-digest.ts), computed once per kind;
 * 6. stripping protection: a v2 signer that says a v3 block was there, or a v3 signer that says a
 *    v3.1 block was there, fails when that block is gone.
 *
 * Stricter than the platform in one respect, like apksigner: every scheme present must verify
 * (Android looks only at the newest), so a damaged v2 block next to a good v3 one is refused too.
 * Zip64 APKs cannot carry these signatures (Android refuses them), so a block in one is refused.
 */
import { createPublicKey, verify, X509Certificate, constants, type KeyObject } from 'node:crypto';
import { contentDigest, type ContentDigestKind, type DigestedContent } from './content-digest.js';
import type { ParsedSigner, SigningBlock } from './signing-block.js';
import type { ApkZip } from './zip.js';

type Algorithm = { hash: 'sha256' | 'sha512'; key: 'rsa-pss' | 'rsa' | 'ec' | 'dsa'; content: ContentDigestKind };

/** Signature algorithm ids of the v2 scheme (shared by v3), as listed in apksig's SignatureAlgorithm. */
export const SIGNATURE_ALGORITHMS: ReadonlyMap<number, Algorithm> = new Map([
  [0x0101, { hash: 'sha256', key: 'rsa-pss', content: 'chunked-sha256' }],
  [0x0102, { hash: 'sha512', key: 'rsa-pss', content: 'chunked-sha512' }],
  [0x0103, { hash: 'sha256', key: 'rsa', content: 'chunked-sha256' }],
  [0x0104, { hash: 'sha512', key: 'rsa', content: 'chunked-sha512' }],
  [0x0201, { hash: 'sha256', key: 'ec', content: 'chunked-sha256' }],
  [0x0202, { hash: 'sha512', key: 'ec', content: 'chunked-sha512' }],
  [0x0301, { hash: 'sha256', key: 'dsa', content: 'chunked-sha256' }],
  [0x0421, { hash: 'sha256', key: 'rsa', content: 'verity-sha256' }],
  [0x0423, { hash: 'sha256', key: 'ec', content: 'verity-sha256' }],
  [0x0425, { hash: 'sha256', key: 'dsa', content: 'verity-sha256' }],
]);

/** v2 attribute: the highest scheme id the signer also produced (3 = v3). */
const STRIPPING_PROTECTION_ID = 0xbeeff00d;
/** v3 attribute: the SDK from which a v3.1 block (rotation) applies; its presence means v3.1 existed. */
const ROTATION_MIN_SDK_ID = 0x559f8b02;

const hex = (n: number): string => `0x${n.toString(16).padStart(4, '0')}`;

/** Returns the problems found; an empty list means every signer of every scheme verified. */
export async function verifySigningBlock(zip: ApkZip, block: SigningBlock): Promise<string[]> {
  const problems = [...block.problems];
  if (zip.zip64)
    return [...problems, 'the APK is a zip64 archive, which cannot carry v2+ signatures (Android refuses it)'];
  const content = await digestedContent(zip, block);
  if (typeof content === 'string') return [...problems, content];
  const cache = new Map<ContentDigestKind, Promise<Buffer>>();
  const digestOf = (kind: ContentDigestKind): Promise<Buffer> => {
    let d = cache.get(kind);
    if (!d) cache.set(kind, (d = contentDigest(content, kind)));
    return d;
  };
  for (const [i, s] of block.signers.entries()) {
    const where = `${s.scheme} signer ${i + 1}`;
    for (const p of await verifySigner(s, digestOf)) problems.push(`${where}: ${p}`);
  }
  const has = (s: SigningBlock['schemes'][number]) => block.schemes.includes(s);
  for (const s of block.signers) {
    const strip = s.attributes.find((a) => a.id === STRIPPING_PROTECTION_ID);
    if (s.scheme === 'v2' && strip && strip.value.length >= 4 && strip.value.readUInt32LE(0) === 3 && !has('v3')) {
      problems.push(
        'the v2 signer says the APK was also signed with v3, but there is no v3 block (signature stripped)',
      );
    }
    if (s.scheme === 'v3' && s.attributes.some((a) => a.id === ROTATION_MIN_SDK_ID) && !has('v3.1')) {
      problems.push('the v3 signer says the APK also had a v3.1 block, but there is none (signature stripped)');
    }
  }
  return [...new Set(problems)];
}

async function digestedContent(zip: ApkZip, block: SigningBlock): Promise<DigestedContent | string> {
  // The central directory must run right up to the EOCD record: bytes in between would be
  // covered by no digest. The EOCD is at most 22 + 65535 bytes from the end.
  const cdEnd = zip.centralDirectoryOffset + zip.centralDirectorySize;
  if (cdEnd !== zip.eocdOffset)
    return `the central directory ends at ${cdEnd}, not at the end-of-central-directory record (${zip.eocdOffset})`;
  const eocd = await zip.readRange(zip.eocdOffset, zip.size - zip.eocdOffset);
  eocd.writeUInt32LE(block.offset, 16);
  return {
    zip,
    signingBlockOffset: block.offset,
    centralDirectoryOffset: zip.centralDirectoryOffset,
    eocdOffset: zip.eocdOffset,
    eocd,
  };
}

async function verifySigner(s: ParsedSigner, digestOf: (k: ContentDigestKind) => Promise<Buffer>): Promise<string[]> {
  const problems: string[] = [];
  if (s.signatures.length === 0) return ['no signatures'];
  if (s.certificates.length === 0) return ['no certificates'];
  let key: KeyObject;
  try {
    key = createPublicKey({ key: s.publicKey, format: 'der', type: 'spki' });
  } catch (err) {
    return [`public key is unreadable (${(err as Error).message})`];
  }
  const known = s.signatures.filter((x) => SIGNATURE_ALGORITHMS.has(x.algorithm));
  if (known.length === 0)
    return [`no signature uses a known algorithm (${s.signatures.map((x) => hex(x.algorithm)).join(', ')})`];
  const verified: Algorithm[] = [];
  for (const sig of known) {
    const alg = SIGNATURE_ALGORITHMS.get(sig.algorithm)!;
    if (keyTypeOf(key) !== alg.key.replace('-pss', '')) {
      problems.push(`signature ${hex(sig.algorithm)} needs a ${alg.key} key, the signer's is ${key.asymmetricKeyType}`);
      continue;
    }
    let ok = false;
    try {
      const opts =
        alg.key === 'rsa-pss'
          ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: alg.hash === 'sha256' ? 32 : 64 }
          : alg.key === 'rsa'
            ? { key, padding: constants.RSA_PKCS1_PADDING }
            : key;
      ok = verify(alg.hash, s.signedData, opts, sig.signature);
    } catch {
      ok = false; // a malformed signature (bad DER, wrong length) is a failed one
    }
    if (ok) verified.push(alg);
    else problems.push(`signature ${hex(sig.algorithm)} does not verify with the signer's public key`);
  }
  const sigIds = s.signatures.map((x) => x.algorithm).join(',');
  const digestIds = s.digests.map((x) => x.algorithm).join(',');
  if (sigIds !== digestIds)
    problems.push(`signed digests (${digestIds}) and signatures (${sigIds}) name different algorithms`);
  try {
    const certKey = new X509Certificate(s.certificates[0]!).publicKey.export({ type: 'spki', format: 'der' });
    if (!certKey.equals(key.export({ type: 'spki', format: 'der' })))
      problems.push("the signing certificate's public key is not the signer's public key");
  } catch (err) {
    problems.push(`the signing certificate is unreadable (${(err as Error).message})`);
  }
  if (s.sdk && (s.sdk.signed[0] !== s.sdk.outer[0] || s.sdk.signed[1] !== s.sdk.outer[1])) {
    problems.push(`SDK range ${s.sdk.outer.join('-')} differs from the signed ${s.sdk.signed.join('-')}`);
  }
  if (problems.length) return problems;
  for (const kind of new Set(verified.map((a) => a.content))) {
    const ids = [...SIGNATURE_ALGORITHMS].filter(([, a]) => a.content === kind).map(([id]) => id);
    for (const d of s.digests.filter((x) => ids.includes(x.algorithm))) {
      if (!(await digestOf(kind)).equals(d.digest))
        problems.push(
          `the ${kind} digest of the APK's contents does not match the signed one: the APK was modified after signing`,
        );
    }
  }
  return problems;
}

function keyTypeOf(key: KeyObject): string {
  const t = key.asymmetricKeyType;
  return t === 'rsa-pss' ? 'rsa' : (t ?? '?');
}
