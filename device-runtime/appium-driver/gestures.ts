import { errors } from 'appium/driver.js';
import { act, type SessionContext } from './element-commands.js';
import { toW3cError } from './w3c-errors.js';

interface PointerAction {
  type: string;
  x?: number;
  y?: number;
  duration?: number;
  origin?: string | Record<string, string>;
  button?: number;
}
interface InputSource {
  type: string;
  id?: string;
  actions: PointerAction[];
}

const ELEMENT_KEYS = ['element-6066-11e4-a52e-4f735466cecf', 'ELEMENT'];

/**
 * W3C actions, the subset one finger makes: a tap, a long press (held 500 ms or more) or a
 * swipe from where the pointer went down to where it came up. Each becomes one protocol call
 * (ui_tap / ui_long_press / ui_swipe at points); several pointers at once are refused.
 */
export async function performActions(ctx: SessionContext, sources: InputSource[]): Promise<void> {
  const pointers = sources.filter((s) => s.type === 'pointer');
  const keys = sources.filter((s) => s.type === 'key' && s.actions.some((a) => a.type !== 'pause'));
  if (pointers.length > 1)
    throw new errors.UnsupportedOperationError('performActions: one pointer at a time; multi-touch is not supported');
  if (keys.length > 0)
    throw new errors.UnsupportedOperationError(
      'performActions: key actions are not supported; use element setValue or mobile: pressKey',
    );
  if (pointers.length === 0) return;
  let x = 0;
  let y = 0;
  let t = 0;
  let down: { x: number; y: number; t: number } | null = null;
  const gestures: Array<() => Promise<unknown>> = [];
  for (const a of pointers[0].actions) {
    if (a.type === 'pointerMove') {
      let ox = 0;
      let oy = 0;
      if (a.origin === 'pointer') [ox, oy] = [x, y];
      else if (a.origin && typeof a.origin === 'object') {
        const id = ELEMENT_KEYS.map((k) => (a.origin as Record<string, string>)[k]).find(Boolean)!;
        const { node } = await ctx.elements.resolve(ctx.ss, 'performActions', id, true);
        [ox, oy] = [(node.bounds[0] + node.bounds[2]) >> 1, (node.bounds[1] + node.bounds[3]) >> 1];
      }
      x = Math.round(ox + (a.x ?? 0));
      y = Math.round(oy + (a.y ?? 0));
      t += a.duration ?? 0;
    } else if (a.type === 'pause') {
      t += a.duration ?? 0;
    } else if (a.type === 'pointerDown') {
      down = { x, y, t };
    } else if (a.type === 'pointerUp' && down) {
      const from: [number, number] = [down.x, down.y];
      const to: [number, number] = [x, y];
      const held = t - down.t;
      if (Math.hypot(x - down.x, y - down.y) < 10) {
        gestures.push(
          held >= 500
            ? () => ctx.ss.call('ui_long_press', { point: from, duration_ms: Math.min(10_000, held) })
            : () => ctx.ss.call('ui_tap', { point: from }),
        );
      } else {
        gestures.push(() => ctx.ss.call('ui_swipe', { from, to, duration_ms: Math.max(10, Math.min(10_000, held)) }));
      }
      down = null;
    }
  }
  try {
    for (const g of gestures) await g();
  } catch (e) {
    throw toW3cError('performActions', e);
  }
}

const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

/** `mobile: scrollGesture`: scroll the element's list, or the largest one; true when it moved. */
export async function scrollGesture(
  ctx: SessionContext,
  opts: { elementId?: string; direction?: string; percent?: number },
): Promise<boolean> {
  const direction = String(opts.direction ?? '').toLowerCase() as (typeof DIRECTIONS)[number];
  if (!DIRECTIONS.includes(direction))
    throw new errors.InvalidArgumentError(
      `mobile: scrollGesture: direction must be one of ${DIRECTIONS.join(', ')}, got ${JSON.stringify(opts.direction)}`,
    );
  const amount = Math.max(0.1, Math.min(10, opts.percent ?? 1));
  if (opts.elementId) {
    const r = await act(ctx, 'mobile: scrollGesture', opts.elementId, (tree, node) =>
      ctx.ss.call('ui_scroll', { direction, node_id: node.id, snapshot_id: tree.obs.snapshot_id, amount }),
    );
    return r.moved;
  }
  try {
    return (await ctx.ss.call('ui_scroll', { direction, amount })).moved;
  } catch (e) {
    throw toW3cError('mobile: scrollGesture', e);
  }
}
