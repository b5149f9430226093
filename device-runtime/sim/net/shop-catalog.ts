/**
 * The Shop server's catalog (sim/net/shop-api.ts serves it): 200 products, the same on every
 * run — product n is always the same product. The app knows products only from what the server
 * answers; tests import these to know what a page holds.
 */
export interface Product {
  id: number;
  name: string;
  /** Cents. */
  price: number;
  description: string;
}

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

/** Product `id` of the catalog. */
export function product(id: number): Product {
  const name = `${ADJECTIVES[id % ADJECTIVES.length]} ${NOUNS[(id * 7) % NOUNS.length]} ${id}`;
  return {
    id,
    name,
    price: 499 + ((id * 137) % 9500),
    description: `${name}: sturdy, light and covered by a two-year warranty.`,
  };
}
