import { createRequire } from 'node:module';
import { NestwrightError } from '../core/errors.js';

/**
 * Which requests a route, a wait or a HAR filter means, as Playwright's `page.route(url)` reads
 * its argument: a glob string, a RegExp tested against the full URL (one from another realm,
 * node:vm, too), or a predicate of the URL. This is Playwright's own matcher, `urlMatches` of
 * playwright-core (packages/isomorphic/urlMatch.ts), reached through the `lib/coreBundle` entry
 * its package.json exports, from the playwright-core the user's `@playwright/test` runs (already
 * loaded in the runner and its workers), so every rule is Playwright's, in its version:
 * a glob's `*` matches anything but `/`, `**` anything, `/**\/` zero or more directories,
 * `{a,b}` either, `\` escapes, `?` is a literal `?` (a query's start), `[` is literal; a literal
 * URL is normalised through `new URL()` (scheme and host case, default ports `:80`/`:443`,
 * `foo bar` as `foo%20bar`, IDN hosts, the root's `/`); an unbalanced `{` or `}` is an error.
 * `lib/coreBundle` is an entry point, not a documented API: tests/network/url-match-playwright.test.ts
 * holds Playwright's own assertions, so an upgrade that moves or changes it fails there, and
 * `playwrightMatcher()` says so by name rather than matching differently.
 */
export type UrlMatcher = string | RegExp | ((url: URL) => boolean);

/** What nestwright uses of playwright-core's `iso` (packages/isomorphic/urlMatch.ts). */
interface PlaywrightUrlMatch {
  urlMatches(baseURL: string | undefined, url: string, match: UrlMatcher): boolean;
  urlMatchesEqual(a: UrlMatcher, b: UrlMatcher): boolean;
  globToRegexPattern(glob: string): string;
  resolveGlobToRegexPattern(baseURL: string | undefined, glob: string): string;
  isRegExp(value: unknown): value is RegExp;
}

const NEEDED = ['urlMatches', 'urlMatchesEqual', 'globToRegexPattern', 'resolveGlobToRegexPattern', 'isRegExp'];
let loaded: PlaywrightUrlMatch | undefined;

/** Playwright's matcher, loaded on first use from the playwright-core beside `@playwright/test`. */
export function playwrightMatcher(): PlaywrightUrlMatch {
  if (loaded) return loaded;
  let iso: Record<string, unknown> | undefined;
  try {
    const here = createRequire(import.meta.url);
    const playwright = createRequire(createRequire(here.resolve('@playwright/test')).resolve('playwright'));
    iso = (playwright('playwright-core/lib/coreBundle') as { iso?: Record<string, unknown> }).iso;
  } catch (e) {
    // Playwright's own URL matcher is an internal of playwright-core: a version that moved it is
    // nestwright's to follow, not the test's mistake.
    throw new NestwrightError(
      'URL matching',
      `cannot load playwright-core/lib/coreBundle: ${(e as Error).message}. nestwright reads Playwright's URL matcher from it; report this with the output of \`npx playwright --version\``,
      { code: 'NESTWRIGHT_BUG', cause: e },
    );
  }
  const missing = NEEDED.filter((name) => typeof iso?.[name] !== 'function');
  if (missing.length)
    throw new NestwrightError(
      'URL matching',
      `playwright-core/lib/coreBundle no longer has iso.${missing.join(', iso.')}: this @playwright/test is not one nestwright supports (see peerDependencies)`,
      { code: 'USAGE' },
    );
  return (loaded = iso as unknown as PlaywrightUrlMatch);
}

/** The RegExp a glob stands for, anchored at both ends (Playwright's `globToRegexPattern`); throws on an unbalanced brace. */
export function globToRegex(glob: string): RegExp {
  return new RegExp(playwrightMatcher().globToRegexPattern(glob));
}

/** Whether `url` (a full URL) is one `matcher` means; a relative glob resolves against `baseURL`, as Playwright's does. */
export function urlMatches(matcher: UrlMatcher, url: string, baseURL?: string): boolean {
  return playwrightMatcher().urlMatches(baseURL, url, matcher);
}

/** Why `url` is not a matcher (not a string, RegExp or function, or a glob with an unbalanced brace), or null. */
export function matcherProblem(url: unknown, baseURL?: string): string | null {
  const pw = playwrightMatcher();
  if (typeof url === 'function' || pw.isRegExp(url)) return null;
  if (typeof url !== 'string')
    return `the URL is a glob string, a RegExp or a predicate (url: URL) => boolean, got ${JSON.stringify(url)}`;
  try {
    pw.resolveGlobToRegexPattern(baseURL, url);
    return null;
  } catch (e) {
    return `${(e as Error).message}; a literal brace is written \\{ or \\}`;
  }
}

/** Whether two matchers are the same route's (`app.unroute`): equal RegExps by source and flags, else identical. */
export function sameMatcher(a: UrlMatcher, b: UrlMatcher): boolean {
  return playwrightMatcher().urlMatchesEqual(a, b);
}

/** A matcher as steps and records show it: `**\/products*`, `/orders$/`, `(url) => …`. */
export function describeMatcher(matcher: UrlMatcher): string {
  if (typeof matcher === 'function') return 'a predicate';
  return String(matcher);
}
