import type { Observation, UiNode } from './observation.js';
import { fieldValue, formatSteps, resolveSteps, type Step } from './selector.js';

/**
 * Auto-waiting, written once for both sides of the protocol: the framework runs it over tool
 * calls (one round trip per look) against any runtime; a runtime with the `selector_actions`
 * extension runs the same code next to the screen, so an action is one round trip. What it
 * waits for, as Playwright's actionability checks: exactly one match, visible, enabled (unless
 * told otherwise) and stable (same bounds in two looks in a row, or one look at a screen the
 * runtime knows is still). While nothing matches it does
 * what a user would: hides the soft keyboard once, waits for a list that is loading its next
 * page, and scrolls the screen's list down to its end, then back up.
 */

/** What the loop needs from whoever runs it. */
export interface ActionabilityIO {
  /** The screen of the app acted on (brought to the front, crashes raised, as the side can). */
  observe(): Promise<Observation>;
  /** Scroll the screen's main list one page; false at its end. */
  scroll(direction: 'up' | 'down'): Promise<boolean>;
  /** Press back to hide the soft keyboard. */
  hideKeyboard(): Promise<void>;
  /**
   * Whether nothing on the screen is moving at the last look (no transition, animation or
   * scroll under way). A runtime beside the screen knows it from its accessibility events, as
   * UiAutomator's waitForIdle does, so a node found in a still screen is stable after one look.
   * Without it (the framework over tool calls) stable means the same bounds in two looks.
   */
  still?(): boolean;
  clock: Clock;
}

/** The time the loop waits in: the wall clock here, the device's clock (a virtual one in tests) on a runtime. */
export interface Clock {
  /** Milliseconds, monotonic enough for deadlines. */
  now(): number;
  /** Wait `ms` of this clock's time. */
  sleep(ms: number): Promise<void>;
}

/** The wall clock: `Date.now()` and `setTimeout`. */
export const REAL_CLOCK: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** What {@link waitForActionable} waits for, and how long. */
export interface WaitOptions {
  /** Give up after this many ms (the answer is then `timeout`). */
  timeoutMs: number;
  /** Require the node to be enabled (default true; false for reads and scrolling into view). */
  enabled?: boolean;
  /** Scroll lists and hide the keyboard to find the node (default true). */
  scroll?: boolean;
}

/** How a wait ended: one actionable node (with the look it was found in), several matches, or the timeout (with the last look). */
export type Actionable =
  | { status: 'ok'; node: UiNode; obs: Observation }
  | { status: 'ambiguous'; nodes: UiNode[]; obs: Observation }
  | { status: 'timeout'; obs: Observation | null };

/** Retry cadence, as Playwright's: quick first retries, then capped. Milliseconds. */
const BACKOFF = [0, 20, 50, 100, 100, 250, 500];

/**
 * Call `attempt` until it is done or `timeoutMs` passes. An attempt that changed the screen
 * itself (a scroll) answers `{ done: false, again: true }`: look again at once, and start the
 * backoff over, since what it waits for may now be there.
 */
export async function poll<T>(
  timeoutMs: number,
  attempt: (n: number) => Promise<{ done: true; value: T } | { done: false; again?: boolean }>,
  clock: Clock = REAL_CLOCK,
): Promise<{ value: T } | { timedOut: true }> {
  const deadline = clock.now() + timeoutMs;
  let waits = 0;
  for (let n = 0; ; n++) {
    const r = await attempt(n);
    if (r.done) return { value: r.value };
    if (r.again && clock.now() < deadline) {
      waits = 0;
      continue;
    }
    const wait = BACKOFF[Math.min(waits++, BACKOFF.length - 1)]!;
    if (clock.now() + wait >= deadline) {
      // One last try at the deadline so slow screens get a fair final look.
      if (clock.now() < deadline) {
        await clock.sleep(Math.max(0, deadline - clock.now()));
        const last = await attempt(n + 1);
        if (last.done) return { value: last.value };
      }
      return { timedOut: true };
    }
    await clock.sleep(wait);
  }
}

