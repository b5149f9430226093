import type { Bounds } from '../../protocol/index.js';
import type { RawAppRequest } from '../net/http-client.js';
import { CLASS, type View, type ViewKind } from '../apps/view.js';
import type { WebNode, WebRole } from '../web/ax-nodes.js';
import type { SimWebEngine } from '../web/web-engine.js';
import type { SimWebPage } from '../web/web-page.js';
import type { Frame } from './frame.js';
import { still, type LaidOut } from './layout.js';

/**
 * WebViews in a frame: each WebView of the activity in front gets its page (sim/web/), the
 * page's accessibility nodes as its children — Android's WebView exposes its page to
 * accessibility services as virtual child nodes — and its touches forwarded to the page.
 * Answers how many pages the frame shows (their nodes change on the page's own time), and how
 * many WebViews, with a page or not.
 */
export function attachWebViews(frame: Frame, engine: SimWebEngine, spaceId: string): { pages: number; views: number } {
  engine.beginFrame(spaceId);
  const { fg, record } = frame;
  if (!fg || !record) return { pages: 0, views: 0 };
  let pages = 0;
  let views = 0;
  const owner = {
    run: (fn: () => void) => {
      fg.runApp(fn);
      fg.host.invalidate();
    },
    crash: (reason: string) => {
      if (fg.status !== 'crashed' && fg.status !== 'stopped') fg.crash(reason);
    },
    fetch: (req: RawAppRequest) => fg.webFetch(req),
  };
  const walk = (laid: LaidOut) => {
    const v = laid.view;
    // A subtree that lays out the same in the same box has no WebView (nor list) in it.
    if (still(v)) return;
    if (v.kind === 'webview') views++;
    if (v.kind === 'webview' && v.web) {
      const ref = { spaceId, instanceKey: fg.key, seq: record.seq, view: v.id ?? laid.path };
      const page = engine.show(ref, v.web, laid.bounds, owner);
      if (page) {
        attach(laid, page);
        pages++;
      }
      return;
    }
    laid.children.forEach(walk);
  };
  for (const w of frame.windows) if (w.kind === 'activity') walk(w.root);
  return { pages, views };
}

function attach(laid: LaidOut, page: SimWebPage): void {
  const [left, top] = laid.bounds;
  laid.view = {
    ...laid.view,
    pageLines: [],
    onTapAt: (x, y) => page.tap(left + x, top + y),
    onSwipe: (from, to, ms) => page.swipe([left + from[0], top + from[1]], [left + to[0], top + to[1]], ms),
  };
  laid.picture = page.picture;
  laid.children = page.nodes.map((n) => {
    const bounds = page.toScreen(n.rect);
    return { view: nodeView(page, n, bounds), bounds, children: [], path: `${laid.path}.w${n.backendId}` };
  });
}

/** How each role of the page reads as an Android node: the kind it behaves as, its role and class. */
const AS: Record<WebRole, { kind: ViewKind; className: string }> = {
  button: { kind: 'button', className: CLASS.button },
  link: { kind: 'text', className: 'android.view.View' },
  textbox: { kind: 'edit-text', className: CLASS['edit-text'] },
  checkbox: { kind: 'checkbox', className: CLASS.checkbox },
  switch: { kind: 'switch', className: CLASS.switch },
  radio: { kind: 'checkbox', className: 'android.widget.RadioButton' },
  heading: { kind: 'text', className: 'android.view.View' },
  image: { kind: 'image', className: 'android.widget.Image' },
  text: { kind: 'text', className: 'android.view.View' },
};
const CLICKABLE = new Set<WebRole>(['button', 'link', 'textbox', 'checkbox', 'switch', 'radio']);

function nodeView(page: SimWebPage, n: WebNode, bounds: Bounds): View {
  const { kind, className } = AS[n.role];
  const view: View = {
    kind,
    className,
    enabled: !n.disabled,
    focused: n.focused,
    clickable: CLICKABLE.has(n.role),
    onTapAt: (x, y) => page.tap(bounds[0] + x, bounds[1] + y),
  };
  if (n.role === 'radio' || n.role === 'heading' || n.role === 'link') view.role = n.role;
  if (n.role === 'textbox') {
    view.text = n.value ?? '';
    if (n.name) view.hint = n.name;
    view.onTextChange = (text) => page.setText(n.backendId, text);
    view.onSubmit = () => page.press('Enter');
  } else if (n.role === 'image') {
    if (n.name) view.desc = n.name;
  } else view.text = n.name;
  if (n.checked !== null) view.checked = n.checked;
  return view;
}
