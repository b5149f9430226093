import type { ActivityContext } from '../define-app.js';

export interface Product {
  id: number;
  name: string;
  /** Cents. */
  price: number;
  description: string;
}

export interface ShopData {
  user: string | null;
  termsAccepted: boolean;
  /** product id → quantity */
  cart: Record<string, number>;
  orders: number;
  /** A coupon applied by the applyCoupon function, kept until the order is paid (the cart's field keeps its own). */
  coupon?: string | null;
}

export type ShopCtx<S = unknown> = ActivityContext<ShopData, S>;

export const PRODUCT_COUNT = 200;
export const PAGE_SIZE = 20;

const ADJECTIVES = ['Classic', 'Smart', 'Compact', 'Deluxe', 'Eco', 'Ultra', 'Vintage', 'Travel', 'Pro', 'Mini'];
const NOUNS = [
  'Backpack',
  'Lamp',
  'Kettle',
  'Headphones',
  'Mug',
  'Notebook',
  'Umbrella',
  'Speaker',
  'Bottle',
  'Watch',
  'Jacket',
  'Chair',
];

/** The catalog, the same on every run: product n is always the same product. */
export function product(id: number): Product {
  const name = `${ADJECTIVES[id % ADJECTIVES.length]} ${NOUNS[(id * 7) % NOUNS.length]} ${id}`;
  return {
    id,
    name,
    price: 499 + ((id * 137) % 9500),
    description: `${name}: sturdy, light and covered by a two-year warranty.`,
  };
}

/** Money in the instance's locale (`$6.36` in en-US, `6,36 $` in de-DE). */
export const money = (cents: number, ctx: { readonly world: { money(cents: number): string } }) =>
  ctx.world.money(cents);

export const cartCount = (d: ShopData) => Object.values(d.cart).reduce((a, b) => a + b, 0);

/** The coupons the shop knows: code → share taken off (SAVE10: 10%). */
export function couponDiscount(code: string | null | undefined): number {
  return code?.trim().toUpperCase() === 'SAVE10' ? 0.1 : 0;
}

/** Put `qty` of product `id` in the cart's data (the button and the addToCart function both do). */
export function addQuantity(d: ShopData, id: number, qty = 1): void {
  d.cart[id] = (d.cart[id] ?? 0) + qty;
}

export function addToCart(ctx: ShopCtx, id: number): void {
  ctx.update((d) => addQuantity(d, id));
  ctx.snackbar('Added to cart', { label: 'View cart', onClick: () => ctx.start('.CartActivity') });
}
