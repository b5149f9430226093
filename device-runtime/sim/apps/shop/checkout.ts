import { defineActivity } from '../define-app.js';
import { button, column, editText, iconButton, progress, text, toolbar } from '../view.js';
import { cartTotal } from './cart.js';
import { addressFor } from './locate.js';
import { installHeaders, money, SHOP_API, type ShopData } from './model.js';

interface CheckoutState {
  address: string;
  locating: boolean;
  phase: 'form' | 'paying' | 'done';
  order: number;
  /** What was charged (the cart is empty once paid). */
  paid: string;
  /** Why the last order did not go through: no network, or the server failed. */
  failed: 'offline' | 'failed' | null;
}

const LOCATE_MS = 1000;

/**
 * Checkout: "Use my location" asks for the location permission (the system prompt covers the
 * app), "Place order" asks for confirmation in a dialog whose button has the same text, then the
 * order goes to the shop's server (POST /orders), whose payment keeps the screen busy for 5 s
 * (back is ignored meanwhile) before "Order #{orderId} confirmed"; a failed order shows
 * "Payment failed, try again" (or "You're offline") and the form again.
 */
export const checkoutActivity = defineActivity<ShopData, CheckoutState>({
  initialState: () => ({ address: '', locating: false, phase: 'form', order: 0, paid: '', failed: null }),
  onBack: (ctx) => ctx.state.phase === 'paying',
  render: (ctx) => {
    const discount = Number(ctx.extras.discount ?? 0);
    const total = money(cartTotal(ctx.data, discount), ctx);
    if (ctx.state.phase === 'paying') {
      return column([
        toolbar('Payment'),
        progress({ id: 'payment_progress', desc: 'Processing payment' }),
        text('Processing payment…', { id: 'status' }),
      ]);
    }
    if (ctx.state.phase === 'done') {
      return column([
        toolbar('Order confirmed'),
        text(`Order #${ctx.state.order} confirmed`, { id: 'status' }),
        text(`Paid ${ctx.state.paid}`, { id: 'paid' }),
        button('Continue shopping', () => ctx.finish(), { id: 'continue' }),
      ]);
    }
    const locate = () =>
      ctx.requestPermission('android.permission.ACCESS_FINE_LOCATION', (granted) => {
        if (!granted) return ctx.toast('Location permission denied');
        ctx.set({ locating: true });
        ctx.after(LOCATE_MS, () => ctx.set({ locating: false, address: addressFor(ctx.world.location()) }));
      });
    const pay = () => {
      ctx.set({ phase: 'paying', paid: total, failed: null });
      const coupon = typeof ctx.extras.coupon === 'string' ? ctx.extras.coupon : undefined;
      const order = {
        items: Object.entries(ctx.data.cart).map(([id, qty]) => ({ id: Number(id), qty })),
        ...(coupon ? { coupon } : {}),
        address: ctx.state.address.trim(),
      };
      ctx.fetch({ method: 'POST', url: `${SHOP_API}/orders`, json: order, headers: installHeaders(ctx) }, (res) => {
        const orderId = (res.json as { orderId?: unknown } | null)?.orderId;
        if (res.status === 201 && (typeof orderId === 'number' || typeof orderId === 'string')) {
          ctx.update((d) => {
            d.orders++;
            d.cart = {};
          });
          return ctx.set({ phase: 'done', order: orderId as number });
        }
        ctx.log('W', 'CheckoutViewModel', `order: ${res.error ? res.error.message : `HTTP ${res.status}`}`);
        ctx.set({ phase: 'form', failed: res.error?.kind === 'offline' ? 'offline' : 'failed' });
      });
    };
    const place = () => {
      if (!ctx.state.address.trim()) return ctx.toast('Enter a delivery address');
      ctx.showDialog({
        title: 'Place order?',
        message: `You will be charged ${total}.`,
        cancelable: true,
        buttons: [{ label: 'Cancel' }, { label: 'Place order', id: 'confirm_order', onClick: pay }],
      });
    };
    return column([
      toolbar('Checkout', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]),
      text(`Total: ${total}`, { id: 'checkout_total' }),
      ...(ctx.state.failed
        ? [
            text(ctx.state.failed === 'offline' ? "You're offline" : 'Payment failed, try again', {
              id: 'payment_error',
            }),
          ]
        : []),
      editText(ctx.state.address, (address) => ctx.set({ address }), { id: 'address', hint: 'Delivery address' }),
      ctx.state.locating
        ? progress({ id: 'locating', desc: 'Finding your location' })
        : button('Use my location', locate, { id: 'use_location', tone: 'muted' }),
      button('Place order', place, { id: 'place_order' }),
    ]);
  },
});
