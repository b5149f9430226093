import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from '@playwright/test';
import type { App } from '../app.js';
import { inTest } from '../core/in-test.js';
import type { FlowScript } from './script.js';

export interface MaestroRunOptions {
  /** `--env K=V`: over every flow's own `env:` defaults. */
  env?: Record<string, string>;
  /** How long a lookup waits for an element, ms (Maestro: 17 000). */
  lookupTimeout?: number;
  /** How long an optional lookup or a `when`/`while` condition waits, ms (Maestro: 7 000). */
  optionalTimeout?: number;
  /** Time limit of one script evaluation, ms. */
  scriptTimeout?: number;
  /** Where `takeScreenshot` writes (default: the test's output directory, else the working directory). */
  outputDir?: string;
  /** Where `console.log` of scripts goes. */
  log?: (line: string) => void;
}

/** What a running flow shares: the instance (clearState replaces it), the script scope, the options. */
export interface RunState {
  app: App;
  script: FlowScript;
  opts: Required<Omit<MaestroRunOptions, 'outputDir' | 'log'>> & Pick<MaestroRunOptions, 'outputDir'>;
  /** The file of the flow being run, for messages. */
  where: string;
  /** Where the run prints (a script's `console.log`, an optional AI assertion that did not hold). */
  log: (line: string) => void;
}

/** Where takeScreenshot writes. */
export function screenshotPath(state: RunState, name: string): string {
  let dir = state.opts.outputDir ?? process.cwd();
  if (!state.opts.outputDir && inTest()) dir = test.info().outputDir;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, /\.png$/i.test(name) ? name : `${name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}
