import { defineActivity } from '../define-app.js';
import { button, column, iconButton, progress, row, text, toolbar, virtualList, type View } from '../view.js';
import { gameView, type GameState } from './game.js';
import {
  addToCart,
  cartCount,
  installHeaders,
  money,
  SHOP_API,
  type ProductSummary,
  type ShopCtx,
  type ShopData,
} from './model.js';

interface CatalogState {
  /** The products of the pages loaded so far. */
  items: ProductSummary[];
  /** The next page to ask for (from 1), or null when the server said there is none. */
  next: number | null;
  loading: boolean;
  /** Why the last page did not load: no network, or the server failed (Retry asks again). */
  error: 'offline' | 'failed' | null;
  /** The "Daily game" mode, and its score. */
  game: GameState | null;
}

/** The items of a catalog page as the server sent them, or null when the answer is not a page. */
function pageOf(json: unknown): { items: ProductSummary[]; next: number | null } | null {
  const body = json as { items?: unknown; next?: unknown } | null;
  if (!body || !Array.isArray(body.items)) return null;
  const items = body.items.filter(
    (p: unknown): p is ProductSummary =>
      typeof (p as ProductSummary)?.id === 'number' &&
      typeof (p as ProductSummary).name === 'string' &&
      typeof (p as ProductSummary).price === 'number',
  );
  return { items, next: typeof body.next === 'number' ? body.next : null };
}

/** Ask the server for the next page (GET /products?page=N); the list grows when it answers. */
function loadPage(ctx: ShopCtx<CatalogState>): void {
  const page = ctx.state.next;
  if (ctx.state.loading || page === null) return;
  ctx.set({ loading: true, error: null });
  ctx.fetch({ url: `${SHOP_API}/products?page=${page}`, headers: installHeaders(ctx) }, (res) => {
    const got = res.status === 200 ? pageOf(res.json) : null;
    if (!got) {
      ctx.log('W', 'CatalogRepository', `page ${page}: ${res.error ? res.error.message : `HTTP ${res.status}`}`);
      return ctx.set({ loading: false, error: res.error?.kind === 'offline' ? 'offline' : 'failed' });
    }
    ctx.set({ items: [...ctx.state.items, ...got.items], next: got.next, loading: false });
  });
}

const ERROR_TEXT = { offline: "You're offline", failed: "Couldn't load products" } as const;

/** Why the catalog is empty, and a Retry that asks again. */
function errorView(ctx: ShopCtx<CatalogState>, error: 'offline' | 'failed', height?: number): View {
  return column(
    [text(ERROR_TEXT[error], { id: 'catalog_error' }), button('Retry', () => loadPage(ctx), { id: 'retry' })],
    height ? { height } : { grow: 1 },
  );
}

/** A product row. Every row has its own "Add to cart": many buttons with the same text. */
function productRow(ctx: ShopCtx<CatalogState>, p: ProductSummary): View {
  return column(
    [
      text(p.name, { id: 'product_name', height: 96 }),
      text(money(p.price, ctx), { id: 'product_price', height: 72, tone: 'muted' }),
      button('Add to cart', () => addToCart(ctx, p), { id: 'add_to_cart', height: 132 }),
    ],
    { id: 'product_row', onClick: () => ctx.start('.ProductActivity', { id: p.id, name: p.name }) },
  );
}

/** How a version of the app shows the cart in its toolbar. */
export type CartAction = (ctx: ShopCtx<unknown>, data: ShopData) => View[];

/** The cart icon has only a description; the badge next to it is the count. */
export function cartAction(ctx: ShopCtx<unknown>, data: ShopData): View[] {
  const n = cartCount(data);
  return [
    ...(n > 0 ? [text(String(n), { id: 'cart_badge', width: 72, tone: 'badge' })] : []),
    iconButton(n > 0 ? `Cart, ${n} items` : 'Cart', () => ctx.start('.CartActivity'), { id: 'cart' }),
  ];
}

/**
 * Shop 2.0 (shop-v2.apk): the cart icon moved into the toolbar's overflow menu ("More options" →
 * "Cart"), the drift a healed selector must NOT follow by tapping the menu button instead.
 */
export function overflowCartAction(ctx: ShopCtx<unknown>, data: ShopData): View[] {
  const n = cartCount(data);
  return [
    iconButton(
      'More options',
      () =>
        ctx.showDialog({
          cancelable: true,
          items: [{ label: n > 0 ? `Cart (${n})` : 'Cart', onClick: () => ctx.start('.CartActivity') }],
        }),
      {
        id: 'overflow',
      },
    ),
  ];
}

/**
 * The catalog: 200 products in a virtualized list, loaded 20 per page from the shop's server
 * (GET https://api.shop.nestwright.test/products?page=N); the next page loads when the last rows
 * come into view (a spinner row while it does). A page that fails shows "Couldn't load products"
 * (or "You're offline") with Retry.
 */
export const catalogActivity = makeCatalogActivity(cartAction);

export function makeCatalogActivity(cart: CartAction) {
  return defineActivity<ShopData, CatalogState>({
    initialState: () => ({ items: [], next: 1, loading: false, error: null, game: null }),
    onBack: (ctx) => (ctx.state.game ? (ctx.set({ game: null }), true) : false),
    render: (ctx) => {
      if (ctx.state.game)
        return gameView(
          ctx.state.game,
          (game) => ctx.set({ game }),
          () => ctx.set({ game: null }),
        );
      const { items, loading, error } = ctx.state;
      if (items.length === 0 && !loading && !error && ctx.state.next === 1) loadPage(ctx);
      const count = items.length + (loading || error ? 1 : 0);
      return column([
        toolbar('Catalog', [
          iconButton('Daily game', () => ctx.set({ game: { score: 0, round: 0 } }), { id: 'game' }),
          iconButton('Help', () => ctx.start('.HelpActivity'), { id: 'help' }),
          ...cart(ctx, ctx.data),
        ]),
        items.length === 0
          ? error
            ? errorView(ctx, error)
            : column([progress({ id: 'catalog_progress' })], { grow: 1 })
          : virtualList(
              {
                count,
                itemHeight: 300,
                render: (i) =>
                  i < items.length
                    ? productRow(ctx, items[i]!)
                    : error
                      ? errorView(ctx, error, 300)
                      : row([progress({ id: 'page_progress' })], { height: 300 }),
                onEndReached: () => (ctx.state.error ? undefined : loadPage(ctx)),
              },
              { id: 'products' },
            ),
      ]);
    },
  });
}
