import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import { inMemoryTransport } from '../../device-runtime/sim/mcp.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import type { SimOptions } from '../../device-runtime/sim/index.js';
import { resolveConfig } from '../../cli/crawl/config.js';
import { runCrawl, type RunCrawlResult } from '../../cli/crawl/run.js';

/** A crawl on an in-process simulator (no Chromium: the help page is a box), closed afterwards. */
export async function crawlOnSim(
  app: string,
  opts: { config?: unknown; instances?: number; minutes?: number; sim?: SimOptions; log?: string[] } = {},
): Promise<RunCrawlResult> {
  const rt = new SimRuntime({ chromium: false, ...opts.sim });
  const client = new DeviceClient(await McpToolTransport.connect(await inMemoryTransport(rt)));
  try {
    return await runCrawl({
      client,
      app,
      instances: opts.instances ?? 2,
      minutes: opts.minutes ?? 3,
      seed: 1,
      config: resolveConfig(opts.config ?? {}, null),
      screenshots: false,
      log: (l) => opts.log?.push(l),
    });
  } finally {
    await client.close();
    rt.close();
  }
}
