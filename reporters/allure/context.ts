import type { TestCase } from '@playwright/test/reporter';
import type { Label, Parameter } from 'allure-js-commons';
import type { TrajectoryDoc } from './trajectory-schema.js';

/** The nestwright `use` options that are shown as test parameters. */
const OPTION_KEYS = ['apk', 'deviceOptions', 'channel', 'actionTimeout', 'trajectory', 'screenshot'] as const;

export interface RunContext {
  device?: string;
  space?: string;
  instance?: string;
  appPackage?: string;
  appVersion?: string;
  channel?: string;
  faultProfile?: string;
  options: Record<string, string>;
}

/**
 * Where a test ran, from its trajectory's `meta` when the framework wrote one, else from what the
 * reporter can know without a device: the project's `use` options, the instances the steps name,
 * and the run's fault profile (NESTWRIGHT_FAULTS, read by the embedded simulator in this process).
 */
export function runContext(test: TestCase, doc: TrajectoryDoc | null): RunContext {
  const use = (test.parent.project()?.use ?? {}) as Record<string, unknown>;
  const meta = doc?.meta ?? {};
  const options: Record<string, string> = {};
  for (const key of OPTION_KEYS) {
    const v = meta.options?.[key] ?? use[key];
    if (v !== undefined && v !== null && v !== '') options[key] = show(v);
  }
  for (const [key, v] of Object.entries(meta.options ?? {}))
    if (!(key in options) && v !== undefined) options[key] = show(v);
  const deviceUse = use.deviceOptions as { provider?: string; url?: string } | undefined;
  const instances = [...new Set((doc?.steps ?? []).map((s) => s.instance).filter((i): i is string => !!i))];
  const version = meta.versionName
    ? `${meta.versionName}${meta.versionCode !== undefined ? ` (${meta.versionCode})` : ''}`
    : meta.versionCode?.toString();
  return {
    device:
      meta.device ??
      (deviceUse?.provider ? `${deviceUse.provider}${deviceUse.url ? ` ${deviceUse.url}` : ''}` : undefined),
    space: meta.space,
    // Every instance the test acted on (a multi-user test opens several), the first one first.
    instance: [...new Set([meta.instance, ...instances].filter((i): i is string => !!i))].join(', ') || undefined,
    appPackage:
      meta.package ??
      (typeof options.apk === 'string' && !/\.(apk|apks|xapk)$/i.test(options.apk) ? options.apk : undefined),
    appVersion: version,
    channel: meta.channel ?? options.channel,
    faultProfile: meta.faultProfile ?? process.env.NESTWRIGHT_FAULTS ?? undefined,
    options,
  };
}

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'provider' in v) {
    // A device as `sim` or `nestspace http://…`; never its token.
    const d = v as { provider: string; url?: string; serial?: string };
    return [d.provider, d.url ?? d.serial].filter(Boolean).join(' ');
  }
  return JSON.stringify(v);
}

const LABELS: Array<[keyof RunContext, string]> = [
  ['device', 'device'],
  ['space', 'space'],
  ['instance', 'instance'],
  ['appPackage', 'appPackage'],
  ['appVersion', 'appVersion'],
  ['channel', 'channel'],
  ['faultProfile', 'faultProfile'],
];

export function contextLabels(c: RunContext): Label[] {
  return LABELS.flatMap(([key, name]) => (c[key] ? [{ name, value: String(c[key]) }] : []));
}

export function optionParameters(c: RunContext): Parameter[] {
  return Object.entries(c.options).map(([name, value]) => ({ name, value }));
}

/** Allure 2 does not show custom labels on the test page; this list does. */
export function contextHtml(c: RunContext): string {
  const items = LABELS.filter(([key]) => c[key]).map(
    ([key, name]) => `<li>${name}: <code>${escape(String(c[key]))}</code></li>`,
  );
  return items.length ? `<ul>${items.join('')}</ul>` : '';
}

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);
