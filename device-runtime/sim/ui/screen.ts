import type { Bounds, Observation, UiNode } from '../../protocol/index.js';
import { toolError } from '../../protocol/index.js';
import { selectChannel, type ChannelAvailability, type ChannelSpec } from '../channels/channel.js';
import type { SimInstance } from '../core/instance.js';
import { SimError } from '../core/sim-error.js';
import { defaultEnv, type SimEnv } from '../faults/env.js';
import { Rng } from '../faults/rng.js';
import { VirtualClock } from '../faults/clock.js';
import { composeFrame, type Frame } from './frame.js';
import { KEYBOARD_TOP, SCREEN, VIEWPORT } from './layout.js';
import { flatten, screenHash, structureHash, type FlatNode } from './observe.js';
import { attachWebViews } from './web-views.js';
import { DiffBases } from './diff-bases.js';

export interface Target {
  node_id?: string;
  snapshot_id?: string;
  bounds?: Bounds;
  text?: string;
  point?: [number, number];
}

export interface Snapshot {
  id: string;
  structure: string;
  /** Every node of the observed windows (also under the vision channel, for hit tests). */
  nodes: FlatNode[];
  frame: Frame;
  /** Taken with detail=full (its node numbering differs from compact). */
  full: boolean;
  /** The nodes as observed and their screen hash, made at the first observation of this snapshot. */
  observed?: { nodes: UiNode[]; hash: string };
}

const TOAST_MS = 2000;

/** A snapshot with when it was taken: the epoch, the clock, and whether the event loop has turned since. */
interface Recent {
  snap: Snapshot;
  epoch: number;
  at: number;
  live: boolean;
}
/** A snapshot kept for reuse, with what it was taken under (see {@link SimScreen.snapshot}). */
interface Kept {
  snap: Snapshot;
  /** Everything outside the epoch that shapes the frame, as one string. */
  key: string;
  /** The clock when it was taken. */
  at: number;
  /** Nothing in it depends on the time: no toast, snackbar or transition, no render read the clock. */
  timeless: boolean;
}
let snapshotCounter = 0;
const screensPerEnv = new WeakMap<SimEnv, number>();
/**
 * Calls of tools other than the UI tools (world, network, app data, functions, spaces, faults…)
 * seen by any runtime in this process: each may change what a screen shows without going through
 * it, so a kept frame taken before one is not reused. The UI tools' gestures tell their screen
 * themselves ({@link SimScreen.changed}).
 */
let outsideChanges = 0;
/** A tool call that may change what screens show from outside them (the runtime calls it). */
export function noteOutsideChange(): void {
  outsideChanges++;
}

/**
 * The virtual display of one space. It shows the space's foreground instance, runs its due
 * background work, composes windows (activity, snackbar, dialog, toasts, keyboard), answers
 * observations and resolves action targets against the latest snapshot. Actions live in
 * `gestures.ts`; this class owns the display state they change.
 */
export class SimScreen {
  env: SimEnv = defaultEnv();
  private channelPatch: Partial<ChannelAvailability> = {};
  private rng = new Rng(1);
  private toasts: Array<{ text: string; until: number }> = [];
  /** Record seq of the activity whose field has the keyboard up. */
  private keyboardSeq: number | null = null;
  private seenFg: string | null = null;
  private seenSeq: number | null = null;
  private transitionStart = Number.NEGATIVE_INFINITY;
  private transitionKind: 'activity' | 'task' = 'activity';
  /** Structures of the snapshots handed out (bounded), and the detail each was taken in. */
  private snapshotsSeen = new Map<string, { structure: string; full: boolean }>();
  /** Detail of the last observation: node ids without a snapshot id are read in that numbering. */
  private lastFull = false;
  /** Told of every frame a snapshot composes (a screen recording, ui/recorder.ts). */
  private readonly watchers = new Set<(frame: Frame) => void>();
  /** Extension observe_diff: what each session last received of this screen. */
  readonly diffBases = new DiffBases();
  /** Bumped by every change the screen is told of (invalidate, toasts, keyboard, channels). */
  private epoch = 0;
  /** The last snapshot, while it may stand for the screen (see {@link pin}). */
  private recent: Recent | null = null;
  /** The snapshot the next {@link resolve} acts on, when {@link pin} named the one just taken. */
  private pinned: Recent | null = null;
  /** The last snapshot of each detail, reused while nothing it was taken under changed. */
  private readonly kept: { compact: Kept | null; full: Kept | null } = { compact: null, full: null };

  constructor(
    readonly spaceId: string,
    private readonly foreground: () => SimInstance | null,
  ) {}

  /** Use the runtime's clock, fault profile and channels; the rng forks per screen, in creation order. */
  attach(env: SimEnv): void {
    this.env = env;
    const n = (screensPerEnv.get(env) ?? 0) + 1;
    screensPerEnv.set(env, n);
    this.rng = new Rng(env.faults.seed).fork(n);
  }

