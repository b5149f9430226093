import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { DeviceClient } from '../../device-runtime/client/index.js';
import { DeviceError } from '../../device-runtime/client/index.js';
import { App } from './app.js';
import { AppDriver, type DriverOptions } from './driver.js';
import { formatTitle, TOOLS } from '../../device-runtime/protocol/index.js';
import { NestwrightError, type ApiName } from './errors.js';
import type { Trajectory } from './trajectory.js';
import type { TestContext } from './running-test.js';
import { SpaceCalls, type SpaceCall } from './space-call.js';

/**
 * Call `fn` again, with backoff (100 ms doubling to 2 s), while it fails with one of `codes`,
 * up to `budgetMs`; then fail with the last error, named after `api`.
 */
export async function withRetry<T>(api: ApiName, codes: string[], budgetMs: number, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof DeviceError) || !codes.includes(e.code)) throw e;
      if (Date.now() + wait > deadline) {
        throw new NestwrightError(api, `still ${e.code} after waiting ${budgetMs}ms: ${e.message}`, {
          cause: e,
          code: e.code,
        });
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

const looksLikeApk = (s: string) => /\.(apk|apks|xapk)$/i.test(s);
/** A content URI or other URL (`content://…`): read by the device, never resolved here. */
const looksLikeUri = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);

/**
 * `APK_NOT_FOUND`: the APK path names no file on this machine. Says the path as given, where it
 * was looked for and the directory a relative path is resolved from (the config file's, then the current directory).
 */
function apkNotFound(apk: string, local: string, base: string | undefined, cause: unknown): NestwrightError {
  const from =
    local === apk
      ? ''
      : ` (a relative path is resolved from the config file's folder, ${base ?? process.cwd()}, then from the current directory)`;
  return new NestwrightError(
    'space.install',
    `no APK at ${apk}: ${local} does not exist${from}. Set use.apk to the path of an .apk, .apks or .xapk file, relative to the config file or absolute, or to the package of an app already in the space.`,
    { code: 'APK_NOT_FOUND', cause },
  );
}

/** The install's idempotency key, `<space id>:<path>`; a path too long for the protocol's 200 characters goes by its hash. */
function installKey(space: string, file: string): string {
  const key = `${space}:${file}`;
  return key.length <= 200 ? key : `${space}:sha256:${createHash('sha256').update(file).digest('hex')}`;
}

/**
 * The file a relative APK path names: resolved from `base` (the config file's folder), as
 * Playwright resolves the paths of its config, so a run from another folder finds the same file.
 * A path that is there only from the current directory is still found there: a config written
 * when paths were read from the current directory keeps working.
 */
export function resolveApkPath(apk: string, base: string | undefined): string {
  if (isAbsolute(apk)) return apk;
  const fromConfig = resolve(base ?? process.cwd(), apk);
  if (existsSync(fromConfig)) return fromConfig;
  const fromCwd = resolve(apk);
  return existsSync(fromCwd) ? fromCwd : fromConfig;
}

/**
 * A virtual space owned by one worker: its own display, an EXCLUSIVE lease, the apps installed
 * into it once. Deleted when the worker ends.
 *
 * The `space` fixture is the worker's own; `device.newSpace()` makes another (a second screen).
 * Apps launched in a space take turns on its one screen; apps in two spaces run side by side.
 * Per space, not per test: what is installed, and a simulated app's backend (the chat server).
 *
 * @example
 * ```ts
 * import { test, expect, type Space } from 'nestwright';
 *
 * async function openSettings(space: Space) {
 *   return space.launch('com.android.settings');
 * }
 *
 * test('settings beside the app', async ({ app, space }) => {
 *   const settings = await openSettings(space);
 *   await expect(settings.getByDesc('Search settings')).toBeVisible();
 * });
 * ```
 */
export class Space {
  private installed = new Map<string, string>();
  /** The call context of this space's public methods (space-call.ts). */
  private readonly calls: SpaceCalls;

