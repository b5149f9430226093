/**
 * What a screen is to the crawler, and what it offers. A screen is its activity and the
 * structure of its tree — the set of node shapes (role, resource id or class, what it does) —
 * not its text: a list with other rows, a product with another name, is the same screen. Its
 * actions are taps on actionable nodes (one per kind of list row), a long press where one is
 * offered, a fill of each field with a value of its kind, "fill the form, then tap" for a
 * screen with fields, a swipe of each list, and back. Targets are named by the framework's best
 * locator for the node (device-runtime/protocol/best-selector.ts, the one home of the best selector), so a path replays on a fresh instance and reads
 * as a spec.
 */
import { createHash } from 'node:crypto';
import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import { resolveSteps } from '../../framework/core/selector.js';
import { suggestLocators } from '../../device-runtime/protocol/best-selector.js';
import type { ResolvedConfig } from './config.js';
import type { Action, InputValue } from './model.js';

const shortId = (n: UiNode) => n.res_id?.replace(/^.*:id\//, '') ?? null;
/** A list (RecyclerView, ListView…): scrollable, or a list too short to scroll yet. */
const isList = (n: UiNode | undefined) => !!n && (n.scrollable || n.role === 'list');

/** What kind of window is in front: the app's own screen, one of its dialogs, the permission prompt, or another app. */
export function screenKind(obs: Observation, pkg: string): 'screen' | 'dialog' | 'permission' | 'other-app' {
  if (obs.package !== pkg)
    return obs.package && /permissioncontroller|packageinstaller/.test(obs.package) ? 'permission' : 'other-app';
  const root = obs.nodes.find((n) => !n.parent);
  return root && shortId(root) === 'parentPanel' ? 'dialog' : 'screen';
}

/** One node's shape: what it is and does, never what it says (nor whether its list overflows). */
function shape(n: UiNode): string {
  const flags = [n.clickable && 'c', n.editable && 'e', n.long_clickable && 'l', n.checkable && 'k']
    .filter(Boolean)
    .join('');
  return `${n.role}|${shortId(n) ?? n.class ?? ''}|${flags}`;
}

/** Windows that come and go on their own (a toast, a snackbar): not part of the screen under them. */
const TRANSIENT = /^(toast|snackbar|snackbar_text|snackbar_action)$/;

/**
 * The nodes that make a screen what it is: not transient windows, and of a list only the rows'
 * own shapes (what a row holds varies with its data: a note with a date, one without).
 */
export function structuralNodes(obs: Pick<Observation, 'nodes'>): UiNode[] {
  const byId = new Map(obs.nodes.map((n) => [n.id, n]));
  const out: UiNode[] = [];
  const dropped = new Set<string>();
  for (const n of obs.nodes) {
    const parent = n.parent ? byId.get(n.parent) : undefined;
    const id = shortId(n);
    if ((parent && dropped.has(parent.id)) || (id && TRANSIENT.test(id))) {
      dropped.add(n.id);
      continue;
    }
    // Below a row of a list: the row stands for what it holds.
    if (parent && !isList(parent) && parent.parent && isList(byId.get(parent.parent))) {
      dropped.add(n.id);
      continue;
    }
    out.push(n);
  }
  return out;
}

/** The screen's key: its activity and the set of its nodes' shapes (a set: ten rows or three, one screen). */
export function screenKey(obs: Observation): string {
  const shapes = [...new Set(structuralNodes(obs).map(shape))].sort();
  return createHash('sha256')
    .update(`${obs.package}\n${obs.activity}\n${shapes.join('\n')}`)
    .digest('hex')
    .slice(0, 16);
}

/** A short name: the activity and the screen's title (the toolbar's, a dialog's, or its first text). */
export function screenTitle(obs: Observation, kind: string): string {
  const title =
    obs.nodes.find((n) => /toolbar_title|alertTitle|permission_message/.test(n.res_id ?? ''))?.text ??
    obs.nodes.find((n) => n.text)?.text ??
    obs.nodes.find((n) => n.desc)?.desc ??
    '';
  if (obs.package === null) return 'Outside the app';
  const activity = (obs.activity ?? '?').replace(/^.*\./, '');
  const what = kind === 'screen' ? activity : `${activity} ${kind}`;
  return title ? `${what}: ${title.slice(0, 40)}` : what;
}

/**
 * The best strict locator for a node on this screen, or null when none names it alone. A
 * position (`nth=`) is the last resort: a clickable row with no name of its own is named by the
 * text it holds (a tap on it lands on the row, its clickable ancestor), which does not depend on
 * how many bare containers the runtime's look keeps.
 */
export function bestLocator(obs: Observation, n: UiNode): { selector: string; code: string } | null {
  const best = suggestLocators(obs, n.id)[0];
  if (best?.strictSafe && best.strategy !== 'nth') return { selector: best.selector, code: best.code };
  const inner = obs.nodes.find((c) => c.parent === n.id && c.text && !c.clickable);
  const byText = inner && n.clickable ? suggestLocators(obs, inner.id)[0] : undefined;
  if (byText?.strictSafe && byText.strategy !== 'nth') return { selector: byText.selector, code: byText.code };
  return best?.strictSafe ? { selector: best.selector, code: best.code } : null;
}

/**
 * A list row (or a control in one) that repeats: its own id, role, description or text when that
 * names it alone, else the first of its kind (`getById('note_row').first()`): the rows are the
 * app's data, and the first is there on every replay of the same path.
 */
function rowLocator(
  obs: Observation,
  n: UiNode,
  list: UiNode | null,
  id: string | null,
): { selector: string; code: string } | null {
  if (!list || !id) return null;
  const best = suggestLocators(obs, n.id)[0];
  // By its id alone only while the list holds one such row: rows are data, a replay may show more.
  if (best?.strictSafe && best.strategy !== 'nth' && best.strategy !== 'chain' && best.strategy !== 'id') return best;
  const first = resolveSteps(obs.nodes, [{ kind: 'id', id }])[0];
  if (first?.id !== n.id) return null;
  return { selector: `id=${id} >> nth=0`, code: `app.getById('${id}').first()` };
}

/** Nodes inside a scrollable list, by their nearest list ancestor. */
function listOf(n: UiNode, byId: Map<string, UiNode>): UiNode | null {
  for (let p = n.parent ? byId.get(n.parent) : undefined; p; p = p.parent ? byId.get(p.parent) : undefined)
    if (isList(p)) return p;
  return null;
}

/** The value a field gets: configured by its id, hint or label, else one of its kind. */
export function valueFor(n: UiNode, config: ResolvedConfig): InputValue {
  for (const name of [shortId(n), n.hint, n.desc, n.text].filter((x): x is string => !!x)) {
    const v = config.inputs.get(name.toLowerCase());
    if (v !== undefined) return v;
  }
  const words = `${shortId(n) ?? ''} ${n.hint ?? ''}`.toLowerCase();
  if (n.password || /password|passcode|pin\b/.test(words)) return 'Crawl-pass-1';
  if (/e-?mail/.test(words)) return 'crawl@example.com';
  if (/phone|tel/.test(words)) return '5550100';
  if (/\b(amount|qty|quantity|number|age|zip|code)\b/.test(words.replace(/_/g, ' '))) return '1';
  if (/url|website|link/.test(words)) return 'https://example.com';
  if (/address/.test(words)) return '1 Main St';
  return 'crawl';
}

/** The actions a screen offers, in the order they are tried; what the config says not to touch is left out. */
export function actionsOf(obs: Observation, config: ResolvedConfig): Action[] {
  const avoided = new Set<string>();
  for (const a of config.avoid)
    for (const m of resolveSteps(obs.nodes, a.steps)) {
      avoided.add(m.id);
      // The avoided node and everything inside it (a row whose child is the "Log out" text).
      for (const n of obs.nodes) if (n.parent && avoided.has(n.parent)) avoided.add(n.id);
    }
  const byId = new Map(obs.nodes.map((n) => [n.id, n]));
  // A clickable row whose text says "Log out" is avoided when its text node is (one level up, never a list).
  for (const n of [...obs.nodes].reverse()) {
    const parent = n.parent ? byId.get(n.parent) : undefined;
    if (avoided.has(n.id) && parent?.clickable && !parent.scrollable) avoided.add(parent.id);
  }
  const seenRow = new Set<string>();
  const out: Action[] = [];
  const fields: UiNode[] = [];
  const checks: UiNode[] = [];
  const buttons: Array<{ n: UiNode; loc: { selector: string; code: string } }> = [];
  for (const n of obs.nodes) {
    if (avoided.has(n.id) || !n.enabled) continue;
    if (!(n.clickable || n.editable || n.long_clickable || n.scrollable)) continue;
    // Rows of one kind in a list (same resource id): one stands for all.
    const list = listOf(n, byId);
    const id = shortId(n);
    if (list && id) {
      const key = `${list.id}|${id}`;
      if (seenRow.has(key)) continue;
      seenRow.add(key);
    }
    const loc = rowLocator(obs, n, list, id) ?? bestLocator(obs, n);
    if (!loc) continue;
    const label = loc.selector;
    if (n.editable) {
      fields.push(n);
      out.push({ kind: 'fill', ...loc, label, value: valueFor(n, config) });
      if (n.long_clickable) out.push({ kind: 'longPress', ...loc, label });
      continue;
    }
    if (n.scrollable) out.push({ kind: 'swipe', ...loc, label });
    if (n.clickable) {
      out.push({ kind: 'tap', ...loc, label });
      if (n.checkable && !n.checked) checks.push(n);
      else if (!n.checkable) buttons.push({ n, loc });
    }
    if (n.long_clickable) out.push({ kind: 'longPress', ...loc, label });
  }
  if (fields.length > 0) {
    const locFields = fields.flatMap((f) => {
      const l = bestLocator(obs, f);
      return l ? [{ ...l, value: valueFor(f, config) }] : [];
    });
    const locChecks = checks.flatMap((c) => {
      const l = bestLocator(obs, c);
      return l ? [l] : [];
    });
    // The form's buttons: those with a text outside lists, and icons beside a field (a chat's Send).
    const fieldParents = new Set(fields.map((f) => f.parent));
    for (const { n, loc } of buttons)
      if (!listOf(n, byId) && (n.text || fieldParents.has(n.parent)))
        out.push({ kind: 'submit', fields: locFields, checks: locChecks, ...loc, label: loc.selector });
  }
  out.push({ kind: 'back' });
  return out;
}

/** The resource ids a screen holds outside its lists, on nodes a locator finds (what tells it from its look-alikes). */
function ownIds(nodes: UiNode[]): Map<string, number> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const count = new Map<string, number>();
  for (const n of structuralNodes({ nodes })) {
    const id = shortId(n);
    if (!id || listOf(n, byId) || id === 'toolbar_title' || id === 'parentPanel') continue;
    // Only what a locator can find: a compact look keeps nodes that act or say something, not bare containers.
    if (!(n.clickable || n.editable || n.long_clickable || n.text || n.desc)) continue;
    count.set(id, (count.get(id) ?? 0) + 1);
  }
  return count;
}

