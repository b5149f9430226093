/**
 * The exploration: a model of the app's screens and what each offers, grown breadth-first by K
 * workers, each in a space of its own (its own display) on one device. Every unexplored action
 * is tried on an instance whose history is exactly the shortest known path to its screen: a
 * fresh instance brought there by that path, or the instance that has just found the screen
 * (its history *is* that path, so walking it again would only repeat it). It stops when the
 * time is up or when nothing is left to try.
 */
import type { DeviceClient } from '../../device-runtime/client/index.js';
import type { Observation } from '../../device-runtime/protocol/index.js';
import { Space } from '../../framework/core/space.js';
import { BranchInstance, type BranchEnv, type Outcome } from './branch.js';
import type { ResolvedConfig } from './config.js';
import type { Action, Crash, CrawlPath, CrawlResult, CrawlScreen, Entry, Transition } from './model.js';
import { describeAction } from './model.js';
import { actionsOf, identifyScreen, screenKey, screenKind, screenTitle } from './screen.js';

export interface CrawlTarget {
  client: DeviceClient;
  /** The APK path (or an installed package) given to `space.launch`. */
  apk: string;
  pkg: string;
  entries: Entry[];
}

export interface CrawlOptions {
  instances: number;
  /** Time budget, ms. */
  budgetMs: number;
  config: ResolvedConfig;
  mode: 'instances' | 'clear-data';
  /** Action timeout, ms (scaled to the device). */
  timeout: number;
  /** Called for each new screen with the look that found it (screenshots, audits: report.ts). */
  onScreen?: (screen: CrawlScreen, obs: Observation, branch: BranchInstance) => Promise<void>;
  log?: (line: string) => void;
  /** Stop once this many branches ran (tests). */
  maxBranches?: number;
  now?: () => number;
}

type Task = { kind: 'entry'; entry: Entry } | { kind: 'action'; screen: string; action: Action };

interface ScreenState {
  screen: CrawlScreen;
  tasks: Action[];
}

const samePath = (a: CrawlPath | null, b: CrawlPath) => a !== null && JSON.stringify(a) === JSON.stringify(b);

export type CrawlOutcome = Omit<CrawlResult, 'version' | 'app' | 'settings'>;

export class Crawler {
  private readonly screens = new Map<string, ScreenState>();
  private readonly queue: Task[] = [];
  private readonly transitions: Transition[] = [];
  private readonly edgeKeys = new Set<string>();
  private readonly crashes: Crash[] = [];
  private readonly notes: string[] = [];
  private readonly timeline: CrawlResult['timeline'] = [];
  private readonly activities = new Set<string>();
  private busy = 0;
  private branches = 0;
  private actions = 0;
  private wake: Array<() => void> = [];
  private readonly started: number;
  private readonly now: () => number;

  constructor(
    private readonly target: CrawlTarget,
    private readonly opts: CrawlOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.started = this.now();
    for (const entry of target.entries) this.queue.push({ kind: 'entry', entry });
  }

  private elapsed(): number {
    return this.now() - this.started;
  }

  private timeUp(): boolean {
    return (
      this.elapsed() >= this.opts.budgetMs ||
      (this.opts.maxBranches !== undefined && this.branches >= this.opts.maxBranches)
    );
  }

  async run(): Promise<CrawlOutcome> {
    const workers = Array.from({ length: this.opts.instances }, (_, i) => this.worker(i));
    await Promise.all(workers);
    const exhausted = this.queue.length === 0 && !this.timeUp();
    const all = [...this.screens.values()].map((s) => s.screen);
    for (const s of this.screens.values()) {
      s.screen.unexplored = s.tasks.length;
      const siblings = all.filter(
        (o) => o !== s.screen && o.activity === s.screen.activity && o.package === s.screen.package,
      );
      s.screen.identify = identifyScreen(s.screen, siblings);
    }
    return {
      stopped: exhausted || this.queue.length === 0 ? 'exhausted' : 'time',
      elapsedMs: this.elapsed(),
      branches: this.branches,
      actions: this.actions,
      screens: [...this.screens.values()].map((s) => s.screen),
      transitions: this.transitions,
      crashes: this.crashes,
      activitiesReached: [...this.activities].sort(),
      timeline: this.timeline,
      notes: this.notes,
    };
  }

  /** The next task: one on `here` (the screen the instance shows, when its history is that screen's path) first. */
  private next(here: { key: string; history: CrawlPath | null } | null): Task | null {
    if (here) {
      const s = this.screens.get(here.key);
      if (s && s.tasks.length > 0 && samePath(here.history, s.screen.path))
        return { kind: 'action', screen: here.key, action: s.tasks.shift()! };
    }
    for (let task = this.queue.shift(); task; task = this.queue.shift()) {
      if (task.kind === 'entry') return task;
      // Actions are queued per screen; the queue holds one marker per action in discovery order.
      const s = this.screens.get(task.screen)!;
      const marker = JSON.stringify(task.action);
      const i = s.tasks.findIndex((a) => JSON.stringify(a) === marker);
      if (i < 0) continue; // already taken by the instance that was there
      s.tasks.splice(i, 1);
      return task;
    }
    return null;
  }

