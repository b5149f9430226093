import { z } from 'zod';
import { AppFunctionError, defineFunction } from '../define-app.js';
import { cartTotal } from './cart.js';
import { addQuantity, cartCount, couponDiscount, product, PRODUCT_COUNT, type ShopData } from './model.js';

/**
 * The functions Shop declares for agents (AppFunctions): search the catalog, add to the cart,
 * apply a coupon. They read the catalog through the model's `product()` and change the same cart
 * the screens show (the badge counts what addToCart put in; the cart's total has the coupon off).
 */
const fn = defineFunction<ShopData>();

const ProductResult = z.object({
  id: z.number().int(),
  name: z.string(),
  price_cents: z.number().int(),
  price: z.string().describe("In the instance's locale, as the screens show it"),
});

export const shopFunctions = {
  searchProducts: fn({
    description: 'Search the catalog by name (case-insensitive); products in catalog order.',
    params: z.strictObject({
      query: z.string().trim().min(1, 'say what to look for').describe('Words of the product name, e.g. "kettle"'),
      limit: z.number().int().min(1).max(50).default(10).describe('At most this many products'),
    }),
    result: z.object({
      products: z.array(ProductResult),
      total: z.number().int().describe('Matches before the limit'),
    }),
    run: ({ query, limit }, ctx) => {
      const words = query.toLowerCase().split(/\s+/);
      const hits = [];
      for (let id = 1; id <= PRODUCT_COUNT; id++) {
        const p = product(id);
        if (words.every((w) => p.name.toLowerCase().includes(w))) hits.push(p);
      }
      return {
        products: hits
          .slice(0, limit)
          .map((p) => ({ id: p.id, name: p.name, price_cents: p.price, price: ctx.world.money(p.price) })),
        total: hits.length,
      };
    },
  }),
  addToCart: fn({
    description: 'Add a product (by id, from searchProducts) to the cart; returns what the cart holds.',
    params: z.strictObject({
      product_id: z.number().int().describe('The product id'),
      quantity: z.number().int().min(1).max(99).default(1),
    }),
    result: z.object({
      item: z.object({ id: z.number().int(), name: z.string(), quantity: z.number().int() }),
      cart_count: z.number().int().describe('Items in the cart, the badge'),
    }),
    run: ({ product_id, quantity }, ctx) => {
      if (product_id < 1 || product_id > PRODUCT_COUNT)
        throw new AppFunctionError('product_id', `no product ${product_id}; ids run from 1 to ${PRODUCT_COUNT}`);
      ctx.update((d) => addQuantity(d, product(product_id), quantity));
      return {
        item: { id: product_id, name: product(product_id).name, quantity: ctx.data.cart[product_id] ?? 0 },
        cart_count: cartCount(ctx.data),
      };
    },
  }),
  applyCoupon: fn({
    description: 'Apply a coupon code to the cart; says whether it was valid and the total after it.',
    params: z.strictObject({ code: z.string().trim().min(1, 'a coupon code is not empty').describe('e.g. SAVE10') }),
    result: z.object({
      applied: z.boolean(),
      discount_percent: z.number(),
      total_cents: z.number().int(),
      message: z.string(),
    }),
    run: ({ code }, ctx) => {
      const discount = couponDiscount(code);
      if (discount > 0) ctx.update((d) => void (d.coupon = code.toUpperCase()));
      const applied = couponDiscount(ctx.data.coupon);
      return {
        applied: discount > 0,
        discount_percent: Math.round(applied * 100),
        total_cents: cartTotal(ctx.data, applied),
        message: discount > 0 ? `Coupon applied: ${Math.round(discount * 100)}% off` : `Coupon ${code} is not valid`,
      };
    },
  }),
};