  private constructor(
    /** The device's protocol client the space was made with (every tool, validated both ways). */
    readonly client: DeviceClient,
    /** The space's id on the device (`space_id` in protocol calls). */
    readonly id: string,
    /** The space's name, e.g. `worker-0-0` for the fixture's, `extra-0` for `device.newSpace()`'s. */
    readonly name: string,
    /** The folder relative APK paths are resolved from (the config file's); the current directory when unset. */
    private readonly apkBase?: string,
  ) {
    this.calls = new SpaceCalls(client, id, { who: () => `space ${name}` });
  }

  /**
   * Create a space (`space_create`) and take its EXCLUSIVE lease (`session_acquire`, one hour),
   * queueing up to 60 s per try and trying again for two minutes while it is `SPACE_BUSY`.
   *
   * @internal The fixtures call it; a test uses `device.newSpace()`, which also deletes it.
   * @param apkBase The folder relative APK paths are resolved from: the config file's, in a test.
   */
  static async create(client: DeviceClient, name: string, apkBase?: string): Promise<Space> {
    const s = await client.call('space_create', { name });
    // SPACE_BUSY waits: session_acquire queues for the lease; if the queue gives up, ask again.
    await withRetry('space.create', ['SPACE_BUSY'], 120_000, () =>
      client.call('session_acquire', { space_id: s.space_id, mode: 'EXCLUSIVE', ttl_ms: 3_600_000, wait_ms: 60_000 }),
    );
    return new Space(client, s.space_id, s.name, apkBase);
  }

  /**
   * Install an APK into this space (`space_install_apk`, with the install preflight: ABI, page
   * size, signature…) and return its package name. Once per space and path: a second call with
   * the same path returns the package without asking the device, and the device call carries an
   * idempotency key (`<space id>:<path>`) so a retried install is not done twice. The app stays
   * until the space is deleted; its instances are what tests start and wipe. A refused APK throws a
   * `NestwrightError` named `space.install` with the device's message and code; a path that names
   * no file, `APK_NOT_FOUND`.
   *
   * `space.launch('x.apk')` and `use.apk` install for you; call it to install ahead of time or
   * to get the package name. A relative path is resolved from the folder of the config file, as
   * Playwright resolves its config's paths (or from the current directory, when the file is only there).
   *
   * @example
   * ```ts
   * const pkg = await space.install('fixtures/apks/chat.apk'); // 'com.nestwright.chat'
   * const chat = await space.launch(pkg);
   * ```
   */
  install(apk: string): Promise<string> {
    return this.calls.wrap('space.install', (sc) => this.installIn(sc, apk, true));
  }

  /** The install's body: a step of its own when `recorded` (a public call), one device call once per path. */
  private async installIn(sc: SpaceCall, apk: string, recorded: boolean): Promise<string> {
    // The protocol takes absolute paths: a relative one is resolved here (resolveApkPath).
    const local = looksLikeUri(apk) ? null : resolveApkPath(apk, this.apkBase);
    const file = local ?? apk;
    const known = this.installed.get(file);
    if (known) return known;
    const install = async () => {
      try {
        const r = await sc.calls.raw('space_install_apk', {
          space_id: this.id,
          apk_paths: [file],
          idempotency_key: installKey(this.id, file),
        });
        this.installed.set(file, r.package);
        return r.package;
      } catch (e) {
        // Asked only once the device refused: a remote runtime may read a path this machine lacks.
        if (local && e instanceof DeviceError && e.code !== 'DEVICE_DISCONNECTED' && !existsSync(local))
          throw apkNotFound(apk, local, this.apkBase, e);
        throw await sc.calls.translate(sc.call, e);
      }
    };
    return recorded ? sc.step(formatTitle(TOOLS.space_install_apk.title, { apk_paths: apk }), install) : install();
  }

  /**
   * Resolve `use.apk` (an APK path or a package name) to an installed package.
   *
   * @internal The `app` fixture calls it; tests use {@link Space.install} or {@link Space.launch}.
   */
  ensure(app: string): Promise<string> {
    return looksLikeApk(app)
      ? this.calls.wrap('space.install', (sc) => this.installIn(sc, app, false))
      : Promise.resolve(app);
  }

