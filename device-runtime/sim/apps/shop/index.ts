import { defineApp } from '../define-app.js';
import { cartActivity } from './cart.js';
import { catalogActivity } from './catalog.js';
import { checkoutActivity } from './checkout.js';
import { loginActivity } from './login.js';
import type { ShopData } from './model.js';
import { productActivity } from './product.js';
import { termsActivity } from './terms.js';

/**
 * Shop (`com.nestwright.shop`): login against a slow server, a paged 200-product catalog, product
 * detail, cart with badge and coupons (an empty coupon crashes it), checkout with a location
 * prompt and a confirmation dialog, 5 s of payment, terms in a WebView, a canvas game. Activities are the APK manifest's.
 */
export const shopApp = defineApp<ShopData>({
  package: 'com.nestwright.shop',
  label: 'Shop',
  launcher: '.LoginActivity',
  initialData: () => ({ user: null, termsAccepted: false, cart: {}, orders: 0 }),
  // As the APK's manifest declares: only ProductActivity has a VIEW filter (nwshop://product).
  deepLinks: [{ scheme: 'nwshop', pattern: 'product/:id', activity: '.ProductActivity' }],
  activities: {
    '.LoginActivity': loginActivity,
    '.CatalogActivity': catalogActivity,
    '.ProductActivity': productActivity,
    '.CartActivity': cartActivity,
    '.CheckoutActivity': checkoutActivity,
    '.TermsActivity': termsActivity,
  },
});
