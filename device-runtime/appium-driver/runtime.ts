import { DeviceClient, McpToolTransport } from '../client/index.js';

/**
 * The NestSpace runtime a session talks to: the one at `nestspace:url`, or an embedded
 * simulator shared by every session of this Appium server that names none (one simulated
 * device, many sessions on it, as one phone serves many instances). The embedded one starts
 * with the first session that needs it and stops when the last one ends.
 */
interface Embedded {
  url: string;
  token: string;
  close(): Promise<void>;
}

const embedded = new Map<string, { sim: Promise<Embedded>; users: number }>();

async function acquireEmbedded(faults: string): Promise<Embedded> {
  let entry = embedded.get(faults);
  if (!entry) {
    const sim = (async () => {
      const { startSimServer, channelsFromEnv } = await import('../sim/index.js');
      return (await startSimServer({ faults, channels: channelsFromEnv() } as never)) as Embedded;
    })();
    entry = { sim, users: 0 };
    embedded.set(faults, entry);
    sim.catch(() => embedded.delete(faults));
  }
  entry.users++;
  return entry.sim;
}

async function releaseEmbedded(faults: string): Promise<void> {
  const entry = embedded.get(faults);
  if (!entry || --entry.users > 0) return;
  embedded.delete(faults);
  await (await entry.sim).close();
}

export interface RuntimeConnection {
  client: DeviceClient;
  /** Where it is, for messages. */
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

export async function connectRuntime(opts: { url?: string; token?: string; faults?: string }): Promise<RuntimeConnection> {
  if (opts.url) {
    const client = new DeviceClient(await McpToolTransport.http(opts.url, opts.token ?? ''));
    return { client, url: opts.url, embedded: false, close: () => client.close() };
  }
  const faults = opts.faults ?? process.env.NESTWRIGHT_FAULTS ?? 'instant';
  const sim = await acquireEmbedded(faults);
  try {
    const client = new DeviceClient(await McpToolTransport.http(sim.url, sim.token));
    return {
      client,
      url: sim.url,
      embedded: true,
      async close() {
        await client.close().catch(() => {});
        await releaseEmbedded(faults);
      },
    };
  } catch (e) {
    await releaseEmbedded(faults);
    throw e;
  }
}
