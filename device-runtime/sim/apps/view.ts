import type { Bounds } from '../../protocol/index.js';
import type { WebContent } from '../web/web-content.js';

/**
 * The simulated view hierarchy. App models build these plain objects in `render`; the layout
 * pass gives them bounds and the observer flattens them the way an accessibility service sees
 * Android views (docs/protocol.md#observation). Handlers are closures over the app model's render context.
 */
export type ViewKind =
  | 'column'
  | 'row'
  | 'text'
  | 'button'
  | 'image-button'
  | 'image'
  | 'edit-text'
  | 'checkbox'
  | 'switch'
  | 'list'
  | 'toolbar'
  | 'spacer'
  | 'webview'
  | 'canvas'
  | 'progress';

/** A rectangle drawn by a canvas view (relative to the view), for screenshots only. */
export interface Shape {
  rect: Bounds;
  color: string;
  label?: string;
}

/**
 * Rows of a virtualized list (RecyclerView): only rows inside the list's box are built, so
 * scrolling is what brings row 150 into the tree. `onEndReached` fires when the last rows show.
 */
export interface VirtualRows {
  count: number;
  itemHeight: number;
  render: (index: number) => View;
  onEndReached?: () => void;
}

export interface View {
  kind: ViewKind;
  /** Android class name as the accessibility tree reports it. */
  className: string;
  /** Short resource id (`save`); the observer prefixes `pkg:id/`. Lists need one to keep their scroll. */
  id?: string;
  text?: string;
  desc?: string;
  hint?: string;
  enabled?: boolean;
  checked?: boolean;
  password?: boolean;
  focused?: boolean;
  selected?: boolean;
  /** Fixed height in px; the layout pass picks one per kind otherwise. */
  height?: number;
  /** Fixed width in px inside a row; rows share what is left among the others. */
  width?: number;
  /** Share of the remaining height for `list`/`webview`/`canvas`/`spacer` (flex). */
  grow?: number;
  /** Translation in px (what a running animation does to bounds). */
  offset?: [number, number];
  /** Visual emphasis in screenshots. */
  /** `faint`: light grey text, below 3:1 on white (the Shop's rating, a documented accessibility finding). */
  tone?: 'primary' | 'danger' | 'muted' | 'badge' | 'faint';
  onClick?: () => void;
  onLongClick?: () => void;
  onTextChange?: (text: string) => void;
  /** The IME action (enter) on a focused field. */
  onSubmit?: () => void;
  /** Taps on views without child nodes (WebView, canvas), at view-relative coordinates. */
  onTapAt?: (x: number, y: number) => void;
  /** WebView page text, drawn in screenshots but absent from the node tree. */
  pageLines?: string[];
  /** A WebView's page, rendered in Chromium (sim/web/): its nodes are the WebView's children. */
  web?: WebContent;
  /** The accessibility role, when not the kind's (a WebView's link, heading). */
  role?: string;
  /** Whether the node reports clickable, when not "has a click handler". */
  clickable?: boolean;
  /** A drag that starts on this view (a WebView scrolls its page), at view-relative coordinates. */
  onSwipe?: (from: [number, number], to: [number, number], durationMs: number) => void;
  shapes?: Shape[];
  rows?: VirtualRows;
  children?: View[];
}

type Props = Omit<View, 'kind' | 'className' | 'children'>;

export const CLASS: Record<ViewKind, string> = {
  column: 'android.widget.LinearLayout',
  row: 'android.widget.LinearLayout',
  text: 'android.widget.TextView',
  button: 'android.widget.Button',
  'image-button': 'android.widget.ImageButton',
  image: 'android.widget.ImageView',
  'edit-text': 'android.widget.EditText',
  checkbox: 'android.widget.CheckBox',
  switch: 'android.widget.Switch',
  list: 'androidx.recyclerview.widget.RecyclerView',
  toolbar: 'android.widget.Toolbar',
  spacer: 'android.view.View',
  webview: 'android.webkit.WebView',
  canvas: 'android.view.SurfaceView',
  progress: 'android.widget.ProgressBar',
};

function make(kind: ViewKind, props: Props = {}, children?: View[]): View {
  return { kind, className: CLASS[kind], ...props, ...(children ? { children } : {}) };
}

export const column = (children: View[], props: Props = {}) => make('column', props, children);
export const row = (children: View[], props: Props = {}) => make('row', props, children);
export const text = (value: string, props: Props = {}) => make('text', { ...props, text: value });
export const button = (label: string, onClick: () => void, props: Props = {}) =>
  make('button', { ...props, text: label, onClick });
/** An icon button: no text, only a content description (a classic locator trap). */
export const iconButton = (desc: string, onClick: () => void, props: Props = {}) =>
  make('image-button', { width: 168, ...props, desc, onClick });
export const image = (desc: string, props: Props = {}) => make('image', { height: 480, ...props, desc });
export const editText = (value: string, onTextChange: (text: string) => void, props: Props = {}) =>
  make('edit-text', { ...props, text: value, onTextChange });
export const checkbox = (label: string, checked: boolean, onClick: () => void, props: Props = {}) =>
  make('checkbox', { ...props, text: label, checked, onClick });
export const switchView = (label: string, checked: boolean, onClick: () => void, props: Props = {}) =>
  make('switch', { ...props, text: label, checked, onClick });
/** A list laid out in full; rows outside its box are clipped away by the observer. */
export const list = (items: View[], props: Props = {}) => make('list', { grow: 1, ...props }, items);
/** A virtualized list: only the rows on screen exist. Give it an `id` so its scroll is kept. */
export const virtualList = (rows: VirtualRows, props: Props = {}) => make('list', { grow: 1, ...props, rows }, []);
export const toolbar = (title: string, actions: View[] = [], props: Props = {}) =>
  make('toolbar', props, [make('text', { text: title, id: 'toolbar_title' }), ...actions]);
export const spacer = (grow = 1) => make('spacer', { grow });
export const progress = (props: Props = {}) => make('progress', { desc: 'Loading', ...props });
export const webView = (pageLines: string[], onTapAt: (x: number, y: number) => void, props: Props = {}) =>
  make('webview', { grow: 1, ...props, pageLines, onTapAt });
/**
 * A WebView showing a real page (Chromium): `content` is what the app loads in it — a URL, its
 * assets, its JavaScript interfaces. Without a browser engine it is a box showing `content.fallback`.
 */
export const webPage = (content: WebContent, props: Props = {}) =>
  make('webview', { grow: 1, ...props, web: content, pageLines: content.fallback ?? [] });
export const canvas = (shapes: Shape[], onTapAt: (x: number, y: number) => void, props: Props = {}) =>
  make('canvas', { grow: 1, ...props, shapes, onTapAt });
