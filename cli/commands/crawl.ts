/**
 * `nestwright crawl <apk> [--minutes N] [--instances K] [--seed S] [--out crawl/]`: explore an
 * app in K fresh instances at once on one device and write what was found: the app map
 * (`index.html`, opened by `nestwright show-crawl`), `crawl.json`, screenshots, crash logs and a
 * suite of specs (cli/crawl/). Exit code: 0 explored (crashes found are reported, not a failure
 * of the command), 1 the crawl could not run, 2 bad input.
 */
import { parseArgs } from 'node:util';
import { CrawlUsageError, loadConfig } from '../crawl/config.js';
import { writeCrawl } from '../crawl/report.js';
import { runCrawl } from '../crawl/run.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage: nestwright crawl <app.apk | package> [options]

  Explores the app: every screen and what it offers, each action tried from a fresh instance
  brought to its screen by the shortest known path, K instances at once on one device.
  --minutes N          time budget (default 5); it also stops when nothing new is left
  --instances K        instances exploring at once (default 4)
  --seed S             seed of the simulated device's fault decisions (default 1)
  --out D              where to write (default crawl/): index.html, crawl.json, screens/, crashes/, suite/
  --config F           steering (JSON): { "avoid": ["text=Log out"], "inputs": { "email": "ana@example.com",
                       "password": { "secret": "SHOP_PASSWORD" } }, "start": { "skill": "skills/sign-in.yaml" },
                       "activities": "exported" | "all" }
  --profile P          the simulated device's fault profile: instant, realistic, hostile (default instant)
  --device URL         a NestSpace runtime (token in NESTSPACE_TOKEN) instead of the simulated device
  --device-options J   any provider, as use.deviceOptions takes it (JSON): adb, emulator, appium, companion
  --no-screenshots     no screenshots (the map shows titles only; contrast rules are not run)
Exit code: 0 explored, 1 the crawl could not run, 2 bad input.
`;

function whole(name: string, v: string | undefined, min: number, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) throw new CrawlUsageError(`--${name} ${v}: a number from ${min}`);
  return n;
}

export async function crawlCommand(argv: string[], io: Io = stdio): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        minutes: { type: 'string' },
        instances: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string', default: 'crawl' },
        config: { type: 'string' },
        profile: { type: 'string' },
        device: { type: 'string' },
        'device-options': { type: 'string' },
        'no-screenshots': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.err(`nestwright crawl: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const v = parsed.values;
  if (v.help) return (io.out(USAGE), 0);
  let minutes: number, instances: number, seed: number, config;
  let device: unknown = { provider: 'sim' };
  try {
    if (parsed.positionals.length !== 1) throw new CrawlUsageError('name one app: an APK path or a package');
    minutes = whole('minutes', v.minutes, 0.05, 5);
    instances = whole('instances', v.instances, 1, 4);
    if (!Number.isInteger(instances)) throw new CrawlUsageError(`--instances ${v.instances}: a whole number`);
    seed = whole('seed', v.seed, 0, 1);
    if (v.profile && !['instant', 'realistic', 'hostile'].includes(v.profile))
      throw new CrawlUsageError(`--profile ${v.profile}: instant, realistic or hostile`);
    if (v.device && v['device-options']) throw new CrawlUsageError('give --device or --device-options, not both');
    if (v.device) device = { provider: 'nestspace', url: v.device, token: process.env.NESTSPACE_TOKEN ?? '' };
    else if (v['device-options']) device = JSON.parse(v['device-options']);
    else device = { provider: 'sim', seed, ...(v.profile ? { faults: v.profile } : {}) };
    config = loadConfig(v.config);
  } catch (e) {
    io.err(`nestwright crawl: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { connectDevice } = await import('../../device-runtime/providers/index.js');
  let conn;
  try {
    conn = await connectDevice(device);
  } catch (e) {
    io.err(`nestwright crawl: ${(e as Error).message}\n`);
    return 2;
  }
  try {
    const app = parsed.positionals[0]!;
    const { result, pictures } = await runCrawl({
      client: conn.client,
      app,
      instances,
      minutes,
      seed,
      config,
      screenshots: !v['no-screenshots'],
      log: (line) => io.err(`${line}\n`),
    });
    const written = writeCrawl(v.out!, result, pictures);
    const known = result.app.activities.length;
    io.out(
      [
        `${result.app.package}: ${result.screens.length} screens, ${result.activitiesReached.length}${known ? `/${known}` : ''} activities, ${result.transitions.length} transitions in ${(result.elapsedMs / 1000).toFixed(1)} s (${result.settings.instances} instance(s), ${result.settings.mode}; stopped: ${result.stopped})`,
        ...result.crashes.map(
          (c) =>
            `crash ${c.id}${c.reproduced ? ' (reproduced)' : ''}: ${c.reason.split('\n')[0]} — ${c.path.actions.length} step(s) from ${c.path.entry.kind}`,
        ),
        `accessibility: ${result.screens.reduce((n, s) => n + s.accessibility.length, 0)} finding(s) on ${result.screens.filter((s) => s.accessibility.length).length} screen(s)`,
        `map:   ${written.map}  (npx nestwright show-crawl ${v.out})`,
        `json:  ${written.json}`,
        `suite: ${written.suite}`,
        '',
      ].join('\n'),
    );
    return 0;
  } catch (e) {
    io.err(`nestwright crawl: ${e instanceof CrawlUsageError ? e.message : (e as Error).stack}\n`);
    return e instanceof CrawlUsageError ? 2 : 1;
  } finally {
    await conn.close().catch(() => {});
    // The embedded simulator's WebViews share one Chromium for the process: stop it, or it keeps the command alive.
    if (!v.device && !v['device-options'])
      await (await import('../../device-runtime/sim/index.js')).stopChromium().catch(() => {});
  }
}
