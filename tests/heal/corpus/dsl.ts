import type { Observation, UiNode } from '../../../device-runtime/protocol/index.js';
import type { Step } from '../../../framework/core/selector.js';

/**
 * A small language for the drift corpus: screens written as nested views, laid out the way the
 * simulator lays out columns and rows (1080×2400, toolbar at y=84), flattened into an
 * observation in the protocol's shape with only the nodes a device keeps (clickable, editable,
 * or with a text or description), each with its nearest kept ancestor as `parent`.
 */
export interface V {
  role: string;
  text?: string;
  desc?: string;
  id?: string;
  hint?: string;
  cls?: string;
  clickable?: boolean;
  editable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  enabled?: boolean;
  password?: boolean;
  /** Height in px (default 144); width when inside a row (default: an equal share). */
  h?: number;
  w?: number;
  /** Children laid out in a row (default: a column). */
  row?: boolean;
  children?: V[];
  /** The name a case uses for this node (`target`, `other`). */
  key?: string;
}

const CLASS: Record<string, string> = {
  button: 'android.widget.Button',
  text: 'android.widget.TextView',
  textbox: 'android.widget.EditText',
  checkbox: 'android.widget.CheckBox',
  switch: 'android.widget.Switch',
  image: 'android.widget.ImageView',
  listitem: 'android.widget.LinearLayout',
  list: 'androidx.recyclerview.widget.RecyclerView',
  group: 'android.widget.LinearLayout',
};

export const btn = (text: string, id?: string, more: Partial<V> = {}): V => ({
  role: 'button',
  text,
  ...(id ? { id } : {}),
  clickable: true,
  ...more,
});
export const icon = (desc: string, id?: string, more: Partial<V> = {}): V => ({
  role: 'button',
  desc,
  ...(id ? { id } : {}),
  cls: 'android.widget.ImageButton',
  clickable: true,
  w: 168,
  h: 168,
  ...more,
});
export const txt = (text: string, id?: string, more: Partial<V> = {}): V => ({
  role: 'text',
  text,
  ...(id ? { id } : {}),
  h: 96,
  ...more,
});
export const field = (hint: string | undefined, id?: string, more: Partial<V> = {}): V => ({
  role: 'textbox',
  ...(hint ? { hint } : {}),
  ...(id ? { id } : {}),
  editable: true,
  clickable: true,
  ...more,
});
export const sw = (text: string, id?: string, more: Partial<V> = {}): V => ({
  role: 'switch',
  text,
  ...(id ? { id } : {}),
  clickable: true,
  checkable: true,
  ...more,
});
export const check = (text: string, id?: string, more: Partial<V> = {}): V => ({
  role: 'checkbox',
  text,
  ...(id ? { id } : {}),
  clickable: true,
  checkable: true,
  ...more,
});
export const row = (children: V[], more: Partial<V> = {}): V => ({
  role: 'group',
  row: true,
  children,
  h: 168,
  ...more,
});
export const col = (children: V[], more: Partial<V> = {}): V => ({ role: 'group', children, ...more });
export const item = (children: V[], id = 'row', more: Partial<V> = {}): V => ({
  role: 'listitem',
  id,
  clickable: true,
  children,
  ...more,
});
export const toolbar = (title: string, actions: V[] = []): V =>
  row([txt(title, 'toolbar_title', { h: 168 }), ...actions]);

const W = 1080;
const H = 2400;

function height(v: V): number {
  if (!v.children) return v.h ?? 144;
  if (v.row) return v.h ?? Math.max(...v.children.map(height));
  return v.children.reduce((s, c) => s + height(c), 0);
}

export interface Screen {
  observation: Observation;
  /** Node ids by key. */
  keys: Record<string, string>;
}

/**
 * An observation of `body` (a column from the toolbar down), or of `dialog` alone when given:
 * an open dialog's window is all a device reports, the activity behind it is not observed.
 */
export function screen(activity: string, body: V[], opts: { pkg?: string; dialog?: V[] } = {}): Screen {
  const nodes: UiNode[] = [];
  const keys: Record<string, string> = {};
  const place = (v: V, box: [number, number, number, number], parent: string | null, depth: number) => {
    const kept = v.clickable || v.editable || !!v.text || !!v.desc;
    let id = parent;
    if (kept) {
      id = `n_${nodes.length + 1}`;
      nodes.push({
        id,
        role: v.role,
        text: v.text ?? null,
        desc: v.desc ?? null,
        bounds: box,
        clickable: !!v.clickable,
        editable: !!v.editable,
        scrollable: false,
        enabled: v.enabled ?? true,
        focused: false,
        selected: false,
        class: v.cls ?? CLASS[v.role] ?? 'android.view.View',
        res_id: v.id ? `${opts.pkg ?? 'com.example.app'}:id/${v.id}` : null,
        long_clickable: false,
        checkable: !!v.checkable,
        checked: !!v.checked,
        password: !!v.password,
        hint: v.hint ?? null,
        parent,
        depth,
      });
      if (v.key) keys[v.key] = id;
    }
    if (!v.children) return;
    const [l, t, r] = box;
    if (v.row) {
      const fixed = v.children.reduce((s, c) => s + (c.w ?? 0), 0);
      const flex = v.children.filter((c) => c.w === undefined).length;
      let x = l;
      for (const c of v.children) {
        const w = c.w ?? Math.floor((r - l - fixed) / Math.max(1, flex));
        place(c, [x, t, x + w, t + height(c)], id, depth + 1);
        x += w;
      }
    } else {
      let y = t;
      for (const c of v.children) {
        place(c, [l, y, r, y + height(c)], id, depth + 1);
        y += height(c);
      }
    }
  };
  if (opts.dialog) {
    const root = col(opts.dialog);
    const h = height(root);
    const top = Math.round((H - h) / 2);
    place(root, [72, top, W - 72, top + h], null, 0);
  } else {
    place(col(body), [0, 84, W, H], null, 0);
  }
  const observation: Observation = {
    snapshot_id: 's_1',
    space_id: 'sp_corpus',
    package: opts.pkg ?? 'com.example.app',
    activity,
    instance: '0',
    screen: { width: W, height: H, rotation: 0 },
    nodes,
    truncated: false,
    screen_hash: 'corpus',
    screenshot: null,
    timestamp_ms: 0,
  };
  return { observation, keys };
}

/** A recorded drift: the screen a locator worked on, the screen after the app changed. */
export interface DriftCase {
  name: string;
  category:
    | 'renamed-id'
    | 'reworded'
    | 'translated'
    | 'moved'
    | 'reordered'
    | 'look-alike'
    | 'removed'
    | 'dialog'
    | 'ambiguous'
    | 'disabled';
  /** `tune`: the weights and thresholds were set looking at these; `holdout`: written after, never tuned on. */
  split: 'tune' | 'holdout';
  selector: string | Step[];
  /** Key `target` names the node the locator resolved to. */
  before: Screen;
  /** Key `target` names the node a person would say it is now; absent when the right answer is "no". */
  after: Screen;
}
