/**
 * Reads one APK file (base or split) into an {@link ApkFile}: manifest, label, signing, native
 * libraries, dex. Size limits below bound memory for hostile input; real APKs stay far under them.
 */
import { asApkError, ApkError } from './apk-error.js';
import { ResourceTable } from './arsc.js';
import { parseAxml } from './axml.js';
import { DEX_NAME, scanDex } from './dex.js';
import { ELF_PREFIX_BYTES, readElfLoadAlign } from './elf.js';
import { JAR_SIG_BLOCK, pkcs7CertDigests } from './jar-signature.js';
import { strippedFromBlock, verifyJarSignature } from './jar-verify.js';
import { readManifest } from './manifest.js';
import type { ApkFile, NativeLib, Signer, Signing } from './model.js';
import { modelSigners, readSigningBlock } from './signing-block.js';
import { verifySigningBlock } from './signature-scheme-verify.js';
import { ApkZip } from './zip.js';

/** Inflated-size caps (bytes). A manifest is a few KB to ~1 MB; the largest real arsc files are ~30 MB. */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;
export const MAX_ARSC_BYTES = 64 * 1024 * 1024;
const MAX_SIG_FILE_BYTES = 1024 * 1024;
const PAGE_16K = 16384;
const LIB_PATH = /^lib\/([^/]+)\/[^/]+\.so$/;

export async function readApkFile(path: string): Promise<ApkFile> {
  const zip = await ApkZip.open(path);
  try {
    const manifestEntry = zip.get('AndroidManifest.xml');
    if (!manifestEntry) {
      throw new ApkError('the zip has no AndroidManifest.xml, so it is not an APK', {
        file: path,
        hint: 'Pass an .apk built by the Android build tools (or an .apks/.xapk bundle).',
      });
    }
    const axml = parseAxml(await zip.read(manifestEntry, MAX_MANIFEST_BYTES));
    const arscEntry = zip.get('resources.arsc');
    const res = arscEntry ? new ResourceTable(await zip.read(arscEntry, MAX_ARSC_BYTES)) : null;
    const manifest = readManifest(axml, res);
    const signing = await readSigning(zip);
    const nativeLibs = await readNativeLibs(zip);
    const dexEntries = [...zip.entries.values()].filter((e) => DEX_NAME.test(e.fileName));
    const dexHints = await scanDex(zip, dexEntries);
    return {
      path,
      size: zip.size,
      manifest,
      signing,
      nativeLibs,
      abis: [...new Set(nativeLibs.map((l) => l.abi))].sort(),
      dexCount: dexEntries.length,
      dexHints,
    };
  } catch (err) {
    throw asApkError(err, path);
  } finally {
    await zip.close();
  }
}

/**
 * Signers and their verification. With a v2+ signing block, that block's signers are verified
 * (their digests cover every byte of the file); with none, the v1 JAR signature is (every entry).
 */
async function readSigning(zip: ApkZip): Promise<Signing> {
  const signers: Signer[] = [];
  for (const entry of zip.entries.values()) {
    if (!JAR_SIG_BLOCK.test(entry.fileName)) continue;
    const certSha256 = pkcs7CertDigests(await zip.read(entry, MAX_SIG_FILE_BYTES), entry.fileName);
    if (certSha256.length) signers.push({ scheme: 'v1', certSha256, lineageSha256: [] });
  }
  const block = await readSigningBlock(zip);
  signers.push(...modelSigners(block));
  const schemes = [...new Set([...signers.map((s) => s.scheme), ...(block?.schemes ?? [])])];
  // The platform verifies the newest scheme present and takes its signers' certificates.
  const pick = (['v3.1', 'v3', 'v2', 'v1'] as const).find((s) => schemes.includes(s));
  const chosen = signers.filter((s) => s.scheme === pick);
  const certSha256 = [...new Set(chosen.flatMap((s) => s.certSha256.slice(0, 1)))].sort();
  const lineageSha256 = [...new Set(chosen.flatMap((s) => s.lineageSha256))];
  let problems: string[] = [];
  if (block)
    problems = [
      ...(await verifySigningBlock(zip, block)),
      ...(schemes.includes('v1') ? await strippedFromBlock(zip, block.schemes) : []),
    ];
  else if (schemes.includes('v1')) problems = await verifyJarSignature(zip, []);
  const verified = schemes.length > 0 && problems.length === 0;
  return { schemes, signers, certSha256, lineageSha256, verified, problems };
}

async function readNativeLibs(zip: ApkZip): Promise<NativeLib[]> {
  const libs: NativeLib[] = [];
  for (const entry of zip.entries.values()) {
    const m = LIB_PATH.exec(entry.fileName);
    if (!m) continue;
    const compressed = entry.compressionMethod !== 0;
    const dataOffset = compressed ? null : await zip.dataOffset(entry);
    const head = await zip.readPrefix(entry, ELF_PREFIX_BYTES);
    let pAlign: number | null = null;
    let error: string | null = null;
    try {
      pAlign = readElfLoadAlign(head, entry.fileName).minLoadAlign;
    } catch (err) {
      // A .so that is not a readable ELF is reported on the lib (preflight warns) rather than
      // failing the whole APK: some apps ship data files named *.so. Zip damage still throws above.
      if (!(err instanceof ApkError)) throw err;
      error = err.reason;
    }
    libs.push({
      abi: m[1]!,
      path: entry.fileName,
      size: entry.uncompressedSize,
      compressed,
      dataOffset,
      pAlign,
      elfAligned16k: pAlign === null ? null : pAlign >= PAGE_16K,
      zipAligned16k: dataOffset === null ? null : dataOffset % PAGE_16K === 0,
      error,
    });
  }
  return libs.sort((a, b) => a.path.localeCompare(b.path));
}
