import { defineActivity } from '../define-app.js';
import { button, column, iconButton, image, progress, row, text, toolbar } from '../view.js';
import { cartAction, type CartAction } from './catalog.js';
import {
  addToCart,
  installHeaders,
  money,
  PRODUCT_COUNT,
  SHOP_API,
  type Product,
  type ShopCtx,
  type ShopData,
} from './model.js';

interface ProductState {
  id: number;
  /** The product as the server sent it (GET /products/{id}); null until then. */
  product: Product | null;
  /** The product bought together with it (the next one), once the server sent it. */
  related: Product | null;
  /** The related product's request is over (answered or failed): the page shows once both are. */
  relatedDone: boolean;
  requested: boolean;
  /** 404: no such product; failed/offline: no answer (Retry asks again). */
  error: 'missing' | 'failed' | 'offline' | null;
  promoClosed?: boolean;
}

const isProduct = (p: unknown): p is Product =>
  typeof (p as Product)?.id === 'number' &&
  typeof (p as Product).name === 'string' &&
  typeof (p as Product).price === 'number';

/** GET /products/{id} and the related product; the screen fills in as the answers arrive. */
function load(ctx: ShopCtx<ProductState>): void {
  const { id } = ctx.state;
  ctx.set({ requested: true, error: null, relatedDone: false });
  const headers = installHeaders(ctx);
  ctx.fetch({ url: `${SHOP_API}/products/${id}`, headers }, (res) => {
    if (res.status === 200 && isProduct(res.json)) {
      ctx.set({ product: res.json });
      if (ctx.state.relatedDone) ctx.animate('add_button');
    } else if (res.status === 404) ctx.set({ error: 'missing' });
    else ctx.set({ error: res.error?.kind === 'offline' ? 'offline' : 'failed' });
  });
  ctx.fetch({ url: `${SHOP_API}/products/${(id % PRODUCT_COUNT) + 1}`, headers }, (res) => {
    ctx.set({ related: res.status === 200 && isProduct(res.json) ? res.json : null, relatedDone: true });
    if (ctx.state.product) ctx.animate('add_button');
  });
}

/**
 * Product detail (also reached by `nwshop://product/42`). Details load from the shop's server
 * (GET /products/{id}, and the related product's); then the
 * "Add to cart" button slides up into place (its bounds move while it animates), and a second
 * "Add to cart" for the related product sits below it: two buttons with the same text.
 *
 * Three accessibility findings on purpose (docs/accessibility.md): a "Share" icon button with no
 * content description, a 32×32 dp "Close" button, and the rating in light grey on white.
 */
export const productActivity = makeProductActivity(cartAction);

export function makeProductActivity(cart: CartAction) {
  return defineActivity<ShopData, ProductState>({
    initialState: (extras) => ({
      id: Number(extras.id ?? 1),
      product: null,
      related: null,
      relatedDone: false,
      requested: false,
      error: null,
    }),
    render: (ctx) => {
      const { id } = ctx.state;
      if (!Number.isInteger(id) || id < 1 || ctx.state.error === 'missing') {
        return column([
          toolbar('Product', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]),
          text(`Product ${ctx.extras.id} not found`, { id: 'not_found' }),
        ]);
      }
      const p = ctx.state.product;
      const related = ctx.state.related;
      const title = p?.name ?? (typeof ctx.extras.name === 'string' ? ctx.extras.name : 'Product');
      const header = toolbar(title, [
        iconButton('Navigate up', () => ctx.finish(), { id: 'up' }),
        ...cart(ctx, ctx.data),
      ]);
      // An icon button whose content description was forgotten: a screen reader says only "button".
      const share = {
        ...iconButton('Share', () => ctx.toast(`Shared ${title}`), { id: 'share', width: 144 }),
        desc: undefined,
      };
      // 84 px at 420 dpi: 32×32 dp, under the 48 dp a touch target needs.
      const promo = row(
        [
          text('Free delivery this week', { id: 'promo_text' }),
          iconButton('Close', () => ctx.set({ promoClosed: true }), { id: 'close_promo', width: 84 }),
        ],
        { height: 84 },
      );
      if (!p || !ctx.state.relatedDone) {
        if (!ctx.state.requested) load(ctx);
        const error = ctx.state.error;
        if (error === 'offline' || error === 'failed') {
          return column([
            header,
            text(error === 'offline' ? "You're offline" : "Couldn't load the product", { id: 'product_error' }),
            button('Retry', () => load(ctx), { id: 'retry' }),
          ]);
        }
        return column([header, image(title, { id: 'product_image' }), progress({ id: 'detail_progress' })]);
      }
      const slide = Math.round((1 - ctx.progress('add_button')) * 400);
      return column([
        header,
        ...(ctx.state.promoClosed ? [] : [promo]),
        image(p.name, { id: 'product_image' }),
        row([text(p.name, { id: 'product_name' }), share], { height: 144 }),
        text('Rated 4.5 of 5', { id: 'product_rating', tone: 'faint' }),
        text(money(p.price, ctx), { id: 'product_price' }),
        text(p.description ?? '', { id: 'product_description', tone: 'muted' }),
        button('Add to cart', () => addToCart(ctx, p), { id: 'add_to_cart', offset: [0, slide] }),
        ...(related
          ? [
              text('Frequently bought together', { id: 'related_header' }),
              text(`${related.name} ${money(related.price, ctx)}`, {
                id: 'related_name',
                height: 132,
                onClick: () => ctx.start('.ProductActivity', { id: related.id, name: related.name }),
              }),
              button('Add to cart', () => addToCart(ctx, related), { id: 'related_add_to_cart' }),
            ]
          : []),
      ]);
    },
  });
}
