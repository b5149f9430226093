import type { TestInfo, WorkerInfo } from '@playwright/test';
import { dirname } from 'node:path';
import { NestwrightError } from '../core/errors.js';
import type { InstanceFeature } from '../core/lifecycle.js';
import { FingerprintStore, type FingerprintUpdate } from './fingerprint-store.js';
import { Healer, type HealMode, type HealOption } from './healer.js';

export type { HealOption };

/**
 * Worker fixture: one fingerprint store per worker, written in one batch when the worker ends, as
 * `--update-snapshots` says (new locators only by default: see {@link FingerprintUpdate}).
 */
export async function healStore(
  {}: object,
  use: (s: FingerprintStore) => Promise<void>,
  info: WorkerInfo,
): Promise<void> {
  const store = new FingerprintStore(info.config.updateSnapshots as FingerprintUpdate);
  await use(store);
  store.flush();
}

/** The project directory: where playwright.config.ts is; proposals live under its `.nestwright/heal/`. */
export const projectDirOf = (info: { config: { configFile?: string; rootDir: string } }) =>
  info.config.configFile ? dirname(info.config.configFile) : info.config.rootDir;

const MODES: HealMode[] = ['off', 'suggest', 'auto'];

/** A test's healer from `use.heal`, or null when healing is off. Bad options fail the test with what to write. */
export function healerFor(option: HealOption, store: FingerprintStore, info: TestInfo): Healer | null {
  const mode = typeof option === 'string' ? option : (option?.mode ?? 'suggest');
  if (!MODES.includes(mode))
    throw new NestwrightError(
      'use.heal',
      `expected 'off', 'suggest', 'auto' or { mode, model }, got ${JSON.stringify(option)}`,
      { code: 'OPTION_INVALID' },
    );
  const model = typeof option === 'object' && option?.model ? option.model : null;
  if (model && typeof model !== 'string' && typeof model.choose !== 'function')
    throw new NestwrightError(
      'use.heal',
      `model must be a model id (e.g. 'claude-haiku-5-5', asked through use.ai's adapter) or have a choose(request) method (a HealArbiter; see nestwright/heal), got ${typeof model}`,
      { code: 'OPTION_INVALID' },
    );
  if (mode === 'off') return null;
  return new Healer(mode, store, projectDirOf(info), info.titlePath.slice(1).join(' › '), model);
}

/**
 * Healing as a lifecycle feature: when the test ends, the locators it resolved are fingerprinted
 * and the ones that moved are annotated (framework/core/lifecycle.ts).
 */
export function healFeature(healer: Healer): InstanceFeature {
  return { name: 'heal', ended: (end) => healer.finish(end) };
}
