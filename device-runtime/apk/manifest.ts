/**
 * Turns the AXML element tree of AndroidManifest.xml into the {@link Manifest} model, resolving
 * resource references (label, meta-data values) through resources.arsc when one is given.
 */
import { ApkError } from './apk-error.js';
import type { ResourceTable } from './arsc.js';
import { ANDROID_NS, type AxmlElement, type AxmlValue } from './axml.js';
import type { Activity, Component, IntentFilter, Manifest, MetaData, Provider, Service } from './model.js';

const SECURE_ENV = 'REQUIRE_SECURE_ENV';

export function readManifest(root: AxmlElement, res: ResourceTable | null): Manifest {
  if (root.name !== 'manifest')
    throw new ApkError(`AndroidManifest.xml: root element is <${root.name}>, expected <manifest>`);
  const pkg = str(plain(root, 'package'), res);
  if (!pkg) throw new ApkError('AndroidManifest.xml: <manifest> has no package attribute');
  const sdk = root.children.find((c) => c.name === 'uses-sdk');
  const app = root.children.find((c) => c.name === 'application');
  const appKids = app?.children ?? [];
  const minSdk = sdkInt(sdk && attr(sdk, 'minSdkVersion'), res) ?? 1;
  const fqcn = (n: string): string => (n.startsWith('.') ? pkg + n : n.includes('.') ? n : `${pkg}.${n}`);

  const activities: Activity[] = appKids
    .filter((c) => c.name === 'activity' || c.name === 'activity-alias')
    .map((c) => {
      const target = str(attr(c, 'targetActivity'), res);
      const base = component(c, res, fqcn);
      return {
        ...base,
        alias: c.name === 'activity-alias',
        targetActivity: target ? fqcn(target) : null,
        launcher: base.intentFilters.some(isLauncher),
      };
    });
  const services: Service[] = appKids
    .filter((c) => c.name === 'service')
    .map((c) => ({
      ...component(c, res, fqcn),
      foregroundServiceType: int(attr(c, 'foregroundServiceType')),
    }));
  const providers: Provider[] = appKids
    .filter((c) => c.name === 'provider')
    .map((c) => ({
      ...component(c, res, fqcn),
      authorities: (str(attr(c, 'authorities'), res) ?? '').split(';').filter(Boolean),
    }));
  const receivers = appKids.filter((c) => c.name === 'receiver').map((c) => component(c, res, fqcn));
  const properties = appKids.filter((c) => c.name === 'property').map((c) => metaData(c, res));
  const metaDataList = appKids.filter((c) => c.name === 'meta-data').map((c) => metaData(c, res));
  const secure = [...properties, ...metaDataList].some(
    (p) => p.name === SECURE_ENV && (p.value === true || p.value === 1 || p.value === '1' || p.value === 'true'),
  );
  const launcher = activities.find((a) => a.launcher && a.enabled) ?? null;

  return {
    package: pkg,
    versionCode: int(attr(root, 'versionCode')) ?? 0,
    versionName: str(attr(root, 'versionName'), res),
    minSdk,
    targetSdk: sdkInt(sdk && attr(sdk, 'targetSdkVersion'), res) ?? minSdk,
    compileSdk: int(attr(root, 'compileSdkVersion')) ?? int(plain(root, 'platformBuildVersionCode')),
    label: app ? str(attr(app, 'label'), res) : null,
    debuggable: bool(app && attr(app, 'debuggable')) ?? false,
    extractNativeLibs: bool(app && attr(app, 'extractNativeLibs')),
    requireSecureEnv: secure,
    hasCode: bool(app && attr(app, 'hasCode')) ?? true,
    launcherActivity: launcher ? launcher.name : null,
    activities,
    services,
    providers,
    receivers,
    usesPermissions: root.children
      .filter((c) => c.name === 'uses-permission' || c.name === 'uses-permission-sdk-23')
      .map((c) => ({ name: str(attr(c, 'name'), res) ?? '', maxSdkVersion: int(attr(c, 'maxSdkVersion')) }))
      .filter((p) => p.name !== ''),
    usesFeatures: root.children
      .filter((c) => c.name === 'uses-feature')
      .map((c) => ({
        name: str(attr(c, 'name'), res),
        required: bool(attr(c, 'required')) ?? true,
        glEsVersion: int(attr(c, 'glEsVersion')),
      })),
    usesLibraries: appKids
      .filter((c) => c.name === 'uses-library')
      .map((c) => ({ name: str(attr(c, 'name'), res) ?? '', required: bool(attr(c, 'required')) ?? true })),
    metaData: metaDataList,
    properties,
    split: {
      name: str(plain(root, 'split'), res),
      isFeatureSplit: bool(attr(root, 'isFeatureSplit')) ?? false,
      configForSplit: str(plain(root, 'configForSplit'), res),
      isSplitRequired: bool(app && attr(app, 'isSplitRequired')) ?? bool(attr(root, 'isSplitRequired')) ?? false,
      requiredSplitTypes: list(str(attr(root, 'requiredSplitTypes'), res)),
      splitTypes: list(str(attr(root, 'splitTypes'), res)),
      usesSplits: root.children
        .filter((c) => c.name === 'uses-split')
        .map((c) => str(attr(c, 'name'), res) ?? '')
        .filter(Boolean),
    },
  };
}

