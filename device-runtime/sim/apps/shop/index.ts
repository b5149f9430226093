import { defineApp } from '../define-app.js';
import { cartActivity } from './cart.js';
import { catalogActivity, makeCatalogActivity, overflowCartAction } from './catalog.js';
import { checkoutActivity } from './checkout.js';
import { shopFunctions } from './functions.js';
import { loginActivity } from './login.js';
import type { ShopData } from './model.js';
import { makeProductActivity, productActivity } from './product.js';
import { helpActivity } from './help.js';
import { termsActivity } from './terms.js';

/**
 * Shop (`com.nestwright.shop`): login against a slow server, a paged 200-product catalog, product
 * detail, cart with badge and coupons (an empty coupon crashes it), checkout with a location
 * prompt and a confirmation dialog, 5 s of payment, terms in a WebView with no nodes, a help centre in a
 * WebView rendered by Chromium (its page's nodes in the tree, a JavaScript bridge), a canvas game. Activities are the APK manifest's.
 */
export const shopApp = defineApp<ShopData>({
  package: 'com.nestwright.shop',
  label: 'Shop',
  launcher: '.LoginActivity',
  versionCode: 1,
  versionName: '1.0',
  initialData: () => ({ user: null, termsAccepted: false, cart: {}, orders: 0 }),
  // As the APK's manifest declares: only ProductActivity has a VIEW filter (nwshop://product).
  deepLinks: [{ scheme: 'nwshop', pattern: 'product/:id', activity: '.ProductActivity' }],
  functions: shopFunctions,
  activities: {
    '.LoginActivity': loginActivity,
    '.CatalogActivity': catalogActivity,
    '.ProductActivity': productActivity,
    '.CartActivity': cartActivity,
    '.CheckoutActivity': checkoutActivity,
    '.TermsActivity': termsActivity,
    '.HelpActivity': helpActivity,
  },
});

/** Shop 2.0 (`shop-v2.apk`, versionCode 2): the cart is in the toolbar's overflow menu, not an icon of its own. */
export const shopAppV2 = defineApp<ShopData>({
  ...shopApp,
  versionCode: 2,
  versionName: '2.0',
  activities: {
    ...shopApp.activities,
    '.CatalogActivity': makeCatalogActivity(overflowCartAction),
    '.ProductActivity': makeProductActivity(overflowCartAction),
  },
});
