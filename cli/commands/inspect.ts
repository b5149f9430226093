/**
 * `nestwright inspect <apk...> [--json] [--abi x86_64,arm64-v8a] [--page-size 16k|4k] [--sdk 35]`
 *
 * Reads an APK (or split set, or .apks/.xapk bundle) and prints what the installer would see and
 * the preflight report against the given device. Exit code: 0 installable, 1 rejected (including
 * unreadable input), 2 usage error.
 */
import { parseArgs } from 'node:util';
import { inspectAndPreflight } from '../../device-runtime/apk/index.js';
import type { ApkInfo, DeviceTraits, PreflightReport } from '../../device-runtime/apk/index.js';

export type InspectIo = { out: (text: string) => void; err: (text: string) => void };
const stdio: InspectIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

const USAGE = `Usage: nestwright inspect <apk...> [--json] [--abi x86_64,arm64-v8a] [--page-size 16k|4k] [--sdk 35]

  <apk...>       one .apk, a base .apk with its split .apks, or one .apks/.xapk bundle
  --json         print {info, report} as JSON instead of tables
  --abi          device ABIs in preference order (default x86_64,arm64-v8a)
  --page-size    device page size: 4k or 16k (default 4k)
  --sdk          device API level (default 35)

Exit code: 0 installable, 1 rejected, 2 usage error.
`;

export async function inspectCommand(argv: string[], io: InspectIo = stdio): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        abi: { type: 'string', default: 'x86_64,arm64-v8a' },
        'page-size': { type: 'string', default: '4k' },
        sdk: { type: 'string', default: '35' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    return usage(io, `${(err as Error).message.replace(/\. To specify a positional argument.*$/s, '')}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (positionals.length === 0)
    return usage(io, 'no APK given. Pass the path of an .apk, a base APK and its splits, or an .apks/.xapk bundle');
  const pageSize = parsePageSize(values['page-size']);
  if (pageSize === null) return usage(io, `--page-size must be 4k or 16k (got "${values['page-size']}")`);
  const abis = values.abi
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (abis.length === 0) return usage(io, '--abi needs at least one ABI, e.g. --abi x86_64,arm64-v8a');
  if (!/^\d{1,3}$/.test(values.sdk)) return usage(io, `--sdk must be an API level such as 35 (got "${values.sdk}")`);
  const device: DeviceTraits = { abis, page_size: pageSize, sdk_int: Number(values.sdk), min_target_sdk: 24 };

  const { info, report } = await inspectAndPreflight(positionals, device, null);
  if (values.json) io.out(`${JSON.stringify({ device, info, report }, null, 2)}\n`);
  else io.out(render(info, report, device));
  return report.installable ? 0 : 1;
}

function usage(io: InspectIo, problem: string): number {
  io.err(`nestwright inspect: ${problem}.\nRun \`nestwright inspect --help\` for usage.\n\n${USAGE}`);
  return 2;
}

function parsePageSize(v: string): 4096 | 16384 | null {
  const s = v.trim().toLowerCase();
  if (s === '4k' || s === '4096') return 4096;
  if (s === '16k' || s === '16384') return 16384;
  return null;
}

/** Left-aligned columns, two spaces apart. */
export function table(rows: string[][], indent = '  '): string {
  const widths: number[] = [];
  for (const r of rows)
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  return (
    rows
      .map(
        (r) =>
          indent +
          r
            .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
            .join('  ')
            .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function render(info: ApkInfo | null, report: PreflightReport, device: DeviceTraits): string {
  let s = '';
  if (info) {
    const m = info.manifest;
    s += table(
      [
        ['package', info.package],
        ['version', `${info.versionName ?? '?'} (${info.versionCode})`],
        ['label', info.label ?? '(none)'],
        ['sdk', `min ${info.minSdk}, target ${info.targetSdk}${m.compileSdk ? `, compile ${m.compileSdk}` : ''}`],
        ['launcher', info.launcherActivity ?? '(none)'],
        [
          'components',
          `${m.activities.length} activities, ${m.services.length} services, ${m.providers.length} providers, ${m.receivers.length} receivers`,
        ],
        [
          'permissions',
          m.usesPermissions.map((p) => p.name.replace(/^android\.permission\./, '')).join(', ') || '(none)',
        ],
        ['abis', info.abis.join(', ') || '(no native code)'],
        ['dex', String(info.dexCount)],
        [
          'flags',
          [
            m.debuggable ? 'debuggable' : null,
            m.extractNativeLibs === false ? 'extractNativeLibs=false' : null,
            m.requireSecureEnv ? 'REQUIRE_SECURE_ENV' : null,
          ]
            .filter(Boolean)
            .join(', ') || '-',
        ],
      ],
      '',
    );
    s += '\nFiles\n';
    s += table([
      ['FILE', 'SPLIT', 'SIZE', 'SCHEMES', 'CERT SHA-256'],
      ...info.apks.map((f) => [
        f.path,
        f.manifest.split.name ?? 'base',
        String(f.size),
        f.signing.schemes.join(',') || 'unsigned',
        f.signing.certSha256.map((c) => c.slice(0, 16) + '…').join(' ') || '-',
      ]),
    ]);
    const libs = info.apks.flatMap((f) => f.nativeLibs);
    if (libs.length) {
      s += '\nNative libraries\n';
      s += table([
        ['PATH', 'P_ALIGN', 'ZIP OFFSET', '16 KB ELF', '16 KB ZIP'],
        ...libs.map((l) => [
          l.path,
          l.pAlign === null ? (l.error ?? '?') : String(l.pAlign),
          l.dataOffset === null ? 'compressed' : String(l.dataOffset),
          yn(l.elfAligned16k),
          yn(l.zipAligned16k),
        ]),
      ]);
    }
    s += '\n';
  }
  s += `Preflight (abis ${device.abis.join(',')}, ${device.page_size === 16384 ? '16k' : '4k'} pages, sdk ${device.sdk_int})\n`;
  s += table(report.checks.map((c) => [c.status.toUpperCase(), c.code, c.message]));
  s += `\n${report.installable ? 'installable' : 'NOT installable'}\n`;
  return s;
}

const yn = (b: boolean | null): string => (b === null ? '-' : b ? 'yes' : 'NO');
