import type { ActivityContext } from '../define-app.js';

import type { Product } from '../../net/shop-catalog.js';
import { product } from '../../net/shop-catalog.js';

export type { Product } from '../../net/shop-catalog.js';

export interface ShopData {
  user: string | null;
  termsAccepted: boolean;
  /** product id → quantity */
  cart: Record<string, number>;
  orders: number;
  /** What the server said of the products the user put in the cart (name and price), by id. */
  known?: Record<string, ProductSummary>;
  /** Names this install to the shop's server (orders are numbered per install); made on first use. */
  installId?: string;
}

/** A product as the catalog lists it. */
export type ProductSummary = Pick<Product, 'id' | 'name' | 'price'>;

/** The shop's server (sim/net/shop-api.ts), as the app calls it. */
export const SHOP_API = 'https://api.shop.nestwright.test';

export type ShopCtx<S = unknown> = ActivityContext<ShopData, S>;

export { PAGE_SIZE, product, PRODUCT_COUNT } from '../../net/shop-catalog.js';

/** Money in the instance's locale (`$6.36` in en-US, `6,36 $` in de-DE). */
export const money = (cents: number, ctx: { readonly world: { money(cents: number): string } }) =>
  ctx.world.money(cents);

export const cartCount = (d: ShopData) => Object.values(d.cart).reduce((a, b) => a + b, 0);

/** What the app knows of product `id`: what the server said when it was added, else the catalog's. */
export function knownProduct(d: ShopData, id: number): ProductSummary {
  return d.known?.[id] ?? product(id);
}

/** The header every request to the shop's server carries: this install's id (made on first use). */
export function installHeaders(ctx: ShopCtx): Record<string, string> {
  if (!ctx.data.installId) ctx.update((d) => void (d.installId = `inst-${Math.random().toString(36).slice(2, 12)}`));
  return { 'x-installation-id': ctx.data.installId! };
}

export function addToCart(ctx: ShopCtx, p: ProductSummary): void {
  ctx.update((d) => {
    d.cart[p.id] = (d.cart[p.id] ?? 0) + 1;
    (d.known ??= {})[p.id] = { id: p.id, name: p.name, price: p.price };
  });
  ctx.snackbar('Added to cart', { label: 'View cart', onClick: () => ctx.start('.CartActivity') });
}
