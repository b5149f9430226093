/**
 * `runCrawl`: from an APK (or an installed package) and a device client to a {@link CrawlResult}.
 * The manifest gives the entries (launcher, exported activities, deep links); the runtime says
 * whether it can give a fresh instance per branch (the `instance` extension) — when it cannot,
 * the crawl says so and runs one branch at a time on one copy of the app, its data cleared
 * between branches. Each new screen gets a screenshot and the accessibility audit; each crash is
 * replayed once from a fresh instance to show that its path reproduces it.
 */
import { createRequire } from 'node:module';
import { inspectApk } from '../../device-runtime/apk/index.js';
import type { DeviceClient } from '../../device-runtime/client/index.js';
import { auditScreen } from '../../framework/a11y/audit-screen.js';
import { RULE_NAMES } from '../../framework/a11y/rules.js';
import { Space } from '../../framework/core/space.js';
import { BranchInstance } from './branch.js';
import type { ResolvedConfig } from './config.js';
import { Crawler } from './crawler.js';
import type { CrawlResult, Entry } from './model.js';
import { bestLocator } from './screen.js';

export interface RunCrawlOptions {
  client: DeviceClient;
  /** An APK path, or the package of an app the device has (a system app). */
  app: string;
  instances: number;
  minutes: number;
  seed: number;
  config: ResolvedConfig;
  /** Take a screenshot of each screen (the map's pictures, the contrast rules). Default true. */
  screenshots?: boolean;
  log?: (line: string) => void;
  maxBranches?: number;
}

export interface RunCrawlResult {
  result: CrawlResult;
  /** Screen id → PNG. */
  pictures: Map<string, Buffer>;
}

const shortName = (pkg: string, name: string) => (name.startsWith(`${pkg}.`) ? name.slice(pkg.length) : name);

/** The entries of an app: its launcher, its other exported activities (all with `activities: 'all'`), its deep links. */
export async function appEntries(
  app: string,
  config: ResolvedConfig,
): Promise<{
  pkg: string;
  label: string | null;
  apk: string | null;
  entries: Entry[];
  activities: CrawlResult['app']['activities'];
  deepLinks: string[];
}> {
  if (!/\.(apk|apks|xapk)$/i.test(app))
    return {
      pkg: app,
      label: null,
      apk: null,
      entries: [{ kind: 'launch', activity: null, exported: true }],
      activities: [],
      deepLinks: [],
    };
  const info = await inspectApk(app);
  const pkg = info.package;
  const launcher = info.launcherActivity;
  const entries: Entry[] = [{ kind: 'launch', activity: null, exported: true }];
  const deepLinks: string[] = [];
  const activities = info.activities.map((a) => ({ name: shortName(pkg, a.name), exported: a.exported === true }));
  for (const a of info.activities) {
    if (a.name === launcher || a.alias || !a.enabled) continue;
    const exported = a.exported === true;
    if (exported || config.config.activities === 'all')
      entries.push({ kind: 'launch', activity: shortName(pkg, a.name), exported });
    for (const f of a.intentFilters) {
      if (!f.actions.includes('android.intent.action.VIEW')) continue;
      for (const d of f.data) {
        if (!d.scheme || d.scheme === 'http' || d.scheme === 'https' || !d.host) continue;
        // A sample value where the link takes a parameter after its host.
        const uri = `${d.scheme}://${d.host}${d.path ?? d.pathPrefix ?? '/1'}`;
        if (!deepLinks.includes(uri)) deepLinks.push(uri);
      }
    }
  }
  for (const uri of deepLinks) entries.push({ kind: 'deepLink', uri });
  return { pkg, label: info.label ?? null, apk: app, entries, activities, deepLinks };
}

let pngjs: typeof import('pngjs') | undefined;
const decode = (png: Buffer) => {
  try {
    return (pngjs ??= createRequire(import.meta.url)('pngjs') as typeof import('pngjs')).PNG.sync.read(png);
  } catch {
    return null;
  }
};

export async function runCrawl(o: RunCrawlOptions): Promise<RunCrawlResult> {
  const info = await o.client.info();
  const target = await appEntries(o.app, o.config);
  const fresh = await o.client.hasExtension('instance');
  const mode = fresh ? 'instances' : 'clear-data';
  const instances = fresh ? o.instances : 1;
  if (!fresh)
    o.log?.(
      `this runtime cannot start a fresh instance per branch (no 'instance' extension): crawling one branch at a time, clearing the app's data between branches`,
    );
  const scale = info?.timing?.timeout_scale ?? 1;
  const density = info?.device.screen.density ?? 420;
  const pictures = new Map<string, Buffer>();
  const crawler = new Crawler(
    { client: o.client, apk: o.app, pkg: target.pkg, entries: target.entries },
    {
      instances,
      budgetMs: o.minutes * 60_000,
      config: o.config,
      mode,
      timeout: 5_000 * scale,
      ...(o.log ? { log: o.log } : {}),
      ...(o.maxBranches !== undefined ? { maxBranches: o.maxBranches } : {}),
      onScreen: async (screen, obs, branch) => {
        let png: Buffer | null = null;
        if (o.screenshots !== false) {
          const shot = await o.client.call('ui_screenshot', { space_id: branch.spaceId, scale: 0.5 }).catch(() => null);
          png = shot ? Buffer.from(shot.data, 'base64') : null;
        }
        if (png) {
          pictures.set(screen.id, png);
          screen.screenshot = `screens/${screen.id}.png`;
        }
        if (screen.kind === 'other-app') return;
        const raw = auditScreen(
          { nodes: obs.nodes, density, screen: obs.screen, pixels: png ? decode(png) : null },
          RULE_NAMES,
        );
        screen.accessibility = raw.map((f) => ({
          rule: f.rule,
          severity: f.severity,
          message: f.message,
          selector: bestLocator(obs, f.node)?.selector ?? `${f.node.role}${f.node.text ? ` "${f.node.text}"` : ''}`,
        }));
      },
    },
  );
  const outcome = await crawler.run();
  // Each crash once more, from a fresh instance by its path: is it a reproducible bug?
  for (const crash of outcome.crashes) {
    const space = await Space.create(o.client, `crawl-replay-${process.pid}`);
    try {
      const { branch, outcome: start } = await BranchInstance.start(
        { client: o.client, space, apk: o.app, pkg: target.pkg, config: o.config, timeout: 5_000 * scale, mode },
        crash.path.entry,
      );
      const end = start.kind === 'screen' ? await branch.walk(crash.path.actions) : start;
      crash.reproduced = end.kind === 'crash' && end.reason === crash.reason;
      await branch.close();
    } finally {
      await space.delete().catch(() => {});
    }
  }
  const result: CrawlResult = {
    version: 1,
    app: {
      package: target.pkg,
      apk: target.apk,
      label: target.label,
      activities: target.activities,
      deepLinks: target.deepLinks,
    },
    settings: {
      instances,
      seed: o.seed,
      minutes: o.minutes,
      mode,
      profile: info?.timing?.profile ?? null,
      avoided: o.config.config.avoid,
    },
    ...outcome,
  };
  return { result, pictures };
}
