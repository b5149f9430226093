import { defineActivity } from '../define-app.js';
import { button, column, iconButton, image, progress, row, spacer, text, toolbar } from '../view.js';
import { cartAction, type CartAction } from './catalog.js';
import { addToCart, money, product, PRODUCT_COUNT, type ShopData } from './model.js';

interface ProductState {
  id: number;
  loaded: boolean;
  requested: boolean;
  promoClosed?: boolean;
}

const DETAIL_MS = 600;

/**
 * Product detail (also reached by `nwshop://product/42`). Details load late; then the
 * "Add to cart" button slides up into place (its bounds move while it animates), and a second
 * "Add to cart" for the related product sits below it: two buttons with the same text.
 *
 * Three accessibility findings on purpose (docs/accessibility.md): a "Share" icon button with no
 * content description, a 32×32 dp "Close" button, and the rating in light grey on white.
 */
export const productActivity = makeProductActivity(cartAction);

export function makeProductActivity(cart: CartAction) {
  return defineActivity<ShopData, ProductState>({
    initialState: (extras) => ({ id: Number(extras.id ?? 1), loaded: false, requested: false }),
    render: (ctx) => {
      const { id } = ctx.state;
      if (!Number.isInteger(id) || id < 1 || id > PRODUCT_COUNT) {
        return column([
          toolbar('Product', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]),
          text(`Product ${ctx.extras.id} not found`, { id: 'not_found' }),
        ]);
      }
      const p = product(id);
      const related = product((id % PRODUCT_COUNT) + 1);
      const header = toolbar(p.name, [
        iconButton('Navigate up', () => ctx.finish(), { id: 'up' }),
        ...cart(ctx, ctx.data),
      ]);
      // An icon button whose content description was forgotten: a screen reader says only "button".
      const share = {
        ...iconButton('Share', () => ctx.toast(`Shared ${p.name}`), { id: 'share', width: 144 }),
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
      if (!ctx.state.loaded) {
        if (!ctx.state.requested) {
          ctx.state.requested = true;
          ctx.after(DETAIL_MS, () => {
            ctx.set({ loaded: true });
            ctx.animate('add_button');
          });
        }
        return column([header, image(p.name, { id: 'product_image' }), progress({ id: 'detail_progress' })]);
      }
      const slide = Math.round((1 - ctx.progress('add_button')) * 400);
      return column([
        header,
        ...(ctx.state.promoClosed ? [] : [promo]),
        image(p.name, { id: 'product_image' }),
        row([text(p.name, { id: 'product_name' }), share], { height: 144 }),
        text('Rated 4.5 of 5', { id: 'product_rating', tone: 'faint' }),
        text(money(p.price, ctx), { id: 'product_price' }),
        text(p.description, { id: 'product_description', tone: 'muted' }),
        button('Add to cart', () => addToCart(ctx, id), { id: 'add_to_cart', offset: [0, slide] }),
        text('Frequently bought together', { id: 'related_header' }),
        text(`${related.name} ${money(related.price, ctx)}`, {
          id: 'related_name',
          height: 132,
          onClick: () => ctx.start('.ProductActivity', { id: related.id }),
        }),
        button('Add to cart', () => addToCart(ctx, related.id), { id: 'related_add_to_cart' }),
      ]);
    },
  });
}
