import { DeviceClient, McpToolTransport } from '../client/index.js';

/**
 * The NestSpace runtime sessions talk to: the one at `nestspace:url` (MCP over HTTP), or a
 * simulated device embedded in this Appium server, reached through MCP over an in-memory
 * linked pair (the same client, schemas and validation both ways, no HTTP round trip: the
 * simulator lives in this process). Either way one connection per runtime is shared by the
 * server's sessions: leases belong to a connection, so sessions that share a space
 * (`nestspace:space`, e.g. two users of one chat room) act under the same lease instead of
 * queueing behind each other. Each session still has its own space or instance. The embedded
 * simulator starts with the first session that needs it and stops when the last one ends.
 */
export interface RuntimeConnection {
  client: DeviceClient;
  /** Where it is, for messages. */
  where: string;
  close(): Promise<void>;
}

interface Shared {
  client: DeviceClient;
  where: string;
  stop(): Promise<void>;
}

const shared = new Map<string, { conn: Promise<Shared>; users: number }>();

async function open(opts: { url?: string; token?: string; faults: string }): Promise<Shared> {
  if (opts.url) {
    const client = new DeviceClient(await McpToolTransport.http(opts.url, opts.token ?? ''));
    return { client, where: opts.url, stop: () => client.close() };
  }
  const { SimRuntime, inMemoryTransport, channelsFromEnv } = await import('../sim/index.js');
  const runtime = new SimRuntime({ faults: opts.faults as never, channels: channelsFromEnv() });
  const client = new DeviceClient(await McpToolTransport.connect(await inMemoryTransport(runtime, 'appium-nestspace')));
  return {
    client,
    where: `the embedded simulator (${opts.faults})`,
    async stop() {
      await client.close().catch(() => {});
      runtime.close();
    },
  };
}

export async function connectRuntime(opts: {
  url?: string;
  token?: string;
  faults?: string;
}): Promise<RuntimeConnection> {
  const faults = opts.faults ?? process.env.NESTWRIGHT_FAULTS ?? 'instant';
  const key = opts.url ? `${opts.url} ${opts.token ?? ''}` : `embedded ${faults}`;
  let entry = shared.get(key);
  if (!entry) {
    const conn = open({ ...opts, faults });
    entry = { conn, users: 0 };
    shared.set(key, entry);
    conn.catch(() => shared.delete(key));
  }
  entry.users++;
  let c: Shared;
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
    where: c.where,
    async close() {
      if (closed) return;
      closed = true;
      if (--mine.users > 0) return;
      shared.delete(key);
      await c.stop();
    },
  };
}
