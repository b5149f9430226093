import { defineActivity } from '../define-app.js';
import { button, column, editText, iconButton, progress, text, toolbar } from '../view.js';
import { cartTotal } from './cart.js';
import { addressFor } from './locate.js';
import { money, type ShopData } from './model.js';

interface CheckoutState {
  address: string;
  locating: boolean;
  phase: 'form' | 'paying' | 'done';
  order: number;
  /** What was charged (the cart is empty once paid). */
  paid: string;
}

const LOCATE_MS = 1000;
/** Payment processing keeps this screen busy for 5 s whatever the fault profile. */
export const PAYMENT_MS = 5000;

/**
 * Checkout: "Use my location" asks for the location permission (the system prompt covers the
 * app), "Place order" asks for confirmation in a dialog whose button has the same text, then
 * payment keeps the screen busy for 5 s (back is ignored meanwhile) before the order is confirmed.
 */
export const checkoutActivity = defineActivity<ShopData, CheckoutState>({
  initialState: () => ({ address: '', locating: false, phase: 'form', order: 0, paid: '' }),
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
      ctx.set({ phase: 'paying', order: 1000 + ctx.data.orders + 1, paid: total });
      ctx.after(
        PAYMENT_MS,
        () => {
          ctx.update((d) => {
            d.orders++;
            d.cart = {};
            d.coupon = null;
          });
          ctx.set({ phase: 'done' });
        },
        { fixed: true },
      );
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
      editText(ctx.state.address, (address) => ctx.set({ address }), { id: 'address', hint: 'Delivery address' }),
      ctx.state.locating
        ? progress({ id: 'locating', desc: 'Finding your location' })
        : button('Use my location', locate, { id: 'use_location', tone: 'muted' }),
      button('Place order', place, { id: 'place_order' }),
    ]);
  },
});
