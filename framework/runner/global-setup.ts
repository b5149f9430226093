import type { FullConfig } from '@playwright/test';
import { dirname } from 'node:path';
import {
  COMPANION_TOKEN_ENV,
  COMPANION_URL_ENV,
  DeviceOptionsSchema,
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  startEmbeddedDeviceEarly,
  startCompanion,
  startRunEmulators,
} from '../../device-runtime/providers/index.js';
import { clearProposals } from '../heal/proposals.js';
import { checkOptions } from './option-check.js';
import { checkQuarantine } from '../quarantine/quarantine.js';
import { renamedOption } from './use-options.js';

/**
 * Before the workers: start what the run's devices need once — an emulator per AVD of
 * `{ provider: 'emulator' }` projects when none runs it, and the embedded simulated runtime when
 * some project uses the sim without a url (workers find it through the environment). Returns the
 * teardown, which stops what was started here.
 */
export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  // `nestwright heal` lists the proposals of the last run: this run's start clears the previous one's.
  clearProposals(config.configFile ? dirname(config.configFile) : config.rootDir);
  // A quarantine entry past its date fails the run, saying which and what to do (docs/errors.md#quarantine).
  checkQuarantine(config.configFile ? dirname(config.configFile) : config.rootDir);
  // An option under its old name, or a mistyped key or value of one of nestwright's (a `fault`
  // that would run on `instant`), fails the run here, once, before any worker starts.
  for (const p of config.projects) {
    for (const key of ['app', 'device'] as const) {
      const legacy: unknown = Reflect.get(p.use, key);
      if (legacy !== undefined) throw renamedOption(key, { config: legacy });
    }
    checkOptions(p.use as Record<string, unknown>);
  }
  // `{ provider: 'emulator', avd }`: one emulator per AVD for the run, started when none runs it.
  const stopEmulators = await startRunEmulators(config.projects.map((p) => Reflect.get(p.use, 'deviceOptions')));
  const simTeardown = await startRunSim(config);
  const companionTeardown = await startRunCompanion(config).catch(async (e: unknown) => {
    await simTeardown?.();
    await stopEmulators();
    throw e;
  });
  return async () => {
    await companionTeardown?.();
    await simTeardown?.();
    await stopEmulators();
  };
}

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
  // Not awaited: the simulator loads while Playwright starts the workers (they reach it through
  // the environment; one that connects first waits on the port until it serves).
  const sim = await startEmbeddedDeviceEarly({
    ...(faults ? { faults } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(slots !== undefined ? { slots } : {}),
  });
  let failure: unknown = null;
  sim.ready.catch((e: unknown) => {
    failure = e;
    process.stderr.write(
      `nestwright: the embedded simulated device did not start: ${(e as Error).stack ?? String(e)}\n`,
    );
  });
  process.env[EMBEDDED_URL_ENV] = sim.url;
  process.env[EMBEDDED_TOKEN_ENV] = sim.token;
  return async () => {
    delete process.env[EMBEDDED_URL_ENV];
    delete process.env[EMBEDDED_TOKEN_ENV];
    if (failure) throw failure;
    await (await sim.ready).close();
  };
}

/**
 * `{ provider: 'companion' }`: one endpoint for the run, which phones dial in to and every worker
 * reaches over loopback (the first such project's options; phones are spread over the workers).
 */
async function startRunCompanion(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  const first = config.projects
    .map((p) => DeviceOptionsSchema.safeParse(Reflect.get(p.use, 'deviceOptions')))
    .find((r) => r.success && r.data.provider === 'companion');
  if (!first?.success || first.data.provider !== 'companion' || process.env[COMPANION_URL_ENV]) return undefined;
  const companion = await startCompanion(first.data, (line) => process.stderr.write(`${line}\n`));
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
