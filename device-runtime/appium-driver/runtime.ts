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

/**
 * One connection per runtime, shared by the sessions of this server: leases belong to a
 * connection, so sessions that share a space (`nestspace:space`, e.g. two users of one chat
 * room) act under the same lease instead of queueing behind each other. Each session still has
 * its own space or instance; the connection only carries the calls.
 */
const shared = new Map<string, { conn: Promise<{ client: DeviceClient; url: string; embedded: boolean; faults: string | null }>; users: number }>();

async function open(key: string, opts: { url?: string; token?: string; faults?: string }) {
  if (opts.url) return { client: new DeviceClient(await McpToolTransport.http(opts.url, opts.token ?? '')), url: opts.url, embedded: false, faults: null };
  const faults = opts.faults ?? process.env.NESTWRIGHT_FAULTS ?? 'instant';
  const sim = await acquireEmbedded(faults);
  try {
    return { client: new DeviceClient(await McpToolTransport.http(sim.url, sim.token)), url: sim.url, embedded: true, faults };
  } catch (e) {
    await releaseEmbedded(faults);
    throw e;
  }
}

export async function connectRuntime(opts: { url?: string; token?: string; faults?: string }): Promise<RuntimeConnection> {
  const key = opts.url ? `${opts.url} ${opts.token ?? ''}` : `embedded ${opts.faults ?? process.env.NESTWRIGHT_FAULTS ?? 'instant'}`;
  let entry = shared.get(key);
  if (!entry) {
    entry = { conn: open(key, opts), users: 0 };
    shared.set(key, entry);
    entry.conn.catch(() => shared.delete(key));
  }
  entry.users++;
  let c;
  try {
    c = await entry.conn;
  } catch (e) {
    entry.users--;
    throw e;
  }
  const mine = entry;
  let closed = false;
  return {
    client: c.client,
    url: c.url,
    embedded: c.embedded,
    async close() {
      if (closed) return;
      closed = true;
      if (--mine.users > 0) return;
      shared.delete(key);
      await c.client.close().catch(() => {});
      if (c.faults) await releaseEmbedded(c.faults);
    },
  };
}