  get now(): number {
    return this.env.clock.now();
  }

  /** Change which channels this space's device offers (e.g. turn Advanced Protection on). */
  setChannels(patch: Partial<ChannelAvailability>): void {
    this.epoch++;
    this.channelPatch = { ...this.channelPatch, ...patch };
  }

  get channel(): ChannelSpec {
    return selectChannel({ ...this.env.channels, ...this.channelPatch });
  }

  toast(message: string): void {
    this.epoch++;
    this.toasts.push({ text: message, until: this.now + TOAST_MS });
  }

  /** Something may have changed: a new activity or instance in front starts a transition. */
  invalidate(): void {
    this.epoch++;
    this.noticeForeground();
  }

  /** A gesture acted on the screen (ui/gestures.ts): whatever it changed, the next look renders again. */
  changed(): void {
    this.epoch++;
  }

  /** A new activity or instance in front starts a transition (each frame looks). */
  private noticeForeground(): void {
    const fg = this.foreground();
    const fgKey = fg?.key ?? null;
    const seq = fg?.top?.seq ?? null;
    if (fgKey !== this.seenFg && fgKey !== null) this.startTransition('task');
    else if (seq !== this.seenSeq && seq !== null) this.startTransition('activity');
    if (seq !== this.seenSeq) this.keyboardSeq = null;
    this.seenFg = fgKey;
    this.seenSeq = seq;
  }

  private startTransition(kind: 'activity' | 'task'): void {
    this.transitionStart = this.now;
    this.transitionKind = kind;
  }

  private transitionProgress(): number {
    const length = this.env.faults.animationMs;
    if (length <= 0) return 1;
    return Math.min(1, Math.max(0, (this.now - this.transitionStart) / length));
  }

  showKeyboard(): void {
    this.epoch++;
    this.keyboardSeq = this.foreground()?.top?.seq ?? null;
  }

  hideKeyboard(): boolean {
    this.epoch++;
    const was = this.keyboardSeq !== null;
    this.keyboardSeq = null;
    return was;
  }

  /** Run due background work, then compose what is on the display now. */
  frame(): Frame {
    return this.compose(this.prepare());
  }

  /**
   * Run due background work (an instance with work due or world events pending counts as
   * changed: the work may change the screen without saying so), notice a new activity or
   * instance in front, drop expired toasts. Answers the time it did so at.
   */
  private prepare(): number {
    const now = this.now;
    const fg = this.foreground();
    const due = (inst: SimInstance) => inst.world.pending() || inst.timers.some((t) => t.due <= now);
    // Background instances keep working too (a chat message sent just before switching away).
    for (const inst of fg?.host.instances?.values() ?? [])
      if (inst !== fg && (inst.timers.length || inst.world.pending())) {
        if (due(inst)) this.epoch++;
        inst.pump(now);
      }
    if (fg) {
      if (due(fg)) this.epoch++;
      fg.pump(now);
    }
    this.noticeForeground();
    const toasts = this.toasts.length;
    this.toasts = this.toasts.filter((t) => t.until > now);
    if (this.toasts.length !== toasts) this.epoch++;
    return now;
  }

  private compose(now: number): Frame {
    const current = this.foreground();
    const frame = composeFrame({
      fg: current,
      now,
      keyboard: this.keyboardSeq !== null && this.keyboardSeq === (current?.top?.seq ?? null),
      transition: { progress: this.transitionProgress(), kind: this.transitionKind },
      toasts: this.toasts.map((t) => t.text),
      animationMs: this.env.faults.animationMs,
    });
    const web = attachWebViews(frame, this.env.web, this.spaceId);
    this.pages = web.pages;
    this.webViews = web.views;
    return frame;
  }

  /**
   * What a kept snapshot must have been taken under to stand for the screen now, besides the
   * epoch: the instance in front, its activity and state of life, the keyboard, the channel,
   * the fault profile, and every tool call from outside the screen since.
   */
  private keyOf(full: boolean): string {
    const fg = this.foreground();
    return [
      this.epoch,
      outsideChanges,
      full,
      fg?.key ?? '',
      fg?.top?.seq ?? '',
      fg?.status ?? '',
      fg?.stack.length ?? 0,
      this.keyboardSeq ?? '',
      this.channel.name,
      JSON.stringify(this.env.faults),
    ].join('|');
  }

  /** Be told of each frame a snapshot composes (what observations and actions see), until the returned function is called. */
  watch(fn: (frame: Frame) => void): () => void {
    this.watchers.add(fn);
    return () => void this.watchers.delete(fn);
  }
  /** WebView pages the last frame showed. */
  private pages = 0;
  /** WebViews (with a page or not) the last frame showed. */
  private webViews = 0;

