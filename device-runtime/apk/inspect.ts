/**
 * `inspectApk`: the entry point. Accepts one APK, several split APKs, or one `.apks`/`.xapk`
 * bundle, reads each APK, and puts the base first. Cost: one pass over each zip's central
 * directory, the manifest and arsc inflated into memory (capped), native-lib headers only, and a
 * streaming scan of the dex files.
 */
import { ApkError } from './apk-error.js';
import { readApkFile } from './apk-file.js';
import { isBundlePath, unpackBundle } from './bundle.js';
import type { ApkFile, ApkInfo } from './model.js';
import { selectSplits, type SplitChoice, type SplitDevice } from './split-selection.js';

/**
 * `opts.device`: for a bundle, keep only the splits that device gets (ABI, density, language, as
 * bundletool chooses); `splitSelection` says why. Split APKs given one by one are all kept.
 */
export async function inspectApk(input: string | string[], opts: { device?: SplitDevice } = {}): Promise<ApkInfo> {
  const paths = typeof input === 'string' ? [input] : [...input];
  if (paths.length === 0) {
    throw new ApkError('no input files', {
      hint: 'Pass the path of an .apk, several split .apk paths, or one .apks/.xapk bundle.',
    });
  }
  const bundles = paths.filter(isBundlePath);
  if (bundles.length > 0 && paths.length > 1) {
    throw new ApkError(`a bundle (${bundles[0]}) must be inspected on its own`, {
      hint: 'Pass either one .apks/.xapk bundle, or a list of .apk files — not both.',
    });
  }
  if (bundles.length === 1) {
    const bundle = await unpackBundle(paths[0]!);
    try {
      const files = await readAll(bundle.paths);
      // Report the entry names inside the bundle rather than our temp paths.
      files.forEach((f, i) => {
        f.path = `${paths[0]}!/${bundle.names[i]}`;
      });
      if (!opts.device) return combine(files, bundle.kind, paths, []);
      const sel = selectSplits(files, opts.device);
      return combine(sel.files, bundle.kind, paths, sel.choices);
    } finally {
      await bundle.cleanup();
    }
  }
  return combine(await readAll(paths), paths.length === 1 ? 'apk' : 'splits', paths, []);
}

async function readAll(paths: string[]): Promise<ApkFile[]> {
  const files: ApkFile[] = [];
  for (const p of paths) files.push(await readApkFile(p)); // sequential: bounded memory and fds
  return files;
}

function combine(
  files: ApkFile[],
  kind: ApkInfo['source']['kind'],
  paths: string[],
  splitSelection: SplitChoice[],
): ApkInfo {
  const baseIdx = files.findIndex((f) => f.manifest.split.name === null);
  const ordered = baseIdx >= 0 ? [files[baseIdx]!, ...files.filter((_, i) => i !== baseIdx)] : files;
  const main = ordered[0]!.manifest;
  return {
    source: { kind, paths },
    package: main.package,
    versionCode: main.versionCode,
    versionName: main.versionName,
    minSdk: main.minSdk,
    targetSdk: main.targetSdk,
    label: main.label,
    launcherActivity: main.launcherActivity,
    activities: main.activities,
    manifest: main,
    signing: ordered[0]!.signing,
    abis: [...new Set(ordered.flatMap((f) => f.abis))].sort(),
    dexCount: ordered.reduce((n, f) => n + f.dexCount, 0),
    apks: ordered,
    splitSelection,
  };
}
