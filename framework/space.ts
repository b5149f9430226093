import type { DeviceClient } from '../device-runtime/client/index.js';
import { DeviceError } from '../device-runtime/client/index.js';
import { App } from './app.js';
import { AppDriver, type DriverOptions } from './driver.js';
import { NestwrightError } from './errors.js';
import type { Trajectory } from './trajectory.js';

const looksLikeApk = (s: string) => /\.(apk|apks|xapk)$/i.test(s);

/**
 * A virtual space owned by one worker: its own display, an EXCLUSIVE lease, the apps installed
 * into it once. Deleted when the worker ends.
 */
export class Space {
  private installed = new Map<string, string>();

  private constructor(
    readonly client: DeviceClient,
    readonly id: string,
    readonly name: string,
  ) {}

  static async create(client: DeviceClient, name: string): Promise<Space> {
    const s = await client.call('space_create', { name });
    // SPACE_BUSY waits: session_acquire queues for the lease.
    await client.call('session_acquire', { space_id: s.space_id, mode: 'EXCLUSIVE', ttl_ms: 3_600_000, wait_ms: 60_000 });
    return new Space(client, s.space_id, s.name);
  }

  /** Install an APK (idempotent: once per space and path); returns the package name. */
  async install(apk: string): Promise<string> {
    const known = this.installed.get(apk);
    if (known) return known;
    try {
      const r = await this.client.call('space_install_apk', { space_id: this.id, apk_paths: [apk], idempotency_key: `${this.id}:${apk}` });
      this.installed.set(apk, r.package);
      return r.package;
    } catch (e) {
      throw new NestwrightError('space.install', e instanceof Error ? e.message : String(e), { cause: e });
    }
  }

  /** Resolve `use.app` (a package name or an APK path) to an installed package. */
  async ensure(app: string): Promise<string> {
    return looksLikeApk(app) ? this.install(app) : app;
  }

  /**
   * Launch a fresh instance of an app (package or APK path) in this space. Its data is its own;
   * `dispose` stops it and wipes its data.
   */
  async launch(app: string, trajectory: Trajectory, options: DriverOptions): Promise<App> {
    const pkg = await this.ensure(app);
    const fresh = await this.client.hasExtension('instance');
    let launched;
    try {
      launched = await this.client.call('space_launch', { space_id: this.id, package: pkg, ...(fresh ? { instance: 'new' } : {}) });
    } catch (e) {
      if (e instanceof DeviceError && e.code === 'APP_NOT_INSTALLED') {
        throw new NestwrightError('space.launch', `${pkg} is not installed in the space. Set use.app to the APK path (e.g. 'fixtures/apks/notes.apk') so it is installed first.`, { cause: e });
      }
      throw e;
    }
    const driver = new AppDriver(this.client, this.id, pkg, fresh ? launched.instance : null, trajectory, options);
    return new App(driver, () => this.launch(app, trajectory, options));
  }

  /** Stop an instance and wipe its data (the end of a test). */
  async dispose(app: App): Promise<void> {
    const clear = await this.client.hasExtension('clear_data');
    await this.client.call('space_stop', {
      space_id: this.id,
      package: app.package,
      ...(app.instance ? { instance: app.instance, remove_instance: true } : {}),
      ...(clear ? { clear_data: true } : {}),
    });
  }

  async delete(): Promise<void> {
    await this.client.call('space_delete', { space_id: this.id, confirm: true });
  }
}