  /**
   * The screen now, as an accessibility service holds it: the last snapshot of this detail when
   * nothing it was taken under has changed (a device keeps its view tree and is told what
   * changed), else rendered, laid out and flattened again. Changes the screen learns of bump its
   * epoch: app code's own (state, data, dialogs, timers and answers to requests run as app
   * code), gestures, the keyboard, toasts, channels; a new instance or activity in front, a crash,
   * a fault profile and any tool call from outside the UI tools change its key. A frame that
   * depends on the time (a toast, a snackbar, a transition, a render that read the clock) is kept
   * only while the clock has not moved; one with a WebView is never kept (pages change on their own).
   */
  snapshot(full = false): Snapshot {
    const now = this.prepare();
    const key = this.keyOf(full);
    const slot = full ? 'full' : 'compact';
    const kept = this.kept[slot];
    if (kept && kept.key === key && (kept.timeless || kept.at === now)) {
      for (const w of this.watchers) w(kept.snap.frame);
      this.remember(kept.snap);
      return kept.snap;
    }
    const fg = this.foreground();
    const reads = fg?.clockReads ?? 0;
    const frame = this.compose(now);
    const clockRead = fg !== null && fg.clockReads !== reads;
    for (const w of this.watchers) w(frame);
    const nodes: FlatNode[] = [];
    for (const w of frame.windows) {
      if (!w.observed) continue;
      const focus = w.kind === 'activity' ? (frame.record?.focus ?? null) : null;
      nodes.push(...flatten(w.root, w.clip, { pkg: w.pkg, full, focus, firstId: nodes.length + 1 }));
    }
    const snap = {
      id: `s_${++snapshotCounter}`,
      structure: structureHash(nodes),
      nodes,
      frame,
      full,
    };
    const timeless = !clockRead && frame.transition >= 1 && this.toasts.length === 0 && !frame.record?.snackbar;
    // A render that changed what the key reads (app code that set state or crashed while
    // rendering) may show what was before: not kept.
    this.kept[slot] = this.webViews === 0 && this.keyOf(full) === key ? { snap, key, at: now, timeless } : null;
    this.remember(snap);
    return snap;
  }

  /** `snap` is the latest look: {@link pin} may name it until the event loop turns. */
  private remember(snap: Snapshot): void {
    // Valid until the event loop turns (no timer, I/O or page event can have run before then).
    const recent = { snap, epoch: this.epoch, at: this.now, live: true };
    this.recent = recent;
    this.pinned = null;
    if (this.pages === 0) setImmediate(() => (recent.live = false));
    else recent.live = false;
  }

  /**
   * Let the next {@link resolve} act on snapshot `id` instead of taking another, when `id` is the
   * snapshot just taken and it still stands for the screen: nothing told the screen of a change
   * since (the epoch), the event loop has not turned (no timer, background work, request or page
   * event ran), a virtual clock has not moved, and no WebView page is on it (pages change on
   * their own). A selector action acts on the node it has just found this way, without a second
   * render of the whole tree. Only the caller that just observed may pin: something else run in
   * between (a key press closing a dialog) may change the screen without telling it.
   */
  pin(id: string): void {
    this.pinned = this.recent?.snap.id === id ? this.recent : null;
  }

  private takePinned(full: boolean): Snapshot | null {
    const r = this.pinned;
    this.pinned = null;
    if (!r || !r.live || r.epoch !== this.epoch || r.snap.full !== full) return null;
    // A virtual clock moves only when told to (a sleep): a moved one may have expired a toast.
    return !(this.env.clock instanceof VirtualClock) || this.now === r.at ? r.snap : null;
  }

  observe(opts: { max_nodes: number; detail: 'compact' | 'full' }): Observation {
    const snap = this.snapshot(opts.detail === 'full');
    this.snapshotsSeen.set(snap.id, { structure: snap.structure, full: snap.full });
    if (this.snapshotsSeen.size > 64) this.snapshotsSeen.delete(this.snapshotsSeen.keys().next().value!);
    this.lastFull = snap.full;
    const channel = this.channel;
    // rootInActiveWindow is null now and then while a transition runs (hostile profile).
    const treeMissing = snap.frame.transition < 1 && this.rng.chance(this.env.faults.treeMissingDuringTransition);
    // A kept snapshot observed again costs no pass over its nodes (but the copy the answer owns).
    snap.observed ??= { nodes: snap.nodes.map((n) => n.node), hash: '' };
    if (!snap.observed.hash) snap.observed.hash = screenHash(snap.nodes);
    const nodes = treeMissing || !channel.tree ? [] : snap.observed.nodes;
    return {
      snapshot_id: snap.id,
      space_id: this.spaceId,
      package: snap.frame.pkg,
      activity: snap.frame.activity,
      instance: snap.frame.fg?.id ?? null,
      screen: { width: SCREEN.width, height: SCREEN.height, rotation: 0 },
      nodes: nodes.slice(0, opts.max_nodes),
      truncated: nodes.length > opts.max_nodes,
      ...(treeMissing ? { tree_missing: true } : {}),
      screen_hash: nodes.length ? snap.observed.hash : screenHash([]),
      screenshot: null,
      channel: channel.name,
      keyboard: snap.frame.keyboard ? { bounds: [VIEWPORT[0], KEYBOARD_TOP, VIEWPORT[2], VIEWPORT[3]] } : null,
      timestamp_ms: this.now,
    };
  }

