import type { TestInfo } from '@playwright/test';
import type { ModelAdapter } from './adapter.js';
import { createModelAdapter, providerEnv } from '../../device-runtime/protocol/agent/providers.js';
import { ModelError } from '../../device-runtime/protocol/agent/model-error.js';
import { withAiErrors } from './anthropic.js';
import { cachePathFor, updateCache, type CacheEntry } from './cache.js';
import type { ApiName } from '../errors.js';
import { AiError } from './errors.js';
import { TestMeter } from './meter.js';
import { resolveAiOptions, type AiOptions } from './options.js';
import { TestSlot, type SlotStore } from '../core/test-slot.js';

/**
 * What the running test lends to its AI steps: the resolved `use.ai` options, the test's usage
 * meter, where its spec file's action cache is, and the entries to write if it passes. Set by
 * the `_ai` fixture (see {@link runWithAi}); outside a test, steps get defaults and no cache.
 */
export class AiTestContext {
  readonly meter: TestMeter;
  /** Cache entries of passing `act` steps, written when the test ends passed. */
  readonly staged = new Map<string, CacheEntry>();
  private adapterInstance: ModelAdapter | null = null;

  constructor(
    readonly options: AiOptions,
    readonly cacheFile: string | null,
    /** For tests of the adapter boundary: a model other than the configured provider. */
    private readonly adapterFactory?: () => ModelAdapter,
  ) {
    this.meter = new TestMeter(options.budget.test);
  }

  /** The model, created when the first request is needed: a run served from the cache needs no key. */
  adapter(api: ApiName): ModelAdapter {
    if (this.adapterInstance) return this.adapterInstance;
    if (this.adapterFactory) return (this.adapterInstance = this.adapterFactory());
    const o = this.options;
    const env = providerEnv(o.provider);
    const apiKey = o.apiKey ?? process.env[env.key];
    if (!apiKey && o.provider === 'anthropic') {
      throw new AiError(
        api,
        'AI_NO_API_KEY',
        `this step needs the model and no API key is set. Set the ANTHROPIC_API_KEY environment variable (or use.ai.apiKey in playwright.config.ts)` +
          `${this.cacheFile ? `, or record ${this.cacheFile} on a machine that has one and commit it so the step replays from the cache` : ''}.`,
      );
    }
    try {
      this.adapterInstance = withAiErrors(
        createModelAdapter(
          {
            provider: o.provider,
            apiKey,
            baseURL: o.baseURL,
            maxRetries: o.maxRetries,
            timeoutMs: o.requestTimeout,
            stream: o.stream,
          },
          'use.ai',
        ),
      );
    } catch (e) {
      if (e instanceof ModelError) throw new AiError(api, e.code, e.message);
      throw e;
    }
    return this.adapterInstance;
  }

  /** Mark an entry stale now, whatever the test's outcome (a failed replay is news). */
  async markStale(key: string, entry: CacheEntry, reason: string): Promise<void> {
    if (!this.cacheFile || this.options.cache !== 'read-write') return;
    await updateCache(this.cacheFile, (c) => {
      c.entries[key] = { ...entry, status: 'stale', staleReason: reason.split('\n')[0]!.slice(0, 300) };
    });
  }

  async flush(): Promise<void> {
    if (!this.cacheFile || this.options.cache !== 'read-write' || this.staged.size === 0) return;
    await updateCache(this.cacheFile, (c) => {
      for (const [k, e] of this.staged) c.entries[k] = e;
    });
    this.staged.clear();
  }
}

/** The running test's AI context, in its context (core/running-test.ts); outside a test, defaults and no cache. */
const AI_CONTEXT = new TestSlot<AiTestContext>('ai', () => new AiTestContext(resolveAiOptions({ cache: 'off' }), null));

export function currentAiContext(): AiTestContext {
  return AI_CONTEXT.current();
}

/**
 * The body of the `_ai` fixture: the test's AI context for its duration; when the test passed,
 * its `act` steps' cache entries are written to the spec file's cache.
 */
export async function runWithAi(
  test: SlotStore,
  raw: unknown,
  testInfo: TestInfo,
  use: () => Promise<void>,
  adapterFactory?: () => ModelAdapter,
): Promise<void> {
  const options = resolveAiOptions(raw);
  const ctx = new AiTestContext(options, options.cache === 'off' ? null : cachePathFor(testInfo.file), adapterFactory);
  test.set(AI_CONTEXT, ctx);
  await use();
  if (testInfo.status === 'passed') await ctx.flush();
}
