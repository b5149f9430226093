import { PAGE_SIZE, product, PRODUCT_COUNT } from './shop-catalog.js';
import type { ApiRequest, ApiResponse, ApiRoute } from './api.js';

/** Server times on a mid-range network, before the fault profile's scale (the app's former timers). */
export const PAGE_MS = 800;
export const DETAIL_MS = 600;
export const COUPON_MS = 300;
/** Payment processing takes 5 s whatever the fault profile. */
export const PAYMENT_MS = 5000;

/** The coupons the shop knows: code → percent off. */
const COUPONS: Record<string, number> = { SAVE10: 10 };

const bad = (error: string): ApiResponse => ({ status: 400, json: { error } });

/**
 * The Shop API (`https://api.shop.nestwright.test`): the catalog the app used to make up in
 * memory, paged (`GET /products?page=N`, pages from 1, 20 per page, 200 products, prices in
 * cents), one product (`GET /products/{id}`), coupons (`GET /coupons/{code}` → 200 or 404) and
 * orders (`POST /orders` → 201 `{ orderId }`, numbered from 1001 per install).
 */
export function shopRoutes(): ApiRoute {
  /** Orders are numbered per install (x-installation-id): each install's first order is #1001. */
  const lastOrder = new Map<string, number>();
  return (req: ApiRequest) => {
    const { method, path } = req;
    if (method === 'GET' && path === '/products') {
      const raw = req.query.get('page') ?? '1';
      const page = Number(raw);
      const pages = Math.ceil(PRODUCT_COUNT / PAGE_SIZE);
      if (!Number.isInteger(page) || page < 1)
        return bad(`page must be a whole number from 1, not ${JSON.stringify(raw)}`);
      const first = (page - 1) * PAGE_SIZE + 1;
      const items = [];
      for (let id = first; id < first + PAGE_SIZE && id <= PRODUCT_COUNT; id++) {
        const { name, price } = product(id);
        items.push({ id, name, price });
      }
      return { status: 200, json: { items, next: page < pages ? page + 1 : null }, delayMs: PAGE_MS };
    }
    const one = /^\/products\/([^/]+)$/.exec(path);
    if (method === 'GET' && one) {
      const id = Number(one[1]);
      if (!Number.isInteger(id) || id < 1 || id > PRODUCT_COUNT)
        return { status: 404, json: { error: `no product ${one[1]}` }, delayMs: DETAIL_MS };
      return { status: 200, json: product(id), delayMs: DETAIL_MS };
    }
    const coupon = /^\/coupons\/([^/]*)$/.exec(path);
    if (method === 'GET' && coupon) {
      const code = decodeURIComponent(coupon[1]!).trim().toUpperCase();
      const percent = COUPONS[code];
      return percent === undefined
        ? { status: 404, json: { error: `no coupon ${code}` }, delayMs: COUPON_MS }
        : { status: 200, json: { code, percent }, delayMs: COUPON_MS };
    }
    if (method === 'POST' && path === '/orders') {
      const body = req.body as { items?: unknown; address?: unknown } | undefined;
      const items = body?.items;
      if (!Array.isArray(items) || items.length === 0) return bad('items must be a non-empty array of { id, qty }');
      for (const it of items as { id?: unknown; qty?: unknown }[]) {
        const id = Number(it?.id);
        if (!Number.isInteger(id) || id < 1 || id > PRODUCT_COUNT) return bad(`no product ${JSON.stringify(it?.id)}`);
        if (!Number.isInteger(it?.qty) || (it.qty as number) < 1) return bad(`qty of product ${id} must be ≥ 1`);
      }
      if (typeof body?.address !== 'string' || !body.address.trim()) return bad('address is required');
      const install = String(req.headers['x-installation-id'] ?? '');
      const orderId = (lastOrder.get(install) ?? 1000) + 1;
      lastOrder.set(install, orderId);
      return { status: 201, json: { orderId }, fixedDelayMs: PAYMENT_MS };
    }
    return null;
  };
}