  private async worker(index: number): Promise<void> {
    const space = await Space.create(this.target.client, `crawl-${process.pid}-${index}`);
    const env: BranchEnv = {
      client: this.target.client,
      space,
      apk: this.target.apk,
      pkg: this.target.pkg,
      config: this.opts.config,
      timeout: this.opts.timeout,
      mode: this.opts.mode,
    };
    let current: { branch: BranchInstance; key: string } | null = null;
    try {
      while (!this.timeUp()) {
        const task = this.next(current ? { key: current.key, history: current.branch.history } : null);
        if (!task) {
          if (this.busy === 0) break;
          await new Promise<void>((r) => this.wake.push(r));
          continue;
        }
        this.busy++;
        try {
          current = await this.runTask(env, task, current);
        } catch (e) {
          this.notes.push(`worker ${index}: ${(e as Error).message.split('\n')[0]}`);
          await current?.branch.close();
          current = null;
        } finally {
          this.busy--;
          for (const w of this.wake.splice(0)) w();
        }
      }
    } finally {
      await current?.branch.close();
      await space.delete().catch(() => {});
      for (const w of this.wake.splice(0)) w();
    }
  }

  private async runTask(
    env: BranchEnv,
    task: Task,
    current: { branch: BranchInstance; key: string } | null,
  ): Promise<{ branch: BranchInstance; key: string } | null> {
    if (task.kind === 'entry') {
      await current?.branch.close();
      this.branches++;
      const { branch, outcome } = await BranchInstance.start(env, task.entry);
      return this.record(branch, null, null, outcome, { entry: task.entry, actions: [] });
    }
    const from = this.screens.get(task.screen)!;
    let branch =
      current?.key === task.screen && samePath(current.branch.history, from.screen.path) ? current.branch : null;
    if (!branch) {
      await current?.branch.close();
      this.branches++;
      const started = await BranchInstance.start(env, from.screen.path.entry);
      branch = started.branch;
      const there = started.outcome.kind === 'screen' ? await branch.walk(from.screen.path.actions) : started.outcome;
      if (there.kind !== 'screen' || screenKey(there.obs) !== task.screen) {
        this.notes.push(
          `the path to ${from.screen.id} (${from.screen.title}) led ${there.kind === 'screen' ? `to another screen (${screenTitle(there.obs, screenKind(there.obs, this.target.pkg))})` : there.kind === 'crash' ? 'to a crash' : `nowhere: ${there.error}`}; ${describeAction(task.action)} not tried`,
        );
        await branch.close();
        return null;
      }
    }
    this.actions++;
    const path: CrawlPath = { entry: from.screen.path.entry, actions: [...from.screen.path.actions, task.action] };
    const outcome = await branch.act(task.action);
    from.screen.explored++;
    return this.record(branch, from.screen.id, task.action, outcome, path);
  }

  /** Add what an action (or an entry) led to to the model; the instance stays for the next task when it can. */
  private async record(
    branch: BranchInstance,
    from: string | null,
    action: Action | null,
    outcome: Outcome,
    path: CrawlPath,
  ): Promise<{ branch: BranchInstance; key: string } | null> {
    if (outcome.kind === 'failed') {
      this.notes.push(
        `${action ? describeAction(action) : 'entry'} from ${from ?? 'a fresh instance'}: ${outcome.error}`,
      );
      await branch.close();
      return null;
    }
    if (outcome.kind === 'crash') {
      const id = `crash:${this.crashes.length + 1}`;
      const known = this.crashes.find((c) => c.reason === outcome.reason);
      if (!known) {
        this.crashes.push({
          id,
          reason: outcome.reason,
          path,
          screen: from ?? 'entry',
          log: outcome.log,
          reproduced: false,
          foundAtMs: this.elapsed(),
        });
        this.opts.log?.(
          `crash ${id} after ${action ? describeAction(action) : 'launch'}: ${outcome.reason.split('\n')[0]}`,
        );
      }
      if (from && action) this.edge(from, known?.id ?? id, action);
      await branch.close();
      return null;
    }
    const { obs } = outcome;
    const key = screenKey(obs);
    let state = this.screens.get(key);
    if (!state) {
      const kind = screenKind(obs, this.target.pkg);
      const screen: CrawlScreen = {
        id: `s${this.screens.size + 1}`,
        key,
        kind,
        package: obs.package,
        activity: obs.activity,
        title: screenTitle(obs, kind),
        path,
        identify: [],
        nodes: obs.nodes,
        screenshot: null,
        accessibility: [],
        stable: outcome.stable && kind !== 'other-app',
        foundAtMs: this.elapsed(),
        explored: 0,
        unexplored: 0,
      };
      // Another app in front (a browser, a share sheet): recorded, not explored.
      const tasks = kind === 'other-app' ? [] : actionsOf(obs, this.opts.config);
      state = { screen, tasks };
      this.screens.set(key, state);
      if (obs.package === this.target.pkg && obs.activity) this.activities.add(obs.activity);
      for (const a of tasks) this.queue.push({ kind: 'action', screen: key, action: a });
      this.timeline.push({ ms: screen.foundAtMs, screens: this.screens.size, activities: this.activities.size });
      this.opts.log?.(`${screen.id} ${screen.title} (${tasks.length} actions) via ${path.actions.length} step(s)`);
      await this.opts.onScreen?.(screen, obs, branch).catch((e: unknown) => {
        this.notes.push(`${screen.id}: ${(e as Error).message.split('\n')[0]}`);
      });
    }
    if (from && action) this.edge(from, state.screen.id, action);
    return { branch, key };
  }

  private edge(from: string, to: string, action: Action): void {
    const k = `${from}>${to}>${JSON.stringify(action)}`;
    if (this.edgeKeys.has(k)) return;
    this.edgeKeys.add(k);
    this.transitions.push({ from, to, action });
  }
}
