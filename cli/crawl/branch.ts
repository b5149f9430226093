/**
 * One branch of the crawl on one instance: bring a fresh instance to a screen by its path, do
 * one action, and see where it leads. Every action goes through the framework's own locators
 * (auto-waiting, strict, the same road a spec's tap takes), so a path that works here works as
 * a spec. A crash is caught as the framework reports it (AppCrashedError: the runtime's reason
 * and the instance's logcat).
 */
import type { DeviceClient } from '../../device-runtime/client/index.js';
import type { Observation } from '../../device-runtime/protocol/index.js';
import { secret } from '../../framework/core/secret.js';
import type { App } from '../../framework/core/app.js';
import { AppCrashedError } from '../../framework/core/errors.js';
import type { Space } from '../../framework/core/space.js';
import { Trajectory } from '../../framework/core/trajectory.js';
import { typedValue, type ResolvedConfig } from './config.js';
import type { Action, CrawlPath, Entry, InputValue } from './model.js';

export interface BranchEnv {
  client: DeviceClient;
  space: Space;
  /** What `space.launch` takes: the APK path, or the package of an installed (system) app. */
  apk: string;
  pkg: string;
  config: ResolvedConfig;
  /** Action timeout, ms (already scaled to the device). */
  timeout: number;
  /** `instances`: each branch a fresh instance; `clear-data`: one copy, stopped and wiped between branches. */
  mode: 'instances' | 'clear-data';
}

/** What an action led to. */
export type Outcome =
  | { kind: 'screen'; obs: Observation; stable: boolean }
  | { kind: 'crash'; reason: string; log: string[] }
  | { kind: 'failed'; error: string };

const fillValue = (v: InputValue) => (typeof v === 'string' ? v : secret(typedValue(v)));

/** An instance of the app the crawler drives, and the path it has walked since it started. */
export class BranchInstance {
  /** The path walked so far on this instance (its history), null once it can no longer be trusted. */
  history: CrawlPath | null = null;

  private constructor(
    private readonly env: BranchEnv,
    readonly app: App,
  ) {}

  /** The space the instance is in (its display is the one observed and pictured). */
  get spaceId(): string {
    return this.env.space.id;
  }

  /** A fresh instance at `entry` (the start skill first, when configured), and what it shows. */
  static async start(env: BranchEnv, entry: Entry): Promise<{ branch: BranchInstance; outcome: Outcome }> {
    const app = await env.space.launch(env.apk, new Trajectory(), {
      actionTimeout: env.timeout,
      expectTimeout: env.timeout,
    });
    const branch = new BranchInstance(env, app);
    try {
      if (env.config.startSkill) {
        const run = await app.runSkill(env.config.startSkill, env.config.config.start?.params ?? {});
        if (!run.ok) return { branch, outcome: { kind: 'failed', error: `start skill: ${run.error?.message}` } };
      }
      if (entry.kind === 'launch' && entry.activity) await app.launch({ activity: entry.activity });
      if (entry.kind === 'deepLink') await app.intent({ data: entry.uri });
    } catch (e) {
      return { branch, outcome: await branch.failure(e) };
    }
    branch.history = { entry, actions: [] };
    return { branch, outcome: await branch.settle() };
  }

  /** Walk `actions` (a path's), stopping at the first that does not lead on. */
  async walk(actions: Action[]): Promise<Outcome> {
    let last: Outcome = await this.settle();
    for (const a of actions) {
      last = await this.act(a);
      if (last.kind !== 'screen') return last;
    }
    return last;
  }

  /** Do one action and settle on what it shows. */
  async act(a: Action): Promise<Outcome> {
    try {
      await this.perform(a);
    } catch (e) {
      const f = await this.failure(e);
      if (f.kind === 'failed') this.history = null;
      return f;
    }
    this.history?.actions.push(a);
    return this.settle();
  }

  private async perform(a: Action): Promise<void> {
    const { app } = this;
    switch (a.kind) {
      case 'back':
        return app.press('back');
      case 'tap':
        return app.locator(a.selector).tap();
      case 'longPress':
        return app.locator(a.selector).longPress();
      case 'swipe':
        return app.locator(a.selector).swipe('up');
      case 'fill':
        await app.locator(a.selector).fill(fillValue(a.value));
        return app.hideKeyboard();
      case 'submit':
        for (const f of a.fields) {
          await app.locator(f.selector).fill(fillValue(f.value));
          await app.hideKeyboard();
        }
        for (const c of a.checks) await app.locator(c.selector).tap();
        return app.locator(a.selector).tap();
    }
  }

  /**
   * Wait for the app to be idle (bounded: a screen that never settles is taken as it is), then
   * look twice, as the screen is: an action that left the app (back from its first screen) shows
   * what is in front instead, and a crash is reported as the framework reports it.
   */
  async settle(): Promise<Outcome> {
    const space_id = this.env.space.id;
    try {
      await this.env.client.call('ui_wait_for', { space_id, idle: true, timeout_ms: this.env.timeout });
      const look = () => this.env.client.call('ui_observe', { space_id, detail: 'full', max_nodes: 400 });
      let obs = await look();
      for (let i = 0; i < 10 && obs.tree_missing; i++) {
        await new Promise((r) => setTimeout(r, 50));
        obs = await look();
      }
      if (obs.package !== this.env.pkg) {
        const { apps } = await this.env.client.call('space_list_apps', { space_id });
        const mine = apps.find((a) => a.package === this.env.pkg)?.instances;
        const state = mine?.find((i) => i.instance === (this.app.instance ?? '0'))?.state;
        if (state === 'crashed') await this.app.observe(); // throws the AppCrashedError, with the reason and the logcat
      }
      const again = await look();
      const stable = again.screen_hash !== undefined && again.screen_hash === obs.screen_hash;
      return { kind: 'screen', obs: again.tree_missing ? obs : again, stable };
    } catch (e) {
      return this.failure(e);
    }
  }

  private async failure(e: unknown): Promise<Outcome> {
    if (e instanceof AppCrashedError) {
      this.history = null;
      return { kind: 'crash', reason: e.crashReason ?? e.message, log: e.logcat };
    }
    return { kind: 'failed', error: e instanceof Error ? e.message.split('\n')[0]! : String(e) };
  }

  /** Stop the instance and wipe its data (in `clear-data` mode: the one copy, ready for the next branch). */
  async close(): Promise<void> {
    await this.app.close().catch(() => {});
  }
}
