import type { UiNode } from '../../device-runtime/protocol/index.js';
import { height, toDp, width, type AuditInput, type RawFinding } from './rules.js';

/**
 * The checks that read only the node tree (no pixels). Each follows its ATF namesake (see
 * RULES in rules.ts for the source file); where the observation lacks what ATF reads on a View
 * (labeledBy, traversalBefore/After, ClickableSpan), the nearest thing the tree has is used and
 * docs/accessibility.md says so.
 */

const has = (s: string | null | undefined): s is string => !!s && s.trim() !== '';

/** Children of each node id, in traversal (observation) order. */
export function childrenOf(nodes: UiNode[]): Map<string | null, UiNode[]> {
  const m = new Map<string | null, UiNode[]>();
  for (const n of nodes) {
    const p = n.parent ?? null;
    let list = m.get(p);
    if (!list) m.set(p, (list = []));
    list.push(n);
  }
  return m;
}

/** What a screen reader speaks for a node: its text, description or hint, else its non-focusable descendants'. */
export function speakableText(n: UiNode, kids: Map<string | null, UiNode[]>): string {
  const own = [n.desc, n.text, n.hint].find(has);
  if (own) return own.trim();
  const parts: string[] = [];
  const walk = (p: UiNode) => {
    for (const c of kids.get(p.id) ?? []) {
      if (c.clickable || c.long_clickable) continue; // a focusable child is spoken on its own
      const t = [c.desc, c.text].find(has);
      if (t) parts.push(t.trim());
      else walk(c);
    }
  };
  walk(n);
  return parts.join(' ');
}

const actionable = (n: UiNode) => n.clickable || !!n.long_clickable || n.editable || !!n.checkable;

/** SpeakableTextPresentCheck: a focusable node, or an image, that a screen reader would announce with nothing to say. */
export function speakableTextPresent(input: AuditInput, kids: Map<string | null, UiNode[]>): RawFinding[] {
  const out: RawFinding[] = [];
  for (const n of input.nodes) {
    const image = n.role === 'image' || n.class === 'android.widget.ImageView';
    if (!actionable(n) && !image) continue;
    if (speakableText(n, kids) !== '') continue;
    out.push({
      rule: 'SpeakableTextPresentCheck',
      severity: 'error',
      node: n,
      message: `this ${image ? 'image' : n.role} has no text, content description or hint, so a screen reader announces it only as "${n.role}". Give it a contentDescription that says what it does (or, for a decorative image, set importantForAccessibility="no").`,
      measured: { kind: 'none' },
    });
  }
  return out;
}

/** The minimum touch target, in dp (ATF's TOUCH_TARGET_MIN_WIDTH/HEIGHT, from Android's design guidelines). */
export const TOUCH_TARGET_DP = 48;

/**
 * TouchTargetSizeCheck: a clickable or long-clickable node under 48×48 dp. As ATF does, a node
 * cut by the screen's edge or its scrollable container's edge is not judged: its visible bounds
 * are not its size.
 */
export function touchTargetSize(input: AuditInput, byId: Map<string, UiNode>): RawFinding[] {
  const out: RawFinding[] = [];
  const min = TOUCH_TARGET_DP * input.density; // compared with px × 160, exact in integers
  for (const n of input.nodes) {
    if (!n.clickable && !n.long_clickable) continue;
    const w = width(n.bounds);
    const h = height(n.bounds);
    const narrow = w * 160 < min;
    const short = h * 160 < min;
    if (!narrow && !short) continue;
    if (clipped(n, byId, input.screen)) continue;
    const wDp = toDp(w, input.density);
    const hDp = toDp(h, input.density);
    const what = narrow && short ? `${wDp}×${hDp} dp` : narrow ? `${wDp} dp wide` : `${hDp} dp tall`;
    out.push({
      rule: 'TouchTargetSizeCheck',
      severity: 'error',
      node: n,
      message: `this touch target is ${what}; make it at least ${TOUCH_TARGET_DP}×${TOUCH_TARGET_DP} dp (android:minWidth/minHeight, padding, or a TouchDelegate).`,
      measured: { kind: 'size', widthDp: wDp, heightDp: hDp, requiredDp: TOUCH_TARGET_DP },
    });
  }
  return out;
}

