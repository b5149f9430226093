import type { FullConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  COMPANION_TOKEN_ENV,
  COMPANION_URL_ENV,
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  startEmbeddedDeviceEarly,
} from '../../device-runtime/providers/run-wide.js';
import { clearProposals } from '../heal/proposals-dir.js';
import { quarantinePath } from '../quarantine/path.js';
import { CHECKED_OPTIONS, renamedOption } from './use-options.js';

/**
 * Before the workers: start what the run's devices need once — an emulator per AVD of
 * `{ provider: 'emulator' }` projects when none runs it, and the embedded simulated runtime when
 * some project uses the sim without a url (workers find it through the environment). Returns the
 * teardown, which stops what was started here.
 *
 * It runs in Playwright's runner before the specs are loaded and the workers start, so it loads
 * only what the run asks for: the options' check (and zod) when a project sets one of the checked
 * options, the quarantine's when the file exists, the device providers for an emulator or the
 * companion; the simulator shortly after, once Playwright has listed the specs, or when a worker
 * first reaches for it (providers/run-wide.ts).
 */
export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  const dir = config.configFile ? dirname(config.configFile) : config.rootDir;
  // `nestwright heal` lists the proposals of the last run: this run's start clears the previous one's.
  clearProposals(dir);
  // A quarantine entry past its date fails the run, saying which and what to do (docs/errors.md#quarantine).
  if (existsSync(quarantinePath(dir))) (await import('../quarantine/quarantine.js')).checkQuarantine(dir);
  // An option under its old name, or a mistyped key or value of one of nestwright's (a `fault`
  // that would run on `instant`), fails the run here, once, before any worker starts.
  for (const p of config.projects) {
    for (const key of ['app', 'device'] as const) {
      const legacy: unknown = Reflect.get(p.use, key);
      if (legacy !== undefined) throw renamedOption(key, { config: legacy });
    }
    if (CHECKED_OPTIONS.some((key) => Reflect.get(p.use, key) !== undefined))
      (await import('./option-check.js')).checkOptions(p.use as Record<string, unknown>);
  }
  const devices = config.projects.map((p): unknown => Reflect.get(p.use, 'deviceOptions'));
  const providers = new Set(devices.map((d) => (isObject(d) ? d.provider : undefined)));
  const run =
    providers.has('emulator') || providers.has('companion')
      ? await import('../../device-runtime/providers/index.js')
      : null;
  // `{ provider: 'emulator', avd }`: one emulator per AVD for the run, started when none runs it.
  const stopEmulators = run ? await run.startRunEmulators(devices) : async () => {};
  const simTeardown = await startRunSim(config);
  const companionTeardown = run
    ? await startRunCompanion(run, devices).catch(async (e: unknown) => {
        await simTeardown?.();
        await stopEmulators();
        throw e;
      })
    : undefined;
  return async () => {
    await companionTeardown?.();
    await simTeardown?.();
    await stopEmulators();
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * How long after the global setup the runner starts loading the simulator when no worker has
 * reached for it yet: about when Playwright has listed a small project's specs and started its
 * workers, so the load (a few hundred ms of the runner's thread) runs while a worker boots, not
 * while the runner lists the specs. A worker's import of the package reaches for it too.
 */
const SIM_START_DELAY_MS = 150;

async function startRunSim(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  type SimUse = { provider?: string; url?: string; faults?: string; seed?: number; slots?: number };
  const embedded = config.projects
    .map((p): SimUse => Reflect.get(p.use, 'deviceOptions') ?? { provider: 'sim' })
    .filter((d) => d.provider === 'sim' && !d.url);
  if (embedded.length === 0 || process.env[EMBEDDED_URL_ENV]) return undefined;
  // The environment wins over the config, so one run's faults can be replayed exactly.
  const first = embedded[0]!;
  const faults = process.env.NESTWRIGHT_FAULTS ?? first.faults;
  const seed = process.env.NESTWRIGHT_SEED ? Number(process.env.NESTWRIGHT_SEED) : first.seed;
  const slots = first.slots;
  // Listening now, loaded when the first worker connects (its import of the package does): workers
  // reach it through the environment, and one that connects before it serves waits on the port.
  let failure: unknown = null;
  const sim = await startEmbeddedDeviceEarly(
    {
      ...(faults ? { faults } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(slots !== undefined ? { slots } : {}),
    },
    (e) => {
      failure = e;
      process.stderr.write(
        `nestwright: the embedded simulated device did not start: ${(e as Error).stack ?? String(e)}\n`,
      );
    },
  );
  process.env[EMBEDDED_URL_ENV] = sim.url;
  process.env[EMBEDDED_TOKEN_ENV] = sim.token;
  const timer = setTimeout(() => void sim.start().catch(() => {}), SIM_START_DELAY_MS);
  timer.unref();
  return async () => {
    clearTimeout(timer);
    delete process.env[EMBEDDED_URL_ENV];
    delete process.env[EMBEDDED_TOKEN_ENV];
    if (failure) throw failure;
    await sim.close();
  };
}

/**
 * `{ provider: 'companion' }`: one endpoint for the run, which phones dial in to and every worker
 * reaches over loopback (the first such project's options; phones are spread over the workers).
 */
async function startRunCompanion(
  run: typeof import('../../device-runtime/providers/index.js'),
  devices: unknown[],
): Promise<(() => Promise<void>) | undefined> {
  const first = devices
    .map((d) => run.DeviceOptionsSchema.safeParse(d))
    .find((r) => r.success && r.data.provider === 'companion');
  if (!first?.success || first.data.provider !== 'companion' || process.env[COMPANION_URL_ENV]) return undefined;
  const companion = await run.startCompanion(first.data, (line) => process.stderr.write(`${line}\n`));
  process.stderr.write(
    `nestwright: companion phones connect to ${companion.phonesUrl.replace('127.0.0.1', '<this machine>')}\n`,
  );
  process.env[COMPANION_URL_ENV] = companion.url;
  process.env[COMPANION_TOKEN_ENV] = companion.token;
  return async () => {
    delete process.env[COMPANION_URL_ENV];
    delete process.env[COMPANION_TOKEN_ENV];
    await companion.close();
  };
}