function component(c: AxmlElement, res: ResourceTable | null, fqcn: (n: string) => string): Component {
  const filters = c.children.filter((k) => k.name === 'intent-filter').map((f) => intentFilter(f, res));
  return {
    name: fqcn(str(attr(c, 'name'), res) ?? ''),
    exported: bool(attr(c, 'exported')),
    enabled: bool(attr(c, 'enabled')) ?? true,
    process: str(attr(c, 'process'), res),
    permission: str(attr(c, 'permission'), res),
    intentFilters: filters,
    metaData: c.children.filter((k) => k.name === 'meta-data').map((k) => metaData(k, res)),
  };
}

function intentFilter(f: AxmlElement, res: ResourceTable | null): IntentFilter {
  const names = (tag: string): string[] =>
    f.children
      .filter((k) => k.name === tag)
      .map((k) => str(attr(k, 'name'), res) ?? '')
      .filter(Boolean);
  return {
    actions: names('action'),
    categories: names('category'),
    data: f.children
      .filter((k) => k.name === 'data')
      .map((k) => {
        const out: Record<string, string> = {};
        for (const a of k.attrs) {
          const v = display(a.value, res);
          if (v !== null) out[a.name] = String(v);
        }
        return out;
      }),
    priority: int(attr(f, 'priority')),
  };
}

function isLauncher(f: IntentFilter): boolean {
  return f.actions.includes('android.intent.action.MAIN') && f.categories.includes('android.intent.category.LAUNCHER');
}

function metaData(c: AxmlElement, res: ResourceTable | null): MetaData {
  const value = attr(c, 'value');
  const resource = attr(c, 'resource');
  let v: MetaData['value'] = null;
  let ref: number | null = resource?.type === 'ref' ? resource.value : null;
  if (value) {
    if (value.type === 'ref') {
      ref = value.value;
      v = res?.resolveString(value.value) ?? null;
    } else v = display(value, res);
  }
  return { name: str(attr(c, 'name'), res) ?? '', value: v, resource: ref };
}

/** An android:-namespaced attribute (matched by resource id or by name). */
function attr(el: AxmlElement, name: string): AxmlValue | undefined {
  return el.attrs.find((a) => a.name === name && (a.ns === ANDROID_NS || a.ns === null))?.value;
}
/** An attribute with no namespace (`package`, `split`, `configForSplit`). */
function plain(el: AxmlElement, name: string): AxmlValue | undefined {
  return el.attrs.find((a) => a.name === name && !a.ns)?.value ?? el.attrs.find((a) => a.name === name)?.value;
}

function str(v: AxmlValue | undefined, res: ResourceTable | null): string | null {
  if (!v) return null;
  if (v.type === 'string') return v.value;
  if (v.type === 'ref') return res?.resolveString(v.value) ?? null;
  if (v.type === 'int') return String(v.value);
  if (v.type === 'bool') return String(v.value);
  return null;
}
function display(v: AxmlValue, res: ResourceTable | null): string | number | boolean | null {
  if (v.type === 'ref') return res?.resolveString(v.value) ?? `@0x${v.value.toString(16)}`;
  if (v.type === 'other') return v.value;
  return v.value;
}
function int(v: AxmlValue | undefined): number | null {
  if (!v) return null;
  if (v.type === 'int') return v.value;
  if (v.type === 'string' && /^-?\d+$/.test(v.value.trim())) return Number.parseInt(v.value, 10);
  return null;
}
/** SDK versions may be codenames ("VanillaIceCream"); those count as the next, unreleased, level. */
function sdkInt(v: AxmlValue | undefined, res: ResourceTable | null): number | null {
  const n = int(v);
  if (n !== null) return n;
  const s = str(v, res);
  return s ? 10_000 : null;
}
function bool(v: AxmlValue | undefined): boolean | null {
  if (!v) return null;
  if (v.type === 'bool') return v.value;
  if (v.type === 'int') return v.value !== 0;
  if (v.type === 'string') return v.value === 'true' ? true : v.value === 'false' ? false : null;
  return null;
}
function list(s: string | null): string[] {
  return s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];
}