function clipped(n: UiNode, byId: Map<string, UiNode>, screen: { width: number; height: number }): boolean {
  const b = n.bounds;
  if (b[0] <= 0 || b[1] <= 0 || b[2] >= screen.width || b[3] >= screen.height) {
    // Against the screen's edge: only a node whose size is exactly what shows is judged.
    if (b[0] < 0 || b[1] < 0 || b[2] > screen.width || b[3] > screen.height) return true;
  }
  for (let p = n.parent ? byId.get(n.parent) : undefined; p; p = p.parent ? byId.get(p.parent) : undefined) {
    if (!p.scrollable) continue;
    return b[1] <= p.bounds[1] || b[3] >= p.bounds[3] || b[0] <= p.bounds[0] || b[2] >= p.bounds[2];
  }
  return false;
}

/** DuplicateClickableBoundsCheck: two clickable nodes with the very same bounds (one hides the other from touch and from a screen reader). */
export function duplicateClickableBounds(input: AuditInput): RawFinding[] {
  const groups = new Map<string, UiNode[]>();
  for (const n of input.nodes) {
    if (!n.clickable && !n.long_clickable) continue;
    const key = n.bounds.join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(n);
  }
  const out: RawFinding[] = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    out.push({
      rule: 'DuplicateClickableBoundsCheck',
      severity: 'error',
      node: g[0]!,
      related: g.slice(1),
      message: `${g.length} clickable nodes share the bounds [${g[0]!.bounds.join(', ')}]; only one receives the tap. Make one of them not clickable, or merge them into one.`,
      measured: { kind: 'none' },
    });
  }
  return out;
}

/**
 * DuplicateSpeakableTextCheck: nodes that a screen reader announces the same way. ATF grades it
 * a warning when two or more of them are clickable (the user cannot tell the actions apart),
 * info otherwise.
 */
export function duplicateSpeakableText(
  input: AuditInput,
  kids: Map<string | null, UiNode[]>,
  byId: ReadonlyMap<string, UiNode> = new Map(input.nodes.map((n) => [n.id, n])),
): RawFinding[] {
  const groups = new Map<string, UiNode[]>();
  for (const n of input.nodes) {
    if (!actionable(n) && !has(n.text) && !has(n.desc)) continue;
    const t = speakableText(n, kids).toLowerCase();
    if (t === '') continue;
    let g = groups.get(t);
    if (!g) groups.set(t, (g = []));
    g.push(n);
  }
  const out: RawFinding[] = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    // A clickable row and the text inside it say one thing once: keep only the outermost.
    const members = new Set(g);
    const tops = g.filter((n) => !hasAncestorIn(n, members, byId));
    if (tops.length < 2) continue;
    const clickable = tops.filter((n) => n.clickable || n.long_clickable);
    const severity = clickable.length >= 2 ? 'warning' : 'info';
    const list = severity === 'warning' ? clickable : tops;
    const text = speakableText(list[0]!, kids);
    out.push({
      rule: 'DuplicateSpeakableTextCheck',
      severity,
      node: list[0]!,
      related: list.slice(1),
      message: `${list.length} ${severity === 'warning' ? 'clickable ' : ''}nodes are announced as "${text}"; a screen-reader user cannot tell them apart. Give each a description that says what it acts on (e.g. "Add Mug to cart").`,
      measured: { kind: 'none' },
    });
  }
  return out;
}

/** Whether a node above `n` is one of `members`: one walk up the tree (its depth), whatever the group's size. */
function hasAncestorIn(n: UiNode, members: ReadonlySet<UiNode>, byId: ReadonlyMap<string, UiNode>): boolean {
  for (let p = n.parent ? byId.get(n.parent) : undefined; p; p = p.parent ? byId.get(p.parent) : undefined)
    if (members.has(p)) return true;
  return false;
}

/** EditableContentDescCheck: an editable field with a content description (it hides the text the user typed; use a hint or a label). */
export function editableContentDesc(input: AuditInput): RawFinding[] {
  return input.nodes
    .filter((n) => n.editable && has(n.desc))
    .map((n) => ({
      rule: 'EditableContentDescCheck' as const,
      severity: 'error' as const,
      node: n,
      message: `this editable field has the content description "${n.desc}", which a screen reader reads instead of what was typed. Remove it; say what the field is with android:hint or a label (android:labelFor).`,
      measured: { kind: 'none' as const },
    }));
}

/** Role words a description should not repeat: the screen reader already announces the role. */
const ROLE_WORDS = [
  'button',
  'checkbox',
  'check box',
  'switch',
  'toggle',
  'image',
  'picture',
  'icon',
  'link',
  'tab',
  'text field',
  'edit box',
];

