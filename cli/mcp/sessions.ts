import path from 'node:path';
import type { DeviceClient } from '../../device-runtime/client/index.js';
import type { Observation } from '../../device-runtime/protocol/index.js';
import { connectDevice, startEmbeddedDevice, type EmbeddedDevice } from '../../device-runtime/providers/index.js';
import type { App } from '../../framework/core/app.js';
import { Space } from '../../framework/core/space.js';
import { Trajectory } from '../../framework/core/trajectory.js';
import { AgentError } from './errors.js';

/** A live app instance held for an agent: its own space (own screen, EXCLUSIVE lease) and instance. */
export interface LiveSession {
  id: string;
  owner: string;
  app: App;
  space: Space;
  /** The last screen the agent was shown: node ids in later calls refer to it. */
  last: Observation | null;
}

interface Connection {
  client: DeviceClient;
  close(): Promise<void>;
}

/**
 * The live sessions of one `nestwright mcp` process. Devices are connected once and shared; with
 * no device given, one simulated device is started in this process on first use. Each session
 * belongs to the MCP session that opened it and is closed with it.
 */
export class SessionManager {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly devices = new Map<string, Promise<Connection>>();
  private embedded: Promise<EmbeddedDevice> | null = null;
  private next = 1;

  constructor(
    private readonly root: string,
    private readonly actionTimeout = 5_000,
  ) {}

  private device(options: unknown): Promise<Connection> {
    const key = JSON.stringify(options ?? null);
    let conn = this.devices.get(key);
    if (!conn) {
      conn = (async () => {
        if (options) return connectDevice(options);
        this.embedded ??= startEmbeddedDevice();
        const sim = await this.embedded;
        return connectDevice({ provider: 'sim', url: sim.url, token: sim.token });
      })();
      conn.catch(() => this.devices.delete(key));
      this.devices.set(key, conn);
    }
    return conn;
  }

  async open(owner: string, app: string, device: unknown): Promise<LiveSession> {
    const { client } = await this.device(device);
    const id = `s${this.next++}`;
    const space = await Space.create(client, `mcp-${id}`);
    try {
      // APK paths are the project's: relative to its root, as in playwright.config.ts.
      const source = /\.(apk|apks|xapk)$/i.test(app) ? path.resolve(this.root, app) : app;
      const launched = await space.launch(source, new Trajectory(), {
        actionTimeout: this.actionTimeout,
        expectTimeout: this.actionTimeout,
        screenshot: 'off',
      });
      const session: LiveSession = { id, owner, app: launched, space, last: null };
      this.sessions.set(id, session);
      return session;
    } catch (e) {
      await space.delete().catch(() => {});
      throw e;
    }
  }

  get(owner: string, id: string): LiveSession {
    const s = this.sessions.get(id);
    if (!s || s.owner !== owner) {
      const mine = [...this.sessions.values()].filter((x) => x.owner === owner).map((x) => x.id);
      throw new AgentError(
        'SESSION_NOT_FOUND',
        `no live app session ${JSON.stringify(id)}${mine.length ? `; open: ${mine.join(', ')}` : ''}`,
        'Open one with open_app; sessions end with close_app or when the MCP connection closes.',
      );
    }
    return s;
  }

  async close(owner: string, id: string): Promise<void> {
    const s = this.get(owner, id);
    this.sessions.delete(id);
    await s.app.close().catch(() => {});
    await s.space.delete().catch(() => {});
  }

  /** The MCP connection went away: close everything it held. */
  async closeOwner(owner: string): Promise<void> {
    for (const s of [...this.sessions.values()]) if (s.owner === owner) await this.close(owner, s.id);
  }

  count(): number {
    return this.sessions.size;
  }

  async shutdown(): Promise<void> {
    for (const s of [...this.sessions.values()]) await this.close(s.owner, s.id);
    for (const conn of this.devices.values()) await (await conn.catch(() => null))?.close().catch(() => {});
    this.devices.clear();
    await (await this.embedded?.catch(() => null))?.close();
  }
}