  /**
   * Launch a fresh instance of an app in this space and return it: `app` is a package name
   * (`'com.android.settings'`) or an APK path (`.apk`, `.apks`, `.xapk`: installed first, once, as
   * {@link Space.install} does). The instance's data is its own and it starts with the runtime
   * permissions of `use.permissions` (none by default); it is stopped and wiped when the test
   * ends. Inside a test its steps go to the test's trajectory. When every process slot of the
   * device is taken it waits for one (at least 30 s).
   *
   * @example
   * ```ts
   * const chat = await space.launch('fixtures/apks/chat.apk');
   * await chat.getById('name').fill('Dee');
   * await chat.getByRole('button', { name: 'Join' }).tap();
   * ```
   */
  launch(app: string): Promise<App>;
  /** @internal Outside a test (the CLI's skill run, benches): a trajectory and options of its own. */
  launch(app: string, trajectory?: Trajectory, options?: DriverOptions): Promise<App>;
  launch(app: string, trajectory?: Trajectory, options?: DriverOptions): Promise<App> {
    // The internal form (a CLI run, a bench) keeps its own trajectory to what the app does.
    return this.launchAs('space.launch', app, { trajectory, options, recorded: trajectory === undefined });
  }

  /**
   * The `app` fixture's launch of `use.apk`: the same call as {@link Space.launch} (named
   * `space.launch`, stopped when the test ends, a lost device fatal) but no step of the test's:
   * the trajectory begins with what the test does.
   *
   * @internal
   */
  launchForTest(app: string): Promise<App> {
    return this.launchAs('space.launch', app, { recorded: false });
  }

  private launchAs(
    api: string,
    app: string,
    how: { trajectory?: Trajectory | undefined; options?: DriverOptions | undefined; recorded: boolean },
  ): Promise<App> {
    return this.calls.wrap(api, async (sc) => {
      const { ctx } = sc;
      const trajectory = how.trajectory ?? ctx.trajectory;
      const options = how.options ?? ctx.options;
      const pkg = how.recorded && looksLikeApk(app) ? await this.install(app) : await this.installOr(sc, app);
      const title = formatTitle(TOOLS.space_launch.title, { package: pkg });
      const start = () => this.launchInstance(sc, app, pkg, trajectory, options, ctx);
      // The step is the new instance's (a video of it shows its launch), once it has one.
      const launched = await (how.recorded
        ? sc.step(title, async (record) => {
            const made = await start();
            record.instance = made.instance;
            return made;
          })
        : start());
      ctx.launched.push(launched);
      return launched;
    });
  }

  /** `app` as a package: installed first (no step of its own) when it is an APK path. */
  private installOr(sc: SpaceCall, app: string): Promise<string> {
    return looksLikeApk(app) ? this.installIn(sc, app, false) : Promise.resolve(app);
  }

  private async launchInstance(
    sc: SpaceCall,
    app: string,
    pkg: string,
    trajectory: Trajectory,
    options: DriverOptions,
    ctx: TestContext,
  ): Promise<App> {
    const { call, calls } = sc;
    const fresh = await this.client.hasExtension('instance');
    let launched;
    try {
      await this.permissionsIn(sc, pkg, ctx.permissions, ctx.appPackage === pkg);
      // More workers than process slots: wait for a slot (NO_PROCESS_SLOT is retryable).
      launched = await withRetry(
        call,
        ['NO_PROCESS_SLOT', 'SPACE_BUSY'],
        Math.max(30_000, options.actionTimeout * 6),
        () => calls.raw('space_launch', { space_id: this.id, package: pkg, ...(fresh ? { instance: 'new' } : {}) }),
      );
    } catch (e) {
      // The device's hint speaks to protocol callers (space_install_apk); a test sets use.apk.
      if (e instanceof DeviceError && e.code === 'APP_NOT_INSTALLED') {
        throw call.error(
          `${pkg} is not installed in the space. Set use.apk to its APK path (test.use({ apk: 'fixtures/apks/notes.apk' })), or pass the path to space.launch(), so it is installed first.`,
          { cause: e, code: 'APP_NOT_INSTALLED' },
        );
      }
      throw await calls.translate(call, e);
    }
    const driver = new AppDriver(this.client, this.id, pkg, fresh ? launched.instance : null, trajectory, options);
    // The test's features (world, video, device logs…) see the instance before the test does. One
    // that fails fails the launch, and the instance it started goes with it.
    await ctx.lifecycle.launched(driver).catch(async (e: unknown) => {
      await ctx.lifecycle.closing(driver).catch(() => {});
      await this.dispose(pkg, driver.instance).catch(() => {});
      throw e;
    });
    return new App(
      driver,
      () => this.launchAs('app.newInstance', app, { trajectory, options, recorded: true }),
      async () => {
        try {
          await ctx.lifecycle.closing(driver);
        } finally {
          await this.dispose(driver.pkg, driver.instance);
        }
      },
    );
  }

