import { defineActivity } from '../define-app.js';
import { javaStack } from '../widgets.js';
import { button, column, editText, iconButton, list, row, text, toolbar, type View } from '../view.js';
import { cartCount, installHeaders, knownProduct, money, SHOP_API, type ShopCtx, type ShopData } from './model.js';

interface CartState {
  coupon: string;
  discount: number;
  /** The coupon the server accepted (sent with the order). */
  applied: string | null;
  checking: boolean;
}

/** The known bug: applying an empty coupon crashes the app (issue 5's crash scenario). */
const EMPTY_COUPON_CRASH = javaStack('java.lang.StringIndexOutOfBoundsException: length=0; index=0', [
  'java.lang.String.charAt(String.java:1258)',
  'com.nestwright.shop.cart.CouponParser.parse(CouponParser.kt:27)',
  'com.nestwright.shop.cart.CartViewModel.applyCoupon(CartViewModel.kt:64)',
  'com.nestwright.shop.cart.CartActivity.onApplyClicked(CartActivity.kt:112)',
  'android.view.View.performClick(View.java:7659)',
]);

export function cartTotal(d: ShopData, discount: number): number {
  const sum = Object.entries(d.cart).reduce((t, [id, q]) => t + knownProduct(d, Number(id)).price * q, 0);
  return Math.round(sum * (1 - discount));
}

function itemRow(ctx: ShopCtx<CartState>, id: number, qty: number): View {
  const p = knownProduct(ctx.data, id);
  return row(
    [
      text(`${p.name} x${qty}`, { id: 'cart_item' }),
      text(money(p.price * qty, ctx), { id: 'cart_item_price', width: 240 }),
      // Icon-only: the description is the only way to tell which item it removes.
      iconButton(`Remove ${p.name}`, () => ctx.update((d) => void delete d.cart[id]), { id: 'remove' }),
    ],
    { height: 168 },
  );
}

/** The cart: items, a coupon field (SAVE10 takes 10% off; empty crashes), total, checkout. */
export const cartActivity = defineActivity<ShopData, CartState>({
  initialState: () => ({ coupon: '', discount: 0, applied: null, checking: false }),
  render: (ctx) => {
    const items = Object.entries(ctx.data.cart);
    const apply = () => {
      const code = ctx.state.coupon;
      ctx.log('D', 'CartViewModel', `applyCoupon("${code}")`);
      if (code.length === 0) return ctx.crash(EMPTY_COUPON_CRASH);
      if (ctx.state.checking) return;
      ctx.set({ checking: true });
      ctx.fetch(
        { url: `${SHOP_API}/coupons/${encodeURIComponent(code.trim())}`, headers: installHeaders(ctx) },
        (res) => {
          ctx.set({ checking: false });
          const body = res.json as { code?: string; percent?: number } | null;
          if (res.status === 200 && typeof body?.percent === 'number') {
            ctx.set({ discount: body.percent / 100, applied: body.code ?? code.trim() });
            ctx.toast(`Coupon applied: ${body.percent}% off`);
          } else if (res.status === 404) ctx.toast(`Coupon ${code} is not valid`);
          else if (res.error?.kind === 'offline') ctx.toast("You're offline");
          else ctx.toast("Couldn't check the coupon, try again");
        },
      );
    };
    return column([
      toolbar('Cart', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]),
      items.length === 0
        ? text('Your cart is empty', { id: 'empty' })
        : list(
            items.map(([id, q]) => itemRow(ctx, Number(id), q)),
            { id: 'cart_items' },
          ),
      row(
        [
          editText(ctx.state.coupon, (coupon) => ctx.set({ coupon }), {
            id: 'coupon',
            hint: 'Coupon code',
            onSubmit: apply,
          }),
          button('Apply', apply, { id: 'apply_coupon', width: 300 }),
        ],
        { height: 160 },
      ),
      text(`Total: ${money(cartTotal(ctx.data, ctx.state.discount), ctx)}`, { id: 'total' }),
      button(
        'Checkout',
        () =>
          ctx.start('.CheckoutActivity', {
            discount: ctx.state.discount,
            ...(ctx.state.applied ? { coupon: ctx.state.applied } : {}),
          }),
        {
          id: 'checkout',
          enabled: cartCount(ctx.data) > 0,
        },
      ),
    ]);
  },
});
