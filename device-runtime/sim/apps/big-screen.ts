import { defineActivity, type ActivityContext } from './define-app.js';
import { CLASS, column, editText, iconButton, list, row, text, toolbar, type View } from './view.js';

/** Nodes (compact detail) a big screen is asked for by default, and the most it builds. */
const DEFAULT_NODES = 1000;
const MAX_NODES = 50_000;
/** Body of the screen under the toolbar, px (the app window is 2190 px tall, the toolbar 168). */
const BODY_HEIGHT = 2022;
const WIDTH = 1080;
/** Share of a screen's nodes in its WebView form (label and field per entry). */
const FORM_SHARE = 0.2;

interface BigState {
  nodes: number;
  /** Rows starred so far: a tap on a row toggles its star, which changes that row's meta text. */
  starred: Record<number, true>;
  form: Record<number, string>;
}

/** How many rows and form fields a screen of `nodes` compact nodes has (title + 5 per row + 2 per field). */
export function bigScreenShape(nodes: number): { rows: number; fields: number } {
  const fields = Math.floor((nodes * FORM_SHARE) / 2);
  return { fields, rows: Math.max(1, Math.floor((nodes - 1 - fields * 2) / 5)) };
}

/** The sender text of row `i` (a row's first text; unique on the screen). */
export const bigRowTitle = (i: number) => `Sender ${i}`;

/**
 * A screen as big as real apps' get, in compact detail about `extras.nodes` nodes (default 1,000,
 * at most 50,000), all of them on screen at once so every node is in the tree: a feed of message
 * rows (a clickable row holding a column of sender and preview, a time and a star button: five
 * nodes, three levels deep) in side-by-side lists, and a form laid out as a WebView's virtual
 * children (a label and a field per entry). Rows are dense (tens of px) because the whole tree
 * is visible; the shape, not the pixel size, is what it models. A tap on a row stars it: one
 * row's time text changes, nothing else. Reached with `app_intent` (component
 * `com.android.settings/.BigScreenActivity`, extras `nodes`): no existing screen leads here.
 */
export const bigScreenActivity = defineActivity<unknown, BigState>({
  initialState: (extras) => ({
    nodes: Math.min(MAX_NODES, Math.max(10, Math.floor(Number(extras.nodes ?? DEFAULT_NODES)) || DEFAULT_NODES)),
    starred: {},
    form: {},
  }),
  render: (ctx) => {
    const { rows, fields } = bigScreenShape(ctx.state.nodes);
    const items = rows + fields;
    const panes = Math.max(1, Math.ceil(Math.sqrt(items / 3)));
    const perPane = Math.ceil(items / panes);
    const h = Math.max(2, Math.floor(BODY_HEIGHT / perPane));
    const paneWidth = Math.floor(WIDTH / (Math.ceil(rows / perPane) + Math.ceil(fields / perPane)));
    const feed: View[] = [];
    for (let first = 0; first < rows; first += perPane) {
      const end = Math.min(rows, first + perPane);
      const views: View[] = [];
      // Each row kept while what it shows is the same, as a feed's unchanged items are.
      for (let i = first; i < end; i++) {
        const starred = ctx.state.starred[i] === true;
        views.push(ctx.memo(`row ${i}`, [starred, h, paneWidth], () => messageRow(ctx, i, starred, h, paneWidth)));
      }
      feed.push(list(views, { id: `feed_${feed.length}`, width: paneWidth, grow: 0 }));
    }
    for (let first = 0; first < fields; first += perPane) {
      const end = Math.min(fields, first + perPane);
      const views: View[] = [];
      for (let i = first; i < end; i++) {
        const value = ctx.state.form[i] ?? '';
        views.push(ctx.memo(`field ${i}`, [value, h], () => formField(ctx, i, value, h)));
      }
      feed.push({ ...column(views, { id: `form_${feed.length}`, width: paneWidth }), className: CLASS.webview });
    }
    return column([toolbar(`Screen of ${ctx.state.nodes} nodes`), row(feed, { grow: 1 })]);
  },
});

function messageRow(
  ctx: ActivityContext<unknown, BigState>,
  i: number,
  starred: boolean,
  h: number,
  width: number,
): View {
  const half = Math.max(1, h >> 1);
  const toggle = () => {
    const { [i]: was, ...rest } = ctx.state.starred;
    ctx.set({ starred: was ? rest : { ...rest, [i]: true } });
  };
  const star = Math.max(2, Math.floor(width / 6));
  return row(
    [
      column([
        text(bigRowTitle(i), { id: 'sender', height: half }),
        text(`Preview of message ${i}`, { id: 'preview', height: half, tone: 'muted' }),
      ]),
      text(starred ? 'Starred' : `${(i * 7) % 60} min`, { id: 'time', tone: 'muted' }),
      iconButton('Star', toggle, { id: 'star', width: star }),
    ],
    { id: 'message', height: h, onClick: toggle },
  );
}

function formField(ctx: ActivityContext<unknown, BigState>, i: number, value: string, h: number): View {
  return row(
    [
      text(`Field ${i}`, { id: 'label' }),
      editText(value, (v) => ctx.set({ form: { ...ctx.state.form, [i]: v } }), {
        id: 'field',
        hint: `Answer ${i}`,
      }),
    ],
    { height: h },
  );
}