/** Wait until `steps` name one actionable node; `log` gets Playwright-style call-log lines. */
export async function waitForActionable(
  io: ActionabilityIO,
  steps: Step[],
  opts: WaitOptions,
  log: string[] = [],
): Promise<Actionable> {
  log.push(`waiting for ${formatSteps(steps)}`);
  let last: Observation | null = null;
  let previous: UiNode | null = null;
  let direction: 'down' | 'up' = 'down';
  let stuck = 0;
  let keyboardTries = 0;
  let ambiguous: UiNode[] | null = null;
  // The search of the list, said in one line updated in place (a line per swipe was hundreds
  // of identical lines): how many swipes, whether it reached the list's end and top, page loads.
  const search = { down: 0, up: 0, ends: 0, bottom: false, top: false, loads: 0, line: -1 };
  const searched = () => {
    const swipes = plural(search.down + search.up, 'swipe');
    const loads = search.loads ? `; waited ${plural(search.loads, 'time')} for the list to load more rows` : '';
    const line =
      search.bottom && search.top
        ? `no match in the whole list: searched it from its top to its end, ${swipes} (${search.down} down, ${search.up} up), reaching an end ${plural(search.ends, 'time')}${loads}`
        : `no match yet; scrolling the list ${direction} to bring it into view: ${swipes} so far${search.bottom ? ', reached its end' : ''}${search.top ? ', reached its top' : ''}${loads}`;
    if (search.line < 0) search.line = log.push(`  ${line}`) - 1;
    else log[search.line] = `  ${line}`;
  };
  const r = await poll(
    opts.timeoutMs,
    async (attempt) => {
      const obs = await io.observe();
      last = obs;
      if (obs.tree_missing) return note(log, 'accessibility tree missing (a transition), observing again');
      const nodes = resolveSteps(obs.nodes, steps);
      if (nodes.length > 1) {
        ambiguous = nodes;
        return { done: true, value: null };
      }
      const node = nodes[0];
      if (!node) {
        // What a user does when the field is under the keyboard: hide it (not on the first
        // look, which may just be early). A device may drop the key: while the keyboard is still
        // up, back again, three times at most.
        if (opts.scroll !== false && obs.keyboard && keyboardTries < 3 && attempt > 0) {
          keyboardTries++;
          await io.hideKeyboard();
          note(
            log,
            keyboardTries === 1
              ? 'no match yet; hiding the soft keyboard, which covers the bottom of the screen'
              : 'the soft keyboard is still up (the key was dropped); hiding it again',
          );
          return { done: false, again: true };
        }
        if (opts.scroll !== false && direction === 'down' && listLoading(obs)) {
          // A progress indicator in the list: its next page is on the way. Wait, do not turn.
          stuck = 0;
          search.loads++;
          searched();
          return { done: false };
        }
        if (opts.scroll !== false && obs.nodes.some((n) => n.scrollable)) {
          const moved = await io.scroll(direction);
          search[direction]++;
          // At the bottom a list may still be loading its next page: look a few times before
          // turning back up.
          stuck = moved ? 0 : stuck + 1;
          if (!moved && (direction === 'up' || stuck >= 3)) {
            search[direction === 'down' ? 'bottom' : 'top'] = true;
            search.ends++;
            direction = direction === 'down' ? 'up' : 'down';
            stuck = 0;
          }
          searched();
          // A scroll that moved shows new rows: look at once. At the end, wait as usual.
          return { done: false, again: moved };
        }
        return note(log, 'no match yet');
      }
      if (opts.enabled !== false && !node.enabled) return note(log, `${describeNode(node)} is disabled, waiting`);
      if (!previous || previous.bounds.join() !== node.bounds.join()) {
        const moved = previous !== null;
        previous = node;
        if (moved) return note(log, `${describeNode(node)} is moving, waiting for it to settle`);
        if (!io.still?.()) return { done: false };
      }
      log.push(`  resolved to ${describeNode(node)}`);
      return { done: true, value: { node, obs } };
    },
    io.clock,
  );
  if (ambiguous) return { status: 'ambiguous', nodes: ambiguous, obs: last! };
  if ('value' in r && r.value) return { status: 'ok', ...r.value };
  return { status: 'timeout', obs: last };
}