  /**
   * Resolve a target against the current screen. A node id must come from a snapshot whose
   * structure still matches (else SNAPSHOT_STALE); text matches text, then description.
   */
  resolve(target: Target, tool: string): { snap: Snapshot; hit: FlatNode | null; point: [number, number] } {
    // Node ids are read in the numbering of the snapshot they came from (compact or full).
    const ref = target.snapshot_id !== undefined ? this.snapshotsSeen.get(target.snapshot_id) : undefined;
    const full = ref?.full ?? (target.node_id !== undefined && this.lastFull);
    const snap = this.takePinned(full) ?? this.snapshot(full);
    if (target.node_id !== undefined || target.text !== undefined) {
      let hit: FlatNode | undefined;
      if (target.node_id !== undefined) {
        if (target.snapshot_id !== undefined && this.structureOf(target.snapshot_id, snap) !== snap.structure) {
          throw new SimError(
            toolError('SNAPSHOT_STALE', `${tool}: snapshot ${target.snapshot_id} no longer matches the screen`, {
              hint: 'Observe again and use a node id from the new snapshot.',
              details: { snapshot_id: snap.id },
            }),
          );
        }
        hit = snap.nodes.find((n) => n.node.id === target.node_id);
        if (!hit)
          throw new SimError(
            toolError('NODE_NOT_FOUND', `${tool}: no node ${target.node_id} on screen`, { hint: 'Observe again.' }),
          );
      } else {
        hit =
          snap.nodes.find((n) => n.node.text === target.text) ?? snap.nodes.find((n) => n.node.desc === target.text);
        if (!hit) {
          throw new SimError(
            toolError('NODE_NOT_FOUND', `${tool}: no node with text ${JSON.stringify(target.text)} on screen`, {
              hint: 'Observe to see what is on screen; it may be under the keyboard, behind a dialog or scrolled away.',
            }),
          );
        }
      }
      const b = hit.node.bounds;
      return { snap, hit, point: [(b[0] + b[2]) >> 1, (b[1] + b[3]) >> 1] };
    }
    const b = target.bounds;
    const point: [number, number] = target.point ?? [((b![0] + b![2]) / 2) | 0, ((b![1] + b![3]) / 2) | 0];
    return { snap, hit: null, point };
  }

  private structureOf(id: string, current: Snapshot): string | undefined {
    return this.snapshotsSeen.get(id)?.structure ?? (id === current.id ? current.structure : undefined);
  }

  /**
   * Idle as UiAutomator's waitForIdle sees it: no transition or animation running, no background
   * work pending, no progress spinner on screen.
   */
  idle(): boolean {
    const snap = this.snapshot(true);
    if (this.moving(snap.frame)) return false;
    if (snap.frame.fg?.busy()) return false;
    // A WebView's page still loading, or changed since its nodes were read.
    if (this.env.web.busy(this.spaceId)) return false;
    return !snap.nodes.some((n) => n.view.kind === 'progress');
  }

  /**
   * Nothing is moving: no activity or task transition and no view animation running, as an
   * accessibility service knows from its event stream (no window or content change of a moving
   * kind lately). Cheaper than {@link idle}: background work and spinners do not count.
   */
  still(): boolean {
    return this.env.faults.animationMs <= 0 || !this.moving(this.frame());
  }

  /** A transition or a view animation is running in `frame`. */
  private moving(frame: Frame): boolean {
    if (frame.transition < 1) return true;
    const length = this.env.faults.animationMs;
    return !!frame.record && length > 0 && [...frame.record.anims.values()].some((t) => this.now - t < length);
  }

  /** Wait out the channel's latency for one call (the channel latencies of docs/protocol.md#channels, scaled and jittered by the profile). */
  async latency(): Promise<void> {
    const f = this.env.faults;
    if (f.latencyScale <= 0) return;
    const [lo, hi] = this.channel.latencyMs;
    const ms = this.rng.between(lo, hi) * f.latencyScale * (1 + f.jitter * this.rng.next());
    await this.env.clock.sleep(Math.round(ms));
  }

  /** Under `hostile`, now and then an action is acknowledged but never happens. */
  dropsAction(): boolean {
    return this.rng.chance(this.env.faults.dropAction);
  }
}
