import type { Locator, Page } from '@playwright/test';
import type { InstancePort } from '../core/port.js';

/**
 * A WebView's page as a test gets it: Playwright's own `Page`, whose actions (and those of the
 * locators it makes) are also steps of the nestwright test — in its trajectory and Allure report,
 * with the screenshots `use.screenshot` asks for — and whose failures after the app crashed are
 * the app's crash (`APP_CRASHED`), as a native action's are. Everything else is Playwright's,
 * untouched: the objects are forwarded, not copied.
 *
 * A Proxy rather than a subclass: the page is made by Playwright's connection, and the test
 * must get that very object's behaviour (its auto-waiting, tracing, events).
 */

/** Methods that act on the page: each is one step. */
const ACTIONS = new Set([
  'check',
  'clear',
  'click',
  'dblclick',
  'dispatchEvent',
  'dragTo',
  'fill',
  'focus',
  'goBack',
  'goForward',
  'goto',
  'hover',
  'press',
  'pressSequentially',
  'reload',
  'selectOption',
  'selectText',
  'setChecked',
  'setInputFiles',
  'tap',
  'type',
  'uncheck',
]);

/** Methods that make another locator: it is wrapped too. */
const QUERIES = new Set([
  'and',
  'filter',
  'first',
  'getByAltText',
  'getByLabel',
  'getByPlaceholder',
  'getByRole',
  'getByTestId',
  'getByText',
  'getByTitle',
  'last',
  'locator',
  'nth',
  'or',
]);

const VERB: Record<string, string> = { goto: 'Navigate to', pressSequentially: 'Type', selectOption: 'Select' };

/** The Playwright object behind each wrapper, and the instance it belongs to. */
const unwrapped = new WeakMap<object, { target: object; port: InstancePort }>();

/** The Playwright object behind `value` (itself when it is not a wrapper), and the instance port when it is one. */
export function unwrapWeb<T>(value: T): { target: T; port: InstancePort | null } {
  const entry = typeof value === 'object' && value !== null ? unwrapped.get(value) : undefined;
  return entry ? { target: entry.target as T, port: entry.port } : { target: value, port: null };
}

/** `page`, its actions recorded as steps of `port`'s test. */
export function recordedPage(page: Page, port: InstancePort): Page {
  return wrap(page, port, 'page');
}

function wrap<T extends object>(target: T, port: InstancePort, kind: 'page' | 'locator'): T {
  const proxy = new Proxy(target, {
    get(t, prop, _receiver) {
      const value: unknown = Reflect.get(t, prop, t);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (QUERIES.has(prop)) return (...args: unknown[]) => wrap(fn.apply(t, args) as Locator, port, 'locator');
      if (ACTIONS.has(prop)) return (...args: unknown[]) => step(port, kind, prop, t, () => fn.apply(t, args), args);
      return fn.bind(t);
    },
  });
  unwrapped.set(proxy, { target, port });
  return proxy;
}

async function step(
  port: InstancePort,
  kind: 'page' | 'locator',
  method: string,
  target: object,
  body: () => unknown,
  args: unknown[],
): Promise<unknown> {
  const api = `${kind}.${method}`;
  const what = kind === 'locator' ? String(target) : method === 'goto' ? String(args[0]) : 'the page';
  const verb = VERB[method] ?? method.charAt(0).toUpperCase() + method.slice(1);
  const text =
    (method === 'fill' || method === 'type' || method === 'pressSequentially') && typeof args[0] === 'string';
  const title = `${verb} ${what}${text ? ` with ${JSON.stringify(args[0])}` : ''} in the WebView`;
  return port.wrap(api, {}, (call) =>
    port.step(call, { kind: 'action', title, selector: kind === 'locator' ? String(target) : null }, async () => {
      try {
        return await body();
      } catch (e) {
        // The page went away because the app did (its renderer crashed, the app with it): say so as a native step does.
        const crash = await port.crashed(call).catch(() => null);
        throw crash ?? e;
      }
    }),
  );
}