/** Whether an action took, judged from the screens before and after: 'unknown' when it cannot tell. */
export type Took = (before: Observation, after: Observation, node: UiNode | null) => 'yes' | 'no' | 'unknown';

/**
 * The default check: the app, the activity, the soft keyboard or what the screen says changed;
 * a tapped field has the focus. What changes on its own is not taken for the action's effect:
 * a window of another package closing while nothing else changed (a system toast timing out
 * over the target). A look without the tree (a transition) cannot tell.
 */
export const screenChanged: Took = (before, after, node) => {
  if (after.tree_missing) return 'unknown';
  if (after.package !== before.package || after.activity !== before.activity || !!after.keyboard !== !!before.keyboard)
    return 'yes';
  if (node?.editable && sameField(after, node)?.focused) return 'yes';
  const { added, removed } = diff(before, after);
  if (added.length > 0) return 'yes';
  const mine = packageOf(node) ?? before.package;
  const foreign = (n: UiNode) => packageOf(n) !== null && packageOf(n) !== mine;
  return removed.length > 0 && !removed.every(foreign) ? 'yes' : 'no';
};

/**
 * `fill`'s check: the field holds the value (a password field shows one bullet per character).
 * 'unknown' when the field is out of sight: the input is then not typed again.
 */
export function fieldHolds(steps: Step[], value: string): Took {
  return (_, after, node) => {
    if (after.tree_missing) return 'unknown';
    const field = findField(after, steps, node);
    if (!field) return 'unknown';
    if (field.password) return (field.text ?? '').length === value.length ? 'yes' : 'no';
    return field.text === value || fieldValue(field) === value ? 'yes' : 'no';
  };
}

/** The looks after an action, in ms after it: an effect usually shows at once, an animation a little later. */
export const SETTLE_WAITS = [0, 50, 150];
/** While a look finds no tree (a transition is running), look again this often (ms), this many times at most. */
const TREE_MISSING_WAIT = 100;
const TREE_MISSING_LOOKS = 20;

/**
 * Observe after an action until it shows an effect. Only an answer of 'no' in every look counts
 * as "no effect": when the check cannot tell ('unknown'), the action is not repeated. A look
 * without the accessibility tree says nothing either way (the transition may be the action's, or
 * another's): it is not one of the looks, and the next comes once the tree is back.
 */
export async function settle(
  observe: () => Promise<Observation>,
  before: Observation,
  node: UiNode | null,
  took: Took,
  clock: Clock = REAL_CLOCK,
): Promise<{ obs: Observation; effect: boolean }> {
  let obs = before;
  let answer: 'yes' | 'no' | 'unknown' = 'no';
  let missing = 0;
  for (let i = 0; i < SETTLE_WAITS.length; i++) {
    const wait = SETTLE_WAITS[i]!;
    if (wait) await clock.sleep(wait);
    obs = await observe();
    if (obs.tree_missing) {
      if (++missing > TREE_MISSING_LOOKS) return { obs, effect: true };
      await clock.sleep(TREE_MISSING_WAIT);
      i--;
      continue;
    }
    answer = took(before, obs, node);
    if (answer === 'yes') return { obs, effect: true };
  }
  return { obs, effect: answer === 'unknown' };
}

/**
 * The field `node` (from an earlier snapshot: ids are per snapshot) in `obs`: the steps' one
 * editable match, else the editable node with its resource id in the same column, else the
 * editable node at the same place. Null when it is out of sight.
 */
function findField(obs: Observation, steps: Step[], node: UiNode | null): UiNode | null {
  const mine = resolveSteps(obs.nodes, steps).filter((n) => n.editable);
  if (mine.length === 1) return mine[0]!;
  return node ? sameField(obs, node) : null;
}

