import type { Observation, UiNode } from '../../protocol/index.js';
import { screenHash } from '../appium/source-observation.js';
import { parseBounds, roleOf } from '../android-roles.js';
import type { UIElement } from './messages.js';

/**
 * Classes whose shown string is their text. The companion sends one string per element (the
 * text, or the content description when there is no text), so which of the two it was is told
 * by the class: an image (an ImageButton too), a layout or a plain view has no text of its own, so its string is a
 * description; a text view, button, field or check box shows text.
 */
const TEXT_CLASSES = /TextView|Button|EditText|CheckBox|Switch|RadioButton|Chip|Toggle/;
const DESC_CLASSES = /Image|Layout|ViewGroup|^View$|Toolbar|ProgressBar|WebView/;
const CHECKABLE = /CheckBox|Switch|RadioButton|Toggle|CheckedTextView/;

/**
 * The companion's element list as the protocol's observation: nodes in the list's order (the
 * app's depth-first walk), ids n0… (stable within this snapshot only), bounds from its
 * `[l,t][r,b]` string, the parent as the nearest earlier element of smaller depth (the nearest
 * kept ancestor), and the class's last part widened to `android.widget.` where it is one.
 * An empty list is the design's "null tree during a transition": `tree_missing`.
 */
export function observationOf(
  elements: UIElement[],
  meta: {
    snapshotId: string;
    spaceId: string;
    instance: string | null;
    packageName: string | null;
    screen: { width: number; height: number };
    detail: 'compact' | 'full';
    maxNodes: number;
  },
): Observation {
  const nodes: UiNode[] = [];
  const stack: Array<{ depth: number; id: string }> = [];
  for (const [i, e] of elements.entries()) {
    const id = `n${i}`;
    while (stack.length && stack[stack.length - 1]!.depth >= e.depth) stack.pop();
    const parent = stack[stack.length - 1]?.id ?? null;
    stack.push({ depth: e.depth, id });
    const shown = e.text || null;
    const asDesc =
      shown !== null &&
      !e.editable &&
      (/Image/.test(e.type) || (DESC_CLASSES.test(e.type) && !TEXT_CLASSES.test(e.type)));
    nodes.push({
      id,
      role: roleOf(e.type, e.clickable),
      text: asDesc ? null : shown,
      desc: asDesc ? shown : null,
      bounds: parseBounds(e.bounds),
      clickable: e.clickable,
      editable: e.editable,
      scrollable: e.scrollable,
      enabled: e.enabled,
      focused: e.focused,
      selected: e.selected,
      class: e.type.includes('.') ? e.type : `android.widget.${e.type || 'View'}`,
      res_id: e.id || null,
      long_clickable: e.longClickable,
      checkable: CHECKABLE.test(e.type),
      checked: e.checked,
      password: e.password,
      hint: e.hint || null,
      parent,
      depth: e.depth,
    });
  }
  const kept =
    meta.detail === 'compact'
      ? nodes.filter((n) => n.clickable || n.editable || n.scrollable || n.text || n.desc)
      : nodes;
  const cut = kept.slice(0, meta.maxNodes);
  return {
    snapshot_id: meta.snapshotId,
    space_id: meta.spaceId,
    package: meta.packageName,
    activity: null,
    instance: meta.instance,
    screen: { width: meta.screen.width, height: meta.screen.height, rotation: 0 },
    nodes: cut,
    ...(cut.length < kept.length ? { truncated: true } : {}),
    ...(elements.length === 0 ? { tree_missing: true } : {}),
    screen_hash: screenHash(nodes),
    screenshot: null,
    channel: 'accessibility',
    timestamp_ms: Date.now(),
  };
}
