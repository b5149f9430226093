/**
 * `.apks` (bundletool output: `splits/*.apk`, `standalones/*.apk`, `universal.apk`, `toc.pb`) and
 * `.xapk` (APKPure: `*.apk` + `manifest.json` + optional OBBs) are zips of APKs. We unpack the APKs
 * we would install into a private temp directory, so each is read with the same random-access code
 * as a plain APK (stored `.so` offsets are relative to the inner APK, which is what gets installed).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { ApkError, asApkError } from './apk-error.js';
import { ApkZip, type ZipEntry } from './zip.js';

/** Largest inner APK we unpack (Play's limit for a base APK is 4 GB only with asset packs; real ones are ≤ 1 GB). */
export const MAX_INNER_APK_BYTES = 1024 * 1024 * 1024;
/** APKs are mostly already-compressed data; an inner APK that deflates better than this is a bomb. */
const MAX_RATIO = 100;
const MAX_INNER_APKS = 256;
/** All inner APKs together (temp disk use). */
export const MAX_BUNDLE_BYTES = 4 * 1024 * 1024 * 1024;

export type UnpackedBundle = { kind: 'apks' | 'xapk'; paths: string[]; names: string[]; cleanup: () => Promise<void> };

export function isBundlePath(path: string): boolean {
  const ext = extname(path).toLowerCase();
  return ext === '.apks' || ext === '.xapk';
}

/** Unpacks the installable APKs of a bundle into a temp dir. Call `cleanup` when done (also on error). */
export async function unpackBundle(path: string): Promise<UnpackedBundle> {
  const kind = extname(path).toLowerCase() === '.xapk' ? 'xapk' : 'apks';
  const zip = await ApkZip.open(path, { maxInflatedBytes: MAX_BUNDLE_BYTES });
  let dir: string | null = null;
  try {
    const apks = chooseApks([...zip.entries.values()]);
    if (apks.length === 0) {
      throw new ApkError(`the ${kind} bundle contains no .apk entries`, {
        file: path,
        hint: 'Pass a bundle produced by `bundletool build-apks` (.apks) or an .xapk with its APKs at the top level.',
      });
    }
    if (apks.length > MAX_INNER_APKS)
      throw new ApkError(`the bundle contains ${apks.length} APKs (limit ${MAX_INNER_APKS})`, { file: path });
    const total = apks.reduce((n, e) => n + e.uncompressedSize, 0);
    if (total > MAX_BUNDLE_BYTES)
      throw new ApkError(`the bundle's APKs declare ${total} bytes in total (limit ${MAX_BUNDLE_BYTES})`, {
        file: path,
      });
    dir = await mkdtemp(join(tmpdir(), 'nestwright-bundle-'));
    const paths: string[] = [];
    for (const [i, e] of apks.entries()) {
      if (e.uncompressedSize > 10 * 1024 * 1024 && e.uncompressedSize > e.compressedSize * MAX_RATIO) {
        throw new ApkError(
          `bundle entry ${e.fileName} would inflate ${e.compressedSize} bytes to ${e.uncompressedSize} (zip bomb)`,
          { file: path },
        );
      }
      const dest = join(dir, `${String(i).padStart(3, '0')}-${basename(e.fileName)}`);
      await zip.copyTo(e, MAX_INNER_APK_BYTES, dest);
      paths.push(dest);
    }
    const d = dir;
    return { kind, paths, names: apks.map((e) => e.fileName), cleanup: () => rm(d, { recursive: true, force: true }) };
  } catch (err) {
    if (dir) await rm(dir, { recursive: true, force: true });
    throw asApkError(err, path);
  } finally {
    await zip.close();
  }
}

/** Split APKs when present (what `bundletool install-apks` installs on L+), else the universal/standalone APK. */
function chooseApks(entries: ZipEntry[]): ZipEntry[] {
  const apks = entries.filter((e) => e.fileName.toLowerCase().endsWith('.apk') && !e.fileName.endsWith('/'));
  const splits = apks.filter((e) => e.fileName.startsWith('splits/'));
  if (splits.length) return splits;
  const universal = apks.filter((e) => e.fileName === 'universal.apk');
  if (universal.length) return universal;
  const standalones = apks.filter((e) => e.fileName.startsWith('standalones/'));
  if (standalones.length) return standalones.slice(0, 1);
  return apks.filter((e) => !e.fileName.includes('/'));
}
