/**
 * Dex files: how many (`classes.dex`, `classes2.dex`, …) and whether their strings mention the
 * platform features preflight warns about. We search the inflated bytes for the strings instead of
 * parsing the string table: the markers are plain MUTF-8/ASCII in `string_data`, and a streaming
 * search keeps memory at one chunk no matter how big the dex is.
 */
import type { ApkZip, ZipEntry } from './zip.js';
import type { DexHints } from './model.js';

export const DEX_NAME = /^classes(\d*)\.dex$/;
/** A dex larger than this is not real (the format's 64K-method limit keeps them well below). */
export const MAX_DEX_BYTES = 256 * 1024 * 1024;

const MARKERS: Record<keyof Omit<DexHints, 'scannedBytes'>, Buffer[]> = {
  keystore: [Buffer.from('AndroidKeyStore'), Buffer.from('Landroid/security/keystore/KeyGenParameterSpec;')],
  playIntegrity: [
    Buffer.from('Lcom/google/android/play/core/integrity/'),
    Buffer.from('Lcom/google/android/gms/safetynet/'),
  ],
  gms: [Buffer.from('Lcom/google/android/gms/')],
};
const OVERLAP = Math.max(
  ...Object.values(MARKERS)
    .flat()
    .map((m) => m.length),
);

export async function scanDex(zip: ApkZip, dexEntries: ZipEntry[]): Promise<DexHints> {
  const found = { keystore: false, playIntegrity: false, gms: false };
  let scannedBytes = 0;
  // All of them may be scanned to the end (no marker found): refuse up front what could not be.
  zip.reserve(dexEntries, 'the dex files', MAX_DEX_BYTES);
  for (const entry of dexEntries) {
    let carry = Buffer.alloc(0);
    await zip.scan(entry, MAX_DEX_BYTES, (chunk) => {
      scannedBytes += chunk.length;
      const window = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      for (const key of Object.keys(MARKERS) as Array<keyof typeof MARKERS>) {
        if (!found[key] && MARKERS[key].some((m) => window.includes(m))) found[key] = true;
      }
      carry = Buffer.from(window.subarray(Math.max(0, window.length - OVERLAP)));
      return !(found.keystore && found.playIntegrity && found.gms); // all seen: stop inflating
    });
    if (found.keystore && found.playIntegrity && found.gms) break;
  }
  return { ...found, scannedBytes };
}
