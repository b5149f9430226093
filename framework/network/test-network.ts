import { rm } from 'node:fs/promises';
import type { TestInfo } from '@playwright/test';
import { NestwrightError } from '../core/errors.js';
import type { InstanceFeature } from '../core/lifecycle.js';
import { TestSlot } from '../core/test-slot.js';
import { writeHar } from './har-write.js';
import { checkHarOptions } from './har-options.js';
import type { Exchange, RouteEntry } from './proxy.js';
import { matcherProblem, urlMatches } from './url-match.js';

/** `use.recordHar`, Playwright's option: every request of the test written to `path` as HAR. */
export interface RecordHarOptions {
  /** Where the HAR goes (relative to the working directory). */
  path: string;
  /** Only requests whose URL this matches (a glob or a RegExp). */
  urlFilter?: string | RegExp;
  /**
   * Headers whose values the HAR leaves out (any case), e.g. `['authorization', 'cookie',
   * 'set-cookie']`: each stays by name with the value `[redacted]`. Also applies to the
   * `network.har` attached to a failed test. Without it the HAR keeps every header, as
   * Playwright's does.
   */
  redact?: string[];
  /**
   * Where bodies go: `'embed'` in the HAR (the default for a `.har`), `'attach'` in files beside
   * it named by their SHA-1 (the default for a `.zip`, where they go in the archive), `'omit'`
   * nowhere.
   */
  content?: 'omit' | 'embed' | 'attach';
  /** `'full'` (default) keeps sizes, timings and pages; `'minimal'` only what a replay needs. */
  mode?: 'minimal' | 'full';
}

const RECORD_HAR_OPTIONS = ['path', 'urlFilter', 'redact', 'content', 'mode'] as const;

/** What a test's network keeps of one instance's (AppNetwork). */
export interface InstanceNetwork {
  readonly exchanges: readonly Exchange[];
  readonly failure: NestwrightError | null;
  /** The routes still in place. */
  readonly routes: readonly RouteEntry[];
  /** The last requests (most recent last), as `GET https://…`. */
  lastRequests(): string[];
  close(): Promise<void>;
}

/** The name of the HAR attached to a failed test. */
export const HAR_ATTACHMENT = 'network.har';

/**
 * The network of one test: the instances whose network it used, its `use.recordHar`, and what
 * happens when it ends — the HAR written (recordHar) or attached (the test failed), every
 * instance's proxy taken off and stopped, and the first route handler error handed back for the
 * fixture to fail the test with.
 *
 * Not public API: the fixture's.
 */
export class TestNetwork {
  private readonly nets = new Set<InstanceNetwork>();

  /** @throws NestwrightError (`use.recordHar: …`, USAGE) for options it does not know or cannot use. */
  constructor(readonly recordHar: RecordHarOptions | undefined) {
    if (recordHar === undefined) return;
    checkHarOptions('use.recordHar', recordHar, RECORD_HAR_OPTIONS);
    if (typeof recordHar.path !== 'string' || !recordHar.path)
      throw new NestwrightError(
        'use.recordHar',
        `path is required: where the HAR is written, e.g. { path: 'fixtures/har/catalog.har' }`,
        {
          code: 'USAGE',
        },
      );
    const filter: unknown = recordHar.urlFilter;
    if (filter !== undefined && (typeof filter === 'function' || matcherProblem(filter)))
      throw new NestwrightError(
        'use.recordHar',
        `urlFilter is a glob or a RegExp, got ${JSON.stringify(filter)}${typeof filter === 'string' ? ` (${matcherProblem(filter)})` : ''}`,
        {
          code: 'USAGE',
        },
      );
  }

  add(net: InstanceNetwork): void {
    this.nets.add(net);
  }

  /** At the test's end: returns the name of the HAR attached (if any) and the error to fail the test with. */
  async finish(
    testInfo: Pick<TestInfo, 'status' | 'expectedStatus' | 'outputPath' | 'attach'>,
  ): Promise<{ har: string | null; failure: NestwrightError | null }> {
    const nets = [...this.nets];
    for (const n of nets) await n.close();
    const all = nets.flatMap((n) => n.exchanges).sort((a, b) => a.request._startedAt - b.request._startedAt);
    const redact = this.recordHar?.redact;
    if (this.recordHar) {
      const { urlFilter: filter, content, mode } = this.recordHar;
      const kept = filter ? all.filter((x) => urlMatches(filter, x.request.url())) : all;
      await writeHar(this.recordHar.path, kept, { redact, content, mode });
    }
    let har: string | null = null;
    if (testInfo.status !== testInfo.expectedStatus && all.length > 0) {
      // Attached as a file of the user's alone (Playwright copies it, mode and all, into the
      // test's attachments), not as bytes a reporter writes with its own mode.
      const file = testInfo.outputPath(HAR_ATTACHMENT);
      await writeHar(file, all, { redact });
      await testInfo.attach(HAR_ATTACHMENT, { path: file, contentType: 'application/json' });
      await rm(file, { force: true });
      har = HAR_ATTACHMENT;
    }
    // Whatever else failed: Playwright reports a route handler's error (an unhandled rejection)
    // with the test's own failure, not instead of it, and so does the fixture (a teardown error
    // joins the test's errors).
    const failure = nets.map((n) => n.failure).find((f) => f) ?? null;
    return { har, failure: failure ?? (testInfo.status === 'timedOut' ? unmatchedRoutes(nets) : null) };
  }
}

/**
 * A test that timed out with routes that matched no request (it may have waited on one): which,
 * and what the instances did request instead, as Playwright users look for in its report.
 */
function unmatchedRoutes(nets: InstanceNetwork[]): NestwrightError | null {
  const idle = nets.flatMap((n) => n.routes.filter((r) => !r.matched).map((r) => r.label));
  if (idle.length === 0) return null;
  const last = nets.flatMap((n) => n.lastRequests()).slice(-5);
  return new NestwrightError(
    'app.route',
    `the test timed out, and ${idle.join(', ')} matched no request. ${
      last.length
        ? `The instance's last requests (most recent last):\n${last.map((r) => `  ${r}`).join('\n')}`
        : 'The instance made no request.'
    }\nCheck the pattern against these URLs (a glob matches the whole URL: '**/products*').`,
    { code: 'TIMEOUT' },
  );
}

/** The running test's network, in its context (core/running-test.ts); none outside a test. */
export const TEST_NETWORK = new TestSlot<TestNetwork | null>('network', () => null);

/** @internal The running test's network (one test at a time per worker), or null outside a test. */
export function currentTestNetwork(): TestNetwork | null {
  return TEST_NETWORK.current();
}

/**
 * The network as a lifecycle feature: when the test ends, before its instances go, the HAR is
 * written (`use.recordHar`) or attached (the test failed) as `network.har`, every instance's
 * proxy is taken off, and a route handler's error fails the test.
 */
export function networkFeature(network: TestNetwork): InstanceFeature {
  return {
    name: 'network',
    async ended(end) {
      const { har, failure } = await network.finish({
        status: end.outcome.status,
        expectedStatus: end.outcome.expectedStatus,
        outputPath: (...p: string[]) => end.outputPath(...p),
        attach: async (name: string, a: { path?: string; body?: string | Buffer; contentType?: string }) =>
          end.attach({ name, contentType: a.contentType ?? 'application/octet-stream', ...a }),
      });
      if (har) end.failureArtifact('har', har);
      if (failure) throw failure;
    },
  };
}