  /**
   * Before a test's instance starts: the app's runtime permissions in this space become exactly
   * `wanted` (those it requests), through `space_permissions` — whatever an earlier test granted,
   * at a prompt or up front, is revoked, as a Playwright context starts with none. With `strict`
   * (the app under test), a permission its manifest does not request is an error.
   *
   * @internal Called before each launch; tests set `use.permissions`.
   */
  resetPermissions(pkg: string, wanted: string[], strict: boolean): Promise<void> {
    return this.calls.wrap('use.permissions', (sc) =>
      this.permissionsIn(sc, pkg, wanted, strict).catch(async (e: unknown) => {
        throw await sc.calls.translate(sc.call, e);
      }),
    );
  }

  /** The permissions' body; device errors untranslated (the launch says what APP_NOT_INSTALLED means for a test). */
  private async permissionsIn(sc: SpaceCall, pkg: string, wanted: string[], strict: boolean): Promise<void> {
    if (!(await this.client.hasExtension('space_permissions'))) {
      if (wanted.length === 0) return;
      throw new NestwrightError(
        'use.permissions',
        `this device runtime cannot grant permissions (it does not offer space_permissions); remove use.permissions or grant them at the prompt in the test`,
        { code: 'NOT_SUPPORTED' },
      );
    }
    const call = (action: 'list' | 'grant' | 'revoke', permission?: string) =>
      sc.calls.raw('space_permissions', {
        space_id: this.id,
        package: pkg,
        action,
        ...(permission ? { permission } : {}),
      });
    const { granted, requested } = await call('list');
    const unknown = wanted.filter((p) => !requested.includes(p));
    if (strict && unknown.length > 0) {
      throw new NestwrightError(
        'use.permissions',
        `${pkg} does not request ${unknown.join(', ')}; the runtime permissions in its manifest are: ${requested.join(', ') || '(none)'}`,
        { code: 'USAGE' },
      );
    }
    const want = wanted.filter((p) => requested.includes(p));
    for (const p of granted) if (!want.includes(p)) await call('revoke', p);
    for (const p of want) if (!granted.includes(p)) await call('grant', p);
  }

  /**
   * Stop an instance and wipe its data (the end of a test).
   *
   * @internal Tests call `app.close()`.
   */
  async dispose(pkg: string, instance: string | null): Promise<void> {
    const clear = await this.client.hasExtension('clear_data');
    await this.client.call('space_stop', {
      space_id: this.id,
      package: pkg,
      ...(instance ? { instance, remove_instance: true } : {}),
      ...(clear ? { clear_data: true } : {}),
    });
  }

  /**
   * Delete the space (`space_delete`): its apps, instances and data. The fixtures do it when the
   * worker ends (the worker's space and every `device.newSpace()`); call it to free the device
   * earlier. The space is unusable afterwards.
   *
   * @example
   * ```ts
   * const other = await device.newSpace();
   * await other.delete();
   * ```
   */
  delete(): Promise<void> {
    return this.calls.wrap('space.delete', (sc) =>
      sc.step(formatTitle(TOOLS.space_delete.title, { space_id: this.id }), async () => {
        await sc.calls.call(sc.call, 'space_delete', { space_id: this.id, confirm: true });
      }),
    );
  }

  /**
   * Delete the space when its worker ends (the fixtures'): not a call of any test, so neither
   * refused by a test that ended nor recorded in one.
   *
   * @internal
   */
  async release(): Promise<void> {
    await this.client.call('space_delete', { space_id: this.id, confirm: true });
  }
}
