import { DeviceError, type DeviceClient } from '../client/index.js';
import type { ToolInput, ToolName, ToolResult } from '../protocol/index.js';
import type { NestSpaceCaps } from './capabilities.js';
import { buildPageTree, type PageTree } from './page-source.js';
import { connectRuntime, type RuntimeConnection } from './runtime.js';

const looksLikeApk = (s: string) => /\.(apk|apks|xapk)$/i.test(s);

/**
 * Sessions of this server in each space the driver created. A session may join another's space
 * (`nestspace:space`); the space is deleted when the last of them ends, not under the others.
 */
const created = new Map<string, number>();

/**
 * What one Appium session owns on the NestSpace runtime: a connection, a space (its own unless
 * `nestspace:space` names one), and the instance of the app under test (a fresh one unless
 * `nestspace:instance` names one). Closing it stops the instance and wipes its data, deletes
 * the space it created, and disconnects. Knows nothing of WebDriver.
 */
export class SpaceSession {
  /** The latest observation, as a tree; actions act on its node ids and fall back when stale. */
  tree: PageTree | null = null;

  private constructor(
    private readonly conn: RuntimeConnection,
    readonly spaceId: string,
    private readonly ownsSpace: boolean,
    public pkg: string | null,
    public instance: string | null,
    private readonly ownsInstance: boolean,
  ) {}

  get client(): DeviceClient {
    return this.conn.client;
  }

  static async open(caps: NestSpaceCaps, name: string): Promise<SpaceSession> {
    const conn = await connectRuntime({
      url: caps['nestspace:url'],
      token: caps['nestspace:token'],
      faults: caps['nestspace:faults'],
    });
    const c = conn.client;
    let spaceId: string | null = null;
    let owns = false;
    try {
      if (caps['nestspace:space']) {
        spaceId = caps['nestspace:space'];
      } else {
        spaceId = (await c.call('space_create', { name })).space_id;
      }
      const users = created.get(spaceId);
      owns = users !== undefined || !caps['nestspace:space'];
      if (owns) created.set(spaceId, (users ?? 0) + 1);
      // The connection is shared by this server's sessions: it holds (or renews) the lease.
      await c.call('session_acquire', { space_id: spaceId, mode: 'EXCLUSIVE', ttl_ms: 3_600_000, wait_ms: 60_000 });
      let pkg = caps.appPackage ?? null;
      if (caps.app && looksLikeApk(caps.app)) {
        const r = await c.call('space_install_apk', {
          space_id: spaceId,
          apk_paths: [caps.app],
          idempotency_key: `${spaceId}:${caps.app}`,
        });
        pkg ??= r.package;
      } else if (caps.app) {
        pkg ??= caps.app;
      }
      let instance: string | null = null;
      const wanted = caps['nestspace:instance'];
      if (pkg) {
        const fresh = await c.hasExtension('instance');
        const r = await c.call('space_launch', {
          space_id: spaceId,
          package: pkg,
          ...(caps.appActivity ? { activity: caps.appActivity } : {}),
          ...(fresh ? { instance: wanted } : {}),
        });
        instance = r.instance;
      }
      return new SpaceSession(conn, spaceId, owns, pkg, instance, wanted === 'new');
    } catch (e) {
      if (owns && spaceId && release(spaceId))
        await c.call('space_delete', { space_id: spaceId, confirm: true }).catch(() => {});
      await conn.close();
      throw e;
    }
  }

  call<N extends ToolName>(name: N, input: Omit<ToolInput<N>, 'space_id'>): Promise<ToolResult<N>> {
    return this.client.call(name, { space_id: this.spaceId, ...input } as ToolInput<N>);
  }

  /**
   * Observe the screen (every node, as UiAutomator2 shows them). When another instance is in
   * front of a shared space, ours is brought back first; a tree missing in a transition is
   * observed again.
   */
  async observe(): Promise<PageTree> {
    for (let attempt = 0; ; attempt++) {
      let obs = await this.call('ui_observe', { detail: 'full', max_nodes: 5000 });
      if (this.pkg && this.instance && obs.instance && obs.instance !== this.instance && obs.package !== null) {
        await this.call('space_launch', { package: this.pkg, instance: this.instance });
        obs = await this.call('ui_observe', { detail: 'full', max_nodes: 5000 });
      }
      if (obs.tree_missing && attempt < 20) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      this.tree = buildPageTree(obs);
      return this.tree;
    }
  }

  async close(): Promise<void> {
    try {
      if (this.pkg && this.instance && this.ownsInstance) {
        const clear = await this.client.hasExtension('clear_data');
        await this.call('space_stop', {
          package: this.pkg,
          instance: this.instance,
          remove_instance: true,
          ...(clear ? { clear_data: true } : {}),
        }).catch(ignoreGone);
      }
      if (this.ownsSpace && release(this.spaceId)) await this.call('space_delete', { confirm: true }).catch(ignoreGone);
    } finally {
      await this.conn.close();
    }
  }
}

/** One session of a created space ended; true when it was the last. */
function release(spaceId: string): boolean {
  const n = (created.get(spaceId) ?? 1) - 1;
  if (n > 0) created.set(spaceId, n);
  else created.delete(spaceId);
  return n <= 0;
}

function ignoreGone(e: unknown): void {
  if (e instanceof DeviceError && ['SPACE_NOT_FOUND', 'INSTANCE_NOT_FOUND', 'DEVICE_DISCONNECTED'].includes(e.code))
    return;
  throw e;
}
