import { defineActivity } from '../define-app.js';
import { button, column, iconButton, image, progress, text, toolbar } from '../view.js';
import { cartAction, type CartAction } from './catalog.js';
import { addToCart, money, product, PRODUCT_COUNT, type ShopData } from './model.js';

interface ProductState {
  id: number;
  loaded: boolean;
  requested: boolean;
}

const DETAIL_MS = 600;

/**
 * Product detail (also reached by `nwshop://product/42`). Details load late; then the
 * "Add to cart" button slides up into place (its bounds move while it animates), and a second
 * "Add to cart" for the related product sits below it: two buttons with the same text.
 */
export const productActivity = makeProductActivity(cartAction);

export function makeProductActivity(cart: CartAction) {
  return defineActivity<ShopData, ProductState>({
    initialState: (extras) => ({ id: Number(extras.id ?? 1), loaded: false, requested: false }),
    render: (ctx) => {
      const { id } = ctx.state;
      if (!Number.isInteger(id) || id < 1 || id > PRODUCT_COUNT) {
        return column([toolbar('Product', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]), text(`Product ${ctx.extras.id} not found`, { id: 'not_found' })]);
      }
      const p = product(id);
      const related = product((id % PRODUCT_COUNT) + 1);
      const header = toolbar(p.name, [iconButton('Navigate up', () => ctx.finish(), { id: 'up' }), ...cart(ctx, ctx.data)]);
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
        image(p.name, { id: 'product_image' }),
        text(p.name, { id: 'product_name' }),
        text(money(p.price, ctx), { id: 'product_price' }),
        text(p.description, { id: 'product_description', tone: 'muted' }),
        button('Add to cart', () => addToCart(ctx, id), { id: 'add_to_cart', offset: [0, slide] }),
        text('Frequently bought together', { id: 'related_header' }),
        text(`${related.name} ${money(related.price, ctx)}`, { id: 'related_name', onClick: () => ctx.start('.ProductActivity', { id: related.id }) }),
        button('Add to cart', () => addToCart(ctx, related.id), { id: 'related_add_to_cart' }),
      ]);
    },
  });
}