/** The editable node at `node`'s place in `obs` (same resource id and column, else same bounds). */
function sameField(obs: Observation, node: UiNode): UiNode | null {
  const editable = obs.nodes.filter((n) => n.editable);
  const sameColumn = (a: UiNode) => a.bounds[0] === node.bounds[0] && a.bounds[2] === node.bounds[2];
  return (
    (node.res_id ? editable.find((n) => n.res_id === node.res_id && sameColumn(n)) : undefined) ??
    editable.find((n) => n.bounds.join() === node.bounds.join()) ??
    null
  );
}

/** The package of a node's resource id (`pkg:id/name`); null without one. */
function packageOf(n: UiNode | null): string | null {
  const i = n?.res_id?.indexOf(':id/') ?? -1;
  return i > 0 ? n!.res_id!.slice(0, i) : null;
}

/**
 * What the screen says, without where it says it: an animation that only moves nodes (a snackbar
 * sliding in) is not the effect of an action, so a dropped tap is not taken for one that took.
 */
function says(n: UiNode): string {
  let line = saying.get(n);
  if (line === undefined) saying.set(n, (line = sayOf(n)));
  return line;
}

/** {@link says} per node object: the screen after one action is the screen before the next. */
const saying = new WeakMap<UiNode, string>();

function sayOf(n: UiNode): string {
  return `${n.res_id ?? ''}|${n.role}|${n.text ?? ''}|${n.desc ?? ''}|${n.checked ? 1 : 0}|${n.selected ? 1 : 0}|${n.enabled ? 1 : 0}|${n.focused ? 1 : 0}`;
}

/** The nodes whose content is new in `after`, and those of `before` no longer there (as multisets). */
function diff(before: Observation, after: Observation): { added: UiNode[]; removed: UiNode[] } {
  // What both say in the same place at the start and at the end is in neither set: after an
  // action that changed one row, only the nodes between go through the maps. A node object kept
  // from one screen to the next says the same.
  const a = before.nodes;
  const b = after.nodes;
  let start = 0;
  while (start < a.length && start < b.length && (a[start] === b[start] || says(a[start]!) === says(b[start]!)))
    start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && (a[endA - 1] === b[endB - 1] || says(a[endA - 1]!) === says(b[endB - 1]!))) {
    endA--;
    endB--;
  }
  const left = new Map<string, UiNode[]>();
  for (let i = start; i < endA; i++) {
    const n = a[i]!;
    const k = says(n);
    const list = left.get(k);
    if (list) list.push(n);
    else left.set(k, [n]);
  }
  const added: UiNode[] = [];
  for (let i = start; i < endB; i++) {
    const n = b[i]!;
    const list = left.get(says(n));
    if (list?.length) list.pop();
    else added.push(n);
  }
  return { added, removed: [...left.values()].flat() };
}

/** A progress indicator inside a scrollable list: the list is loading its next page. */
function listLoading(obs: Observation): boolean {
  const byId = new Map(obs.nodes.map((n) => [n.id, n]));
  return obs.nodes.some((n) => {
    if (n.role !== 'progressbar') return false;
    for (let p = n.parent ? byId.get(n.parent) : undefined; p; p = p.parent ? byId.get(p.parent) : undefined)
      if (p.scrollable) return true;
    return false;
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function note(log: string[], line: string): { done: false } {
  if (log[log.length - 1] !== `  ${line}`) log.push(`  ${line}`);
  return { done: false };
}

/** A node in call logs and errors: `button "Save" id=save [0,100,200,160]`. */
export function describeNode(n: UiNode): string {
  const parts = [n.role];
  if (n.text) parts.push(JSON.stringify(n.text));
  if (n.desc) parts.push(`desc=${JSON.stringify(n.desc)}`);
  if (n.res_id) parts.push(`id=${n.res_id.replace(/^.*:id\//, '')}`);
  if (!n.enabled) parts.push('disabled');
  if (n.checked) parts.push('checked');
  parts.push(`[${n.bounds.join(',')}]`);
  return parts.join(' ');
}
