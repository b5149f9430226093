import type { Bounds, Key, Observation, UiNode } from '../../protocol/index.js';
import { toolError } from '../../protocol/index.js';
import type { SimInstance } from '../core/instance.js';
import { SimError } from '../core/sim-error.js';
import { layout, SCREEN, type LaidOut } from './layout.js';
import { flatten, screenHash, structureHash, type FlatNode } from './observe.js';
import { column, text } from './view.js';

export interface Target {
  node_id?: string;
  snapshot_id?: string;
  bounds?: Bounds;
  text?: string;
  point?: [number, number];
}

interface Snapshot {
  id: string;
  structure: string;
  nodes: FlatNode[];
}

const VIEWPORT: Bounds = [0, SCREEN.statusBar, SCREEN.width, SCREEN.height - SCREEN.navBar];
let snapshotCounter = 0;

/**
 * The virtual display of one space. It shows the space's foreground instance, renders it on
 * demand, answers observations and resolves action targets against the latest snapshot.
 */
export class SimScreen {
  private last: Snapshot | null = null;
  private toasts: Array<{ text: string; until: number }> = [];

  constructor(
    readonly spaceId: string,
    private readonly foreground: () => SimInstance | null,
  ) {}

  toast(message: string, now = Date.now()): void {
    this.toasts.push({ text: message, until: now + 2000 });
  }

  private compose(): LaidOut | null {
    const fg = this.foreground();
    const content = fg?.render() ?? null;
    const now = Date.now();
    this.toasts = this.toasts.filter((t) => t.until > now);
    const overlay = this.toasts.map((t) => text(t.text, { id: 'toast' }));
    if (!content && overlay.length === 0) return null;
    return layout(column([...(content ? [{ ...content, grow: 1 }] : []), ...overlay]), VIEWPORT);
  }

  private snapshot(full: boolean): Snapshot {
    const tree = this.compose();
    const pkg = this.foreground()?.model.package ?? 'android';
    const nodes = tree ? flatten(tree, VIEWPORT, pkg, full) : [];
    const snap = { id: `s_${++snapshotCounter}`, structure: structureHash(nodes.map((n) => n.node)), nodes };
    if (!full) this.last = snap;
    return snap;
  }

  observe(opts: { max_nodes: number; detail: 'compact' | 'full' }): Observation {
    const snap = this.snapshot(opts.detail === 'full');
    const fg = this.foreground();
    const nodes = snap.nodes.map((n) => n.node);
    return {
      snapshot_id: snap.id,
      space_id: this.spaceId,
      package: fg?.model.package ?? null,
      activity: fg?.top?.name ?? null,
      instance: fg?.id ?? null,
      screen: { width: SCREEN.width, height: SCREEN.height, rotation: 0 },
      nodes: nodes.slice(0, opts.max_nodes),
      truncated: nodes.length > opts.max_nodes,
      screen_hash: screenHash(nodes),
      screenshot: null,
      channel: 'accessibility',
      timestamp_ms: Date.now(),
    };
  }

  /** Resolve a target against the current screen; a node id must come from a still-valid snapshot. */
  resolve(target: Target): FlatNode | null {
    const current = this.snapshot(false);
    if (target.node_id !== undefined) {
      const base = target.snapshot_id ?? current.id;
      if (target.snapshot_id !== undefined && this.lastStructureOf(target.snapshot_id, current) !== current.structure) {
        throw new SimError(
          toolError('SNAPSHOT_STALE', `snapshot ${base} no longer matches the screen`, {
            hint: 'Observe again and use a node id from the new snapshot.',
          }),
        );
      }
      const hit = current.nodes.find((n) => n.node.id === target.node_id);
      if (!hit) throw new SimError(toolError('NODE_NOT_FOUND', `no node ${target.node_id} on screen`, { hint: 'Observe again.' }));
      return hit;
    }
    if (target.text !== undefined) {
      const hit = current.nodes.find((n) => n.node.text === target.text) ?? current.nodes.find((n) => n.node.desc === target.text);
      if (!hit) {
        throw new SimError(toolError('NODE_NOT_FOUND', `no node with text ${JSON.stringify(target.text)} on screen`, { hint: 'Observe to see what is on screen.' }));
      }
      return hit;
    }
    const [x, y] = target.point ?? [((target.bounds![0] + target.bounds![2]) / 2) | 0, ((target.bounds![1] + target.bounds![3]) / 2) | 0];
    return hitTest(current.nodes, x, y);
  }

  private snapshotsSeen = new Map<string, string>();
  private lastStructureOf(id: string, current: Snapshot): string | undefined {
    if (this.last && this.last.id === id) return this.last.structure;
    return this.snapshotsSeen.get(id) ?? (id === current.id ? current.structure : undefined);
  }

  /** Remember snapshot structures handed out, so later actions can check them (bounded). */
  remember(obs: Observation): void {
    if (this.last && this.last.id === obs.snapshot_id) this.snapshotsSeen.set(obs.snapshot_id, this.last.structure);
    if (this.snapshotsSeen.size > 64) this.snapshotsSeen.delete(this.snapshotsSeen.keys().next().value!);
  }

  tap(target: Target): { method: 'node' | 'gesture'; node: UiNode | null } {
    const hit = this.resolve(target);
    if (!hit) return { method: 'gesture', node: null };
    if (hit.node.enabled && hit.view.onClick) hit.view.onClick();
    return { method: target.node_id !== undefined || target.text !== undefined ? 'node' : 'gesture', node: hit.node };
  }

  setText(target: Target, value: string): UiNode {
    const hit = this.resolve(target);
    if (!hit || !hit.view.onTextChange) {
      throw new SimError(toolError('INVALID_ARGUMENT', 'the target is not an editable field', { hint: 'Target a node with editable=true.' }));
    }
    hit.view.onTextChange(value);
    return hit.node;
  }

  key(key: Key, onEmpty: () => void): void {
    const fg = this.foreground();
    if (key === 'back' && fg) {
      if (!fg.back()) onEmpty();
    } else if (key === 'home' && fg) {
      onEmpty();
    }
  }
}

function hitTest(nodes: FlatNode[], x: number, y: number): FlatNode | null {
  let best: FlatNode | null = null;
  for (const n of nodes) {
    const [l, t, r, b] = n.node.bounds;
    if (x >= l && x < r && y >= t && y < b && (n.view.onClick || n.view.onTextChange)) best = n;
  }
  return best;
}
