/**
 * Which APKs of a bundle (`.apks`/`.xapk`) a device gets, the way bundletool's `install-apks` /
 * `extract-apks` choose them (its ApkMatcher with the ABI, screen-density and language matchers):
 *
 * - the base and every feature split are installed (bundletool installs install-time modules; we
 *   cannot see on-demand delivery in a split's manifest, so every feature split counts);
 * - config splits (`config.<value>`, configForSplit = their module) are grouped per module and
 *   dimension, and one alternative per dimension is picked:
 *   - ABI: the device's most preferred ABI that has a split; none matching makes the bundle
 *     incompatible (bundletool's IncompatibleDeviceException), reported as ABI_MISMATCH later;
 *   - density: the split for the device's density, else the closest higher one, else the
 *     highest lower one (Android prefers scaling a bigger bitmap down);
 *   - language: every split whose language is one of the device's languages; none otherwise.
 *   A config split whose suffix is none of these (e.g. a texture format) is kept.
 *
 * Split names follow bundletool: `config.arm64_v8a`, `config.xxhdpi`, `config.de`.
 */
import type { ApkFile } from './model.js';

export type SplitDevice = { abis: string[]; density?: number; locales?: string[] };
export type SplitChoice = { split: string; chosen: boolean; reason: string };

const DENSITIES: Record<string, number> = {
  ldpi: 120,
  mdpi: 160,
  tvdpi: 213,
  hdpi: 240,
  xhdpi: 320,
  xxhdpi: 480,
  xxxhdpi: 640,
};
/** bundletool's split suffix → Android ABI name. */
const ABIS: Record<string, string> = {
  armeabi: 'armeabi',
  armeabi_v7a: 'armeabi-v7a',
  arm64_v8a: 'arm64-v8a',
  x86: 'x86',
  x86_64: 'x86_64',
  mips: 'mips',
  mips64: 'mips64',
  riscv64: 'riscv64',
};
/** The sim's and most phones' density when a device does not say. */
export const DEFAULT_DENSITY = 420;

type Dim =
  | { kind: 'abi'; abi: string }
  | { kind: 'density'; dpi: number }
  | { kind: 'language'; lang: string }
  | { kind: 'other' };

function dimensionOf(configValue: string): Dim {
  const abi = Object.hasOwn(ABIS, configValue) ? ABIS[configValue] : undefined;
  if (abi) return { kind: 'abi', abi };
  const d = DENSITIES[configValue] ?? (/^(\d+)dpi$/.exec(configValue) ? Number(configValue.slice(0, -3)) : undefined);
  if (d !== undefined) return { kind: 'density', dpi: d };
  if (/^[a-z]{2,3}(-r?[A-Za-z]{2})?$/.test(configValue))
    return { kind: 'language', lang: configValue.split('-')[0]!.toLowerCase() };
  return { kind: 'other' };
}

/** The files to install, in input order, and why each config split was taken or left. */
export function selectSplits(files: ApkFile[], device: SplitDevice): { files: ApkFile[]; choices: SplitChoice[] } {
  const density = device.density ?? DEFAULT_DENSITY;
  const langs = (device.locales ?? ['en-US']).map((l) => l.split(/[-_]/)[0]!.toLowerCase());
  const groups = new Map<string, Array<{ f: ApkFile; dim: Dim }>>();
  const choices = new Map<ApkFile, SplitChoice>();
  for (const f of files) {
    const name = f.manifest.split.name;
    // Base config splits carry no configForSplit; a feature module's carry its name.
    const cfg = f.manifest.split.configForSplit ?? '';
    if (name === null || !name.startsWith('config.')) continue;
    const dim = dimensionOf(name.slice('config.'.length));
    if (dim.kind === 'other') {
      choices.set(f, { split: name, chosen: true, reason: 'config split of an unknown dimension: kept' });
      continue;
    }
    const key = `${cfg}\u0000${dim.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), { f, dim }]);
  }
  for (const group of groups.values()) {
    const kind = group[0]!.dim.kind;
    const pick = (f: ApkFile, chosen: boolean, reason: string) =>
      choices.set(f, { split: f.manifest.split.name!, chosen, reason });
    if (kind === 'abi') {
      const best = device.abis.find((a) => group.some((g) => g.dim.kind === 'abi' && g.dim.abi === a));
      for (const g of group) {
        const abi = (g.dim as { abi: string }).abi;
        if (abi === best) pick(g.f, true, `ABI ${abi} is the device's most preferred ABI with a split`);
        else
          pick(
            g.f,
            false,
            best
              ? `ABI ${abi}: the device prefers ${best}`
              : `ABI ${abi}: the device supports only ${device.abis.join(', ')}`,
          );
      }
      // No ABI matches: bundletool refuses the device; keeping the splits lets preflight say ABI_MISMATCH.
      if (!best)
        for (const g of group)
          pick(
            g.f,
            true,
            `no split matches the device's ABIs (${device.abis.join(', ')}); kept so that preflight reports ABI_MISMATCH`,
          );
    } else if (kind === 'density') {
      const dpis = group.map((g) => (g.dim as { dpi: number }).dpi);
      const higher = dpis.filter((d) => d >= density);
      const best = higher.length ? Math.min(...higher) : Math.max(...dpis);
      for (const g of group) {
        const dpi = (g.dim as { dpi: number }).dpi;
        pick(
          g.f,
          dpi === best,
          dpi === best
            ? `${dpi} dpi is the closest to the device's ${density} dpi`
            : `${dpi} dpi: ${best} dpi is closer to the device's ${density} dpi`,
        );
      }
    } else {
      for (const g of group) {
        const lang = (g.dim as { lang: string }).lang;
        pick(
          g.f,
          langs.includes(lang),
          langs.includes(lang)
            ? `language ${lang} is one of the device's`
            : `language ${lang} is not one of the device's (${langs.join(', ')})`,
        );
      }
    }
  }
  // A feature split's config splits go with it; a config split for a module not installed goes too.
  const kept = files.filter((f) => choices.get(f)?.chosen ?? true);
  return { files: kept, choices: files.filter((f) => choices.has(f)).map((f) => choices.get(f)!) };
}
