import { expect as playwrightExpect } from '@playwright/test';
import { unwrapWeb } from './web-steps.js';

type MatcherState = { isNot: boolean };
type Matcher = (this: MatcherState, received: unknown, ...args: never[]) => unknown;

/**
 * Whether `value` is one of Playwright's own objects an assertion can take: a `Locator` or a
 * `Page` (a WebView's, from `app.webview()`, or any other). Told by shape, since Playwright's
 * classes are not exported (nor named as in its docs): a locator has a frame and a selector, a
 * page a main frame.
 */
export function isPlaywrightReceiver(value: unknown): boolean {
  const { target } = unwrapWeb(value);
  if (typeof target !== 'object' || target === null) return false;
  const o = target as Record<string, unknown>;
  if (typeof o._selector === 'string' && typeof o._frame === 'object' && typeof o.waitFor === 'function') return true;
  return typeof o.mainFrame === 'function' && typeof o.goto === 'function' && typeof o.screenshot === 'function';
}

/**
 * nestwright's matchers, each handing a Playwright `Locator` or `Page` to Playwright's own
 * matcher of the same name (with `.not` as given), so one `expect` serves native and web
 * content in the same test. A WebView page's assertions are steps of the test's trajectory too.
 */
export function delegatingToPlaywright<M extends Record<string, unknown>>(matchers: M): M {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(matchers)) {
    if (typeof fn !== 'function') {
      out[name] = fn;
      continue;
    }
    const own = fn as Matcher;
    out[name] = async function (this: MatcherState, received: unknown, ...args: never[]) {
      if (!isPlaywrightReceiver(received)) return own.call(this, received, ...args);
      const { target, port } = unwrapWeb(received);
      const isNot = this.isNot;
      const run = async () => {
        const base = playwrightExpect(target) as unknown as Record<string, unknown> & { not: Record<string, unknown> };
        const matcher = (isNot ? base.not : base)[name];
        if (typeof matcher !== 'function')
          throw new Error(`expect(${describe(target)}).${name}: Playwright has no matcher ${name} for this object`);
        await (matcher as (...a: unknown[]) => Promise<void>)(...args);
      };
      try {
        if (port)
          await port.wrap(`expect.${name}`, { kind: 'expect' }, (call) =>
            port.step(
              call,
              {
                kind: 'assertion',
                title: `Expect ${describe(target)} ${isNot ? 'not ' : ''}${name} in the WebView`,
                selector: null,
              },
              run,
            ),
          );
        else await run();
        return { pass: !isNot, name, message: () => '' };
      } catch (e) {
        if (!(e instanceof Error) || !('matcherResult' in e)) throw e;
        return { pass: isNot, name, message: () => e.message };
      }
    };
  }
  return out as M;
}

function describe(target: unknown): string {
  return typeof (target as { _selector?: unknown })._selector === 'string' ? String(target) : 'page';
}
