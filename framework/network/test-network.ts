import type { TestInfo } from '@playwright/test';
import type { NestwrightError } from '../errors.js';
import { harDocument, writeHar } from './har.js';
import type { Exchange } from './proxy.js';
import { urlMatches } from './url-match.js';

/** `use.recordHar`, Playwright's option: every request of the test written to `path` as HAR. */
export interface RecordHarOptions {
  /** Where the HAR goes (relative to the working directory). */
  path: string;
  /** Only requests whose URL this matches (a glob or a RegExp). */
  urlFilter?: string | RegExp;
}

/** What a test's network keeps of one instance's (AppNetwork). */
export interface InstanceNetwork {
  readonly exchanges: readonly Exchange[];
  readonly failure: NestwrightError | null;
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
 * @internal The fixture's.
 */
export class TestNetwork {
  private readonly nets = new Set<InstanceNetwork>();

  constructor(readonly recordHar: RecordHarOptions | undefined) {}

  add(net: InstanceNetwork): void {
    this.nets.add(net);
  }

  /** At the test's end: returns the name of the HAR attached (if any) and the first handler error. */
  async finish(testInfo: TestInfo): Promise<{ har: string | null; failure: NestwrightError | null }> {
    const nets = [...this.nets];
    for (const n of nets) await n.close();
    const all = nets.flatMap((n) => n.exchanges).sort((a, b) => a.request._startedAt - b.request._startedAt);
    if (this.recordHar) {
      const filter = this.recordHar.urlFilter;
      await writeHar(this.recordHar.path, filter ? all.filter((x) => urlMatches(filter, x.request.url())) : all);
    }
    let har: string | null = null;
    if (testInfo.status !== testInfo.expectedStatus && all.length > 0) {
      await testInfo.attach(HAR_ATTACHMENT, {
        body: JSON.stringify(harDocument(all), null, 2),
        contentType: 'application/json',
      });
      har = HAR_ATTACHMENT;
    }
    return { har, failure: nets.map((n) => n.failure).find((f) => f) ?? null };
  }
}

let current: TestNetwork | null = null;

/** @internal The running test's network (one test at a time per worker), or null outside a test. */
export function currentTestNetwork(): TestNetwork | null {
  return current;
}

/** @internal The fixture's: begin (a TestNetwork) or end (null) a test's network. */
export function setTestNetwork(net: TestNetwork | null): void {
  current = net;
}
