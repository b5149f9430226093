import { defineActivity } from '../define-app.js';
import { button, column, iconButton, progress, row, text, toolbar, virtualList, type View } from '../view.js';
import { gameView, type GameState } from './game.js';
import {
  addToCart,
  cartCount,
  money,
  PAGE_SIZE,
  product,
  PRODUCT_COUNT,
  type ShopCtx,
  type ShopData,
} from './model.js';

interface CatalogState {
  loaded: number;
  loading: boolean;
  /** The "Daily game" mode, and its score. */
  game: GameState | null;
}

const PAGE_MS = 800;

function loadPage(ctx: ShopCtx<CatalogState>): void {
  if (ctx.state.loading || ctx.state.loaded >= PRODUCT_COUNT) return;
  ctx.set({ loading: true });
  ctx.after(PAGE_MS, () => ctx.set({ loaded: Math.min(PRODUCT_COUNT, ctx.state.loaded + PAGE_SIZE), loading: false }));
}

/** A product row. Every row has its own "Add to cart": many buttons with the same text. */
function productRow(ctx: ShopCtx<CatalogState>, id: number): View {
  const p = product(id);
  return column(
    [
      text(p.name, { id: 'product_name', height: 96 }),
      text(money(p.price, ctx), { id: 'product_price', height: 72, tone: 'muted' }),
      button('Add to cart', () => addToCart(ctx, id), { id: 'add_to_cart', height: 132 }),
    ],
    { id: 'product_row', onClick: () => ctx.start('.ProductActivity', { id }) },
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
 * The catalog: 200 products in a virtualized list, loaded 20 per page from a slow server; the
 * next page loads when the last rows come into view (a spinner row while it does).
 */
export const catalogActivity = makeCatalogActivity(cartAction);

export function makeCatalogActivity(cart: CartAction) {
  return defineActivity<ShopData, CatalogState>({
    initialState: () => ({ loaded: 0, loading: false, game: null }),
    onBack: (ctx) => (ctx.state.game ? (ctx.set({ game: null }), true) : false),
    render: (ctx) => {
      if (ctx.state.game)
        return gameView(
          ctx.state.game,
          (game) => ctx.set({ game }),
          () => ctx.set({ game: null }),
        );
      if (ctx.state.loaded === 0 && !ctx.state.loading) loadPage(ctx);
      const { loaded, loading } = ctx.state;
      const count = loaded + (loading ? 1 : 0);
      return column([
        toolbar('Catalog', [
          iconButton('Daily game', () => ctx.set({ game: { score: 0, round: 0 } }), { id: 'game' }),
          iconButton('Help', () => ctx.start('.HelpActivity'), { id: 'help' }),
          ...cart(ctx, ctx.data),
        ]),
        loaded === 0
          ? column([progress({ id: 'catalog_progress' })], { grow: 1 })
          : virtualList(
              {
                count,
                itemHeight: 300,
                render: (i) =>
                  i < loaded ? productRow(ctx, i + 1) : row([progress({ id: 'page_progress' })], { height: 300 }),
                onEndReached: () => loadPage(ctx),
              },
              { id: 'products' },
            ),
      ]);
    },
  });
}
