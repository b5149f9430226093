import type { FullConfig } from '@playwright/test';
import { EMBEDDED_TOKEN_ENV, EMBEDDED_URL_ENV, startEmbeddedDevice } from '../device-runtime/providers/index.js';

/**
 * Start the embedded simulated runtime once for the run when some project uses the sim without a
 * url; workers find it through the environment. Returns the teardown.
 */
export default async function globalSetup(config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  const wantsEmbedded = config.projects.some((p) => {
    const device = (p.use as { device?: { provider?: string; url?: string } }).device;
    return !device || (device.provider === 'sim' && !device.url);
  });
  if (!wantsEmbedded || process.env[EMBEDDED_URL_ENV]) return undefined;
  const faults = process.env.NESTWRIGHT_FAULTS;
  const seed = process.env.NESTWRIGHT_SEED ? Number(process.env.NESTWRIGHT_SEED) : undefined;
  const sim = await startEmbeddedDevice({ ...(faults ? { faults } : {}), ...(seed !== undefined ? { seed } : {}) });
  process.env[EMBEDDED_URL_ENV] = sim.url;
  process.env[EMBEDDED_TOKEN_ENV] = sim.token;
  return async () => {
    delete process.env[EMBEDDED_URL_ENV];
    delete process.env[EMBEDDED_TOKEN_ENV];
    await sim.close();
  };
}
