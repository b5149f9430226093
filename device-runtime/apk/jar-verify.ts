/**
 * v1 (JAR) signature verification, as Android's StrictJarVerifier does it for APKs that carry no
 * v2+ signature:
 *
 * 1. each `META-INF/X.RSA|DSA|EC` has its `META-INF/X.SF`, and its PKCS#7 signature over the `.SF`
 *    verifies (./jar-signature.ts);
 * 2. the `.SF` holds the digest of the whole MANIFEST.MF (`*-Digest-Manifest`), or else of its main
 *    section and of each entry section it names;
 * 3. every entry outside META-INF/ is named in MANIFEST.MF and in every `.SF`, and the digest of its
 *    contents equals the manifest's (strongest algorithm first, as Android picks);
 * 4. stripping protection: a `.SF` with `X-Android-APK-Signed: 2` (or 3) was signed together with a
 *    v2 (v3) signature; when that is gone the APK is refused.
 *
 * Cost: every entry is inflated once (with its CRC-32 checked, see ./zip.ts). Only v1-only APKs
 * pay it: with a v2+ block, the block's digests already cover every byte.
 */
import { createHash } from 'node:crypto';
import { ApkError } from './apk-error.js';
import { parseJarManifest, strongestDigest, type JarManifest } from './jar-manifest.js';
import { JAR_SIG_BLOCK, verifyPkcs7 } from './jar-signature.js';
import { isZipBomb } from './zip-bomb.js';
import type { ApkZip, ZipEntry } from './zip.js';

const MAX_META_BYTES = 16 * 1024 * 1024;
/** Largest entry we digest; bigger entries than this are not found in APKs that still use v1 only. */
const MAX_ENTRY_BYTES = 2 * 1024 * 1024 * 1024;

export async function verifyJarSignature(zip: ApkZip, presentSchemes: string[]): Promise<string[]> {
  const blocks = [...zip.entries.values()].filter((e) => JAR_SIG_BLOCK.test(e.fileName));
  const mfEntry = zip.get('META-INF/MANIFEST.MF');
  if (!mfEntry) return ['v1: META-INF/MANIFEST.MF is missing'];
  const problems: string[] = [];
  let manifest: JarManifest;
  let mfBytes: Buffer;
  const sfs: JarManifest[] = [];
  try {
    mfBytes = await zip.read(mfEntry, MAX_META_BYTES);
    manifest = parseJarManifest(mfBytes, 'META-INF/MANIFEST.MF');
    for (const b of blocks) {
      const sfName = b.fileName.replace(/\.(RSA|DSA|EC)$/i, '.SF');
      const sfEntry = zip.get(sfName);
      if (!sfEntry) {
        problems.push(`v1: ${b.fileName} has no ${sfName}`);
        continue;
      }
      const sfBytes = await zip.read(sfEntry, MAX_META_BYTES);
      problems.push(...verifyPkcs7(await zip.read(b, MAX_META_BYTES), sfBytes, b.fileName).map((p) => `v1: ${p}`));
      const sf = parseJarManifest(sfBytes, sfName);
      sfs.push(sf);
      problems.push(...checkSf(sf, sfName, manifest, mfBytes, presentSchemes).map((p) => `v1: ${p}`));
    }
  } catch (err) {
    if (err instanceof ApkError && !isZipBomb(err)) return [...problems, `v1: ${err.reason}`];
    throw err;
  }
  if (problems.length) return problems;
  const signed = [...zip.entries.values()].filter(
    (e) => !e.fileName.endsWith('/') && !e.fileName.startsWith('META-INF/'),
  );
  zip.reserve(signed, 'the entries a v1 signature covers', MAX_ENTRY_BYTES);
  for (const entry of signed) {
    const p = await checkEntry(zip, entry, manifest, sfs);
    if (p) problems.push(`v1: ${p}`);
    if (problems.length >= 5) break; // enough to say why; the rest is noise
  }
  return problems;
}

/** Schemes a `.SF` says were signed together with it (`X-Android-APK-Signed: 2, 3`) that are missing. */
function strippedSchemes(sf: JarManifest, sfName: string, present: string[]): string[] {
  const signedWith = (sf.main.attrs.get('x-android-apk-signed') ?? '').split(',').map((s) => s.trim());
  return (
    [
      ['2', 'v2'],
      ['3', 'v3'],
    ] as const
  )
    .filter(([id, scheme]) => signedWith.includes(id) && !present.includes(scheme))
    .map(
      ([, scheme]) =>
        `${sfName} says the APK was also signed with ${scheme}, but there is no ${scheme} signature (signature stripped)`,
    );
}

/**
 * With a v2+ block present, the v1 files are not verified (the block covers them), but their
 * `X-Android-APK-Signed` still tells which schemes the signer made: one of them missing from the
 * block means it was removed. Android only looks at this when it falls back to v1; apksigner and
 * we look at it always, so a v2 block stripped from next to a v3 one is caught too.
 */
export async function strippedFromBlock(zip: ApkZip, present: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const e of zip.entries.values()) {
    if (!/^META-INF\/[^/]+\.SF$/i.test(e.fileName)) continue;
    try {
      problems.push(
        ...strippedSchemes(parseJarManifest(await zip.read(e, MAX_META_BYTES), e.fileName), e.fileName, present),
      );
    } catch (err) {
      if (!(err instanceof ApkError) || isZipBomb(err)) throw err;
      problems.push(`v1: ${err.reason}`);
    }
  }
  return problems;
}

function checkSf(sf: JarManifest, sfName: string, mf: JarManifest, mfBytes: Buffer, present: string[]): string[] {
  const problems = strippedSchemes(sf, sfName, present);
  const digest = (hash: string, from: number, to: number): string =>
    createHash(hash).update(mfBytes.subarray(from, to)).digest('base64');
  const whole = strongestDigest(sf.main.attrs, '-digest-manifest');
  if (whole && whole[1] === digest(whole[0], 0, mfBytes.length)) return problems;
  const main = strongestDigest(sf.main.attrs, '-digest-manifest-main-attributes');
  if (main && main[1] !== digest(main[0], mf.main.start, mf.main.end))
    problems.push(`${sfName}: the digest of MANIFEST.MF's main section does not match`);
  for (const [name, section] of sf.entries) {
    const chunk = mf.entries.get(name);
    const d = strongestDigest(section.attrs, '-digest');
    if (!chunk || !d || d[1] !== digest(d[0], chunk.start, chunk.end))
      problems.push(`${sfName}: the digest of MANIFEST.MF's section for ${name} does not match`);
  }
  return problems;
}

async function checkEntry(zip: ApkZip, entry: ZipEntry, mf: JarManifest, sfs: JarManifest[]): Promise<string | null> {
  const name = entry.fileName;
  const section = mf.entries.get(name);
  const d = section && strongestDigest(section.attrs, '-digest');
  if (!d) return `${name} is not signed (no digest in MANIFEST.MF)`;
  if (sfs.some((sf) => !sf.entries.has(name))) return `${name} is not covered by every .SF file`;
  const h = createHash(d[0]);
  await zip.scan(entry, MAX_ENTRY_BYTES, (c) => {
    h.update(c);
  });
  return h.digest('base64') === d[1]
    ? null
    : `the digest of ${name} does not match MANIFEST.MF: the entry was modified after signing`;
}