const byIdLocator = (id: string) => ({ selector: `id=${id}`, code: `app.getById('${id.replace(/'/g, "\\'")}')` });

/**
 * What says "this screen" among the others of its activity: up to three of its own ids, those
 * fewest look-alikes have first, and up to two ids the closest look-alike has and this one lacks
 * (asserted hidden). Falls back to a named node when the screen has no ids.
 */
export function identifyScreen(
  screen: { nodes: UiNode[] },
  siblings: Array<{ nodes: UiNode[] }>,
): Array<{ selector: string; code: string; hidden?: boolean }> {
  const mine = ownIds(screen.nodes);
  const others = siblings.map((s) => ownIds(s.nodes));
  const unique = [...mine.entries()].filter(([, n]) => n === 1).map(([id]) => id);
  const rarity = (id: string) => others.filter((o) => o.has(id)).length;
  const out: Array<{ selector: string; code: string; hidden?: boolean }> = unique
    .sort((a, b) => rarity(a) - rarity(b))
    .slice(0, 3)
    .map(byIdLocator);
  const closest = [...others].sort(
    (a, b) => [...b.keys()].filter((k) => mine.has(k)).length - [...a.keys()].filter((k) => mine.has(k)).length,
  )[0];
  if (closest)
    for (const id of [...closest.keys()].filter((k) => !mine.has(k)).slice(0, 2))
      out.push({ ...byIdLocator(id), hidden: true });
  if (out.filter((i) => !i.hidden).length === 0) {
    const obs = { nodes: screen.nodes } as Observation;
    const byId = new Map(screen.nodes.map((n) => [n.id, n]));
    for (const n of screen.nodes) {
      if (out.filter((i) => !i.hidden).length >= 2) break;
      if (listOf(n, byId) || !(n.text || n.desc)) continue;
      const loc = bestLocator(obs, n);
      if (loc) out.push(loc);
    }
  }
  return out;
}
