import { defineConfig as pwDefineConfig, type PlaywrightTestConfig } from '@playwright/test';
import type { NestwrightUse } from './fixtures.js';
import { ownModule } from '../core/package-root.js';

type Use = Omit<NonNullable<PlaywrightTestConfig['use']>, keyof NestwrightUse> & NestwrightUse;
type Config = Omit<PlaywrightTestConfig, 'use' | 'projects'> & {
  use?: Use;
  projects?: Array<Omit<NonNullable<PlaywrightTestConfig['projects']>[number], 'use'> & { use?: Use }>;
};

// dist/framework/runner/global-setup.js compiled, framework/runner/global-setup.ts when run from source.
const GLOBAL_SETUP = ownModule('framework/runner/global-setup');

/**
 * Playwright's defineConfig, plus nestwright's global setup: one embedded simulated device for
 * the whole run (shared by every worker, each in its own space) when `use.deviceOptions` is the sim.
 */
export function defineConfig(config: Config): PlaywrightTestConfig {
  const setups = [config.globalSetup ?? []].flat();
  return pwDefineConfig({ ...(config as PlaywrightTestConfig), globalSetup: [GLOBAL_SETUP, ...setups] });
}
