/**
 * The crawl's steering file (`--config crawl.config.json`): what not to touch, what to type into
 * named fields (a secret by the name of the environment variable that holds it, so its value is
 * never written anywhere), and a start path for apps behind a sign-in. JSON, checked with zod:
 * every problem is reported with its path before a device is touched.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../../device-runtime/protocol/index.js';
import { parseSelector, type Step } from '../../framework/core/selector.js';
import { InputValueSchema, type InputValue } from './model.js';

export const CrawlConfigSchema = z
  .object({
    /** Controls never touched, as `app.locator()` selectors: `text=Log out`, `id=delete_account`, `desc=Leave room`. */
    avoid: z.array(z.string().min(1)).default([]),
    /**
     * What to type into a field, by its resource id (`email`), hint (`Password`) or label:
     * `"ana@example.com"` or `{ "secret": "SHOP_PASSWORD" }` (the environment variable's value is
     * typed; `[secret]` is all that is ever written).
     */
    inputs: z.record(z.string().min(1), InputValueSchema).default({}),
    /** Run before every branch, from the fresh instance: a skill (its path, relative to this file). */
    start: z.object({ skill: z.string().min(1), params: z.record(z.string(), z.string()).optional() }).optional(),
    /**
     * Entries besides the launcher, its exported activities and its deep links: `all` also starts
     * the activities the manifest does not export (the container can start any activity of its app).
     */
    activities: z.enum(['exported', 'all']).default('exported'),
  })
  .strict();
export type CrawlConfig = z.infer<typeof CrawlConfigSchema>;

/** The config with its selectors parsed and its secrets read from the environment. */
export interface ResolvedConfig {
  config: CrawlConfig;
  avoid: Array<{ selector: string; steps: Step[] }>;
  /** Input values by lower-cased field name. */
  inputs: Map<string, InputValue>;
  /** The start skill's absolute path. */
  startSkill: string | null;
}

/** A bad config or option: the command exits 2 with `message`. */
export class CrawlUsageError extends Error {
  override readonly name = 'CrawlUsageError';
  readonly code = 'USAGE';
}

export function resolveConfig(raw: unknown, file: string | null): ResolvedConfig {
  const where = file ? path.basename(file) : 'crawl config';
  const parsed = CrawlConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new CrawlUsageError(`${where}: ${describeIssues(parsed.error, 'config')}`);
  const config = parsed.data;
  const avoid = config.avoid.map((selector, i) => {
    try {
      return { selector, steps: parseSelector(selector, `${where} avoid[${i}]`) };
    } catch (e) {
      throw new CrawlUsageError((e as Error).message);
    }
  });
  for (const [name, v] of Object.entries(config.inputs)) {
    if (typeof v === 'object' && process.env[v.secret] === undefined)
      throw new CrawlUsageError(
        `${where}: inputs.${name} refers to the secret ${v.secret}, but the environment variable ${v.secret} is not set; set it before crawling`,
      );
  }
  const inputs = new Map(Object.entries(config.inputs).map(([k, v]) => [k.toLowerCase(), v]));
  const startSkill = config.start ? path.resolve(file ? path.dirname(file) : '.', config.start.skill) : null;
  return { config, avoid, inputs, startSkill };
}

export function loadConfig(file: string | undefined): ResolvedConfig {
  if (!file) return resolveConfig({}, null);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CrawlUsageError(`--config ${file}: ${(e as Error).message}`);
  }
  return resolveConfig(raw, path.resolve(file));
}

/** The text a value types: a secret's from the environment (only here), a plain one as it is. */
export function typedValue(v: InputValue): string {
  return typeof v === 'string' ? v : (process.env[v.secret] ?? '');
}