/** RedundantDescriptionCheck: a content description that names the node's role ("Save button"). */
export function redundantDescription(input: AuditInput): RawFinding[] {
  const out: RawFinding[] = [];
  for (const n of input.nodes) {
    if (!has(n.desc)) continue;
    const d = n.desc.toLowerCase();
    const word = ROLE_WORDS.find((w) => new RegExp(`(^|[^a-z])${w}([^a-z]|$)`).test(d));
    if (!word) continue;
    out.push({
      rule: 'RedundantDescriptionCheck',
      severity: 'warning',
      node: n,
      message: `the description "${n.desc}" contains "${word}"; the screen reader already announces the role, so it is said twice. Describe only what it does ("${n.desc.replace(new RegExp(`\\s*\\b${word}\\b\\s*`, 'i'), ' ').trim() || 'Save'}").`,
      measured: { kind: 'none' },
    });
  }
  return out;
}

/** Link texts that say nothing about where they lead. */
const UNCLEAR = [
  'click here',
  'tap here',
  'here',
  'click',
  'tap',
  'more',
  'read more',
  'learn more',
  'link',
  'this link',
  'details',
  'more info',
  'go',
];

/** LinkPurposeUnclearCheck: a link (a clickable text, or a node with the role link) whose text does not say where it goes. */
export function linkPurposeUnclear(input: AuditInput): RawFinding[] {
  const out: RawFinding[] = [];
  for (const n of input.nodes) {
    const link = n.role === 'link' || (n.role === 'text' && n.clickable);
    if (!link || !has(n.text)) continue;
    const t = n.text
      .trim()
      .toLowerCase()
      .replace(/[.!…:>»]+$/, '')
      .trim();
    if (!UNCLEAR.includes(t)) continue;
    out.push({
      rule: 'LinkPurposeUnclearCheck',
      severity: 'warning',
      node: n,
      message: `the link text "${n.text}" does not say where it goes. Name the destination ("Read the return policy").`,
      measured: { kind: 'none' },
    });
  }
  return out;
}

/**
 * TraversalOrderCheck: among siblings, a node the screen reader reaches after another although
 * it lies wholly above it (or, on the same line, wholly to its left). ATF reads the explicit
 * traversalBefore/After attributes; a tree read from outside has only the resulting order, so
 * this compares that order with the visual one.
 */
export function traversalOrder(input: AuditInput, kids: Map<string | null, UiNode[]>): RawFinding[] {
  const out: RawFinding[] = [];
  for (const siblings of kids.values()) {
    // topMax[i]: the lowest top edge among siblings 0..i; leftMax[i]: the rightmost left edge.
    // The first earlier sibling wholly below `b` is found by binary search on topMax; one wholly
    // right of it can only exist while leftMax reaches b's right edge, and is looked for only
    // before that first one (a row of siblings in reading order is one pass, not a square).
    const topMax: number[] = [];
    const leftMax: number[] = [];
    for (const [i, x] of siblings.entries()) {
      topMax.push(Math.max(x.bounds[1], i ? topMax[i - 1]! : -Infinity));
      leftMax.push(Math.max(x.bounds[0], i ? leftMax[i - 1]! : -Infinity));
    }
    for (let i = 1; i < siblings.length; i++) {
      const b = siblings[i]!;
      let below = firstAtLeast(topMax, i, b.bounds[3]);
      if (leftMax[i - 1]! >= b.bounds[2]) {
        for (let j = 0; j < below; j++) {
          const x = siblings[j]!;
          if (overlapY(x, b) && b.bounds[2] <= x.bounds[0]) {
            below = j;
            break;
          }
        }
      }
      const a = below < i ? siblings[below] : undefined;
      if (!a) continue;
      out.push({
        rule: 'TraversalOrderCheck',
        severity: 'warning',
        node: b,
        related: [a],
        message: `a screen reader reaches this node after "${a.text ?? a.desc ?? a.role}", which is ${b.bounds[3] <= a.bounds[1] ? 'below' : 'right of'} it on screen. Order the views as they read, or set android:accessibilityTraversalBefore/After.`,
        measured: { kind: 'none' },
      });
    }
  }
  return out;
}

/** The first index below `end` whose value in the non-decreasing `xs` is at least `v` (`end` when none). */
function firstAtLeast(xs: readonly number[], end: number, v: number): number {
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! >= v) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const overlapY = (a: UiNode, b: UiNode) =>
  Math.min(a.bounds[3], b.bounds[3]) - Math.max(a.bounds[1], b.bounds[1]) >
  Math.min(height(a.bounds), height(b.bounds)) / 2;
