/**
 * The simulated view hierarchy. App models build these plain objects in `render`; the layout
 * pass gives them bounds and the observer flattens them the way an accessibility service sees
 * Android views (§4.2). Handlers are closures over the app model's render context.
 */
export type ViewKind =
  | 'column'
  | 'row'
  | 'text'
  | 'button'
  | 'image-button'
  | 'edit-text'
  | 'checkbox'
  | 'switch'
  | 'list'
  | 'toolbar'
  | 'spacer'
  | 'webview'
  | 'canvas'
  | 'progress';

export interface View {
  kind: ViewKind;
  /** Android class name as the accessibility tree reports it. */
  className: string;
  /** Short resource id (`save`); the observer prefixes `pkg:id/`. */
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
  /** Share of the remaining height for `list`/`webview`/`canvas`/`spacer` (flex). */
  grow?: number;
  onClick?: () => void;
  onLongClick?: () => void;
  onTextChange?: (text: string) => void;
  children?: View[];
}

type Props = Omit<View, 'kind' | 'className' | 'children'>;

const CLASS: Record<ViewKind, string> = {
  column: 'android.widget.LinearLayout',
  row: 'android.widget.LinearLayout',
  text: 'android.widget.TextView',
  button: 'android.widget.Button',
  'image-button': 'android.widget.ImageButton',
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
export const iconButton = (desc: string, onClick: () => void, props: Props = {}) =>
  make('image-button', { ...props, desc, onClick });
export const editText = (value: string, onTextChange: (text: string) => void, props: Props = {}) =>
  make('edit-text', { ...props, text: value, onTextChange });
export const list = (items: View[], props: Props = {}) => make('list', { grow: 1, ...props }, items);
export const toolbar = (title: string, actions: View[] = [], props: Props = {}) =>
  make('toolbar', props, [make('text', { text: title, id: 'toolbar_title' }), ...actions]);
export const spacer = (grow = 1) => make('spacer', { grow });
