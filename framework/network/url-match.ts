/**
 * Which requests a route, a wait or a HAR filter means, as Playwright's `page.route(url)` reads
 * its argument: a glob string, a RegExp tested against the full URL, or a predicate of the URL.
 * A glob's `*` matches anything but `/`, `**` matches anything, `{a,b}` either, `\` escapes the
 * next character and `?` is a literal `?` (Playwright ≥ 1.52). A string without any of those is
 * the whole URL, compared as is. Written here rather than taken from a library: Playwright's own
 * (`urlMatches` in playwright-core) is not exported, and minimatch treats `/` and `?` differently.
 */
export type UrlMatcher = string | RegExp | ((url: URL) => boolean);

/** The RegExp a glob stands for, anchored at both ends. */
export function globToRegex(glob: string): RegExp {
  let out = '^';
  let inGroup = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) {
      out += escape(glob[++i]!);
    } else if (c === '*') {
      const double = glob[i + 1] === '*';
      if (double) i++;
      out += double ? '.*' : '[^/]*';
    } else if (c === '{' && !inGroup) {
      inGroup = true;
      out += '(?:';
    } else if (c === '}' && inGroup) {
      inGroup = false;
      out += ')';
    } else if (c === ',' && inGroup) {
      out += '|';
    } else {
      out += escape(c);
    }
  }
  return new RegExp(out + '$');
}

const escape = (c: string) => c.replace(/[$^+.()|[\]{}?*\\/]/g, '\\$&');

/** Whether `url` (a full URL) is one `matcher` means. */
export function urlMatches(matcher: UrlMatcher, url: string): boolean {
  if (typeof matcher === 'function') {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    return matcher(parsed);
  }
  if (matcher instanceof RegExp) {
    matcher.lastIndex = 0;
    return matcher.test(url);
  }
  if (!/[*{\\]/.test(matcher)) return matcher === url || stripSlash(matcher) === stripSlash(url);
  return globToRegex(matcher).test(url);
}

/** `https://a.test/` and `https://a.test` are one URL (the root's slash). */
const stripSlash = (u: string) => (/^[a-z]+:\/\/[^/]+\/$/i.test(u) ? u.slice(0, -1) : u);

/** A matcher as steps and records show it: `**\/products*`, `/orders$/`, `(url) => …`. */
export function describeMatcher(matcher: UrlMatcher): string {
  if (typeof matcher === 'function') return 'a predicate';
  return String(matcher);
}
