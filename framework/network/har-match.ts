import type { HarEntry, HarFile } from './har.js';
import type { Request } from './messages.js';

/**
 * Which HAR entry answers a request, by Playwright's rules (its HAR backend's lookup):
 *
 * 1. The entries with the request's URL and method; for a POST with a body, only those whose
 *    recorded body is the same bytes — or, for `multipart/form-data`, the same once each side's
 *    boundary is taken out, since a client draws a new boundary for every request.
 * 2. Of several, the one with the most request headers equal to the request's (name in any case,
 *    value exactly); the first of those that tie.
 * 3. An entry that is a redirect (301, 302, 303, 307, 308 with a `Location`) is followed: the
 *    lookup starts again at the URL it points to, as a GET after a 303 (of anything but GET or
 *    HEAD) or after a 301 or 302 of a POST; the final entry answers. A chain that comes back to an
 *    entry it has been through is an error ({@link HarLookupError}).
 *
 * No entry: undefined, and `notFound` decides (never the first entry for the URL).
 */

/** The statuses whose `Location` a lookup follows. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A lookup that cannot end (a redirect cycle) or a body that cannot be read. */
export class HarLookupError extends Error {}

type NameValue = { name: string; value: string };

/** The entry that answers `request`, or undefined. */
export async function findEntry(har: HarFile, request: Request): Promise<HarEntry | undefined> {
  const headers = Object.entries(request.headers()).map(([name, value]) => ({ name, value }));
  const body = request.postDataBuffer();
  let url = request.url();
  let method = request.method();
  const visited = new Set<HarEntry>();
  for (;;) {
    const candidates: HarEntry[] = [];
    for (const e of har.entries) {
      if (e.request.url !== url || e.request.method !== method) continue;
      if (method === 'POST' && body && e.request.postData && !(await sameBody(har, e, body, headers))) continue;
      candidates.push(e);
    }
    const entry = mostHeadersInCommon(candidates, headers);
    if (!entry) return undefined;
    if (visited.has(entry)) throw new HarLookupError(`the HAR's redirects from ${request.url()} form a cycle`);
    visited.add(entry);
    const location = entry.response.headers.find((h) => h.name.toLowerCase() === 'location');
    if (!REDIRECTS.has(entry.response.status) || !location) return entry;
    const status = entry.response.status;
    url = new URL(location.value, url).href;
    if (
      ((status === 301 || status === 302) && method === 'POST') ||
      (status === 303 && !['GET', 'HEAD'].includes(method))
    )
      method = 'GET';
  }
}

async function sameBody(har: HarFile, e: HarEntry, body: Buffer, headers: NameValue[]): Promise<boolean> {
  let recorded: Buffer;
  try {
    recorded = await har.body(e.request.postData!);
  } catch (err) {
    throw new HarLookupError(`cannot read the body of ${e.request.method} ${e.request.url}: ${(err as Error).message}`);
  }
  if (recorded.equals(body)) return true;
  const boundary = multipartBoundary(headers);
  const recordedBoundary = multipartBoundary(e.request.headers ?? []);
  if (!boundary || !recordedBoundary) return false;
  return body.toString().replaceAll(boundary, '') === recorded.toString().replaceAll(recordedBoundary, '');
}

function multipartBoundary(headers: readonly NameValue[]): string | undefined {
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
  if (!type?.includes('multipart/form-data')) return undefined;
  return /boundary=(\S+)/.exec(type)?.[1];
}

function mostHeadersInCommon(candidates: HarEntry[], headers: NameValue[]): HarEntry | undefined {
  if (candidates.length < 2) return candidates[0];
  const have = new Set(headers.map((h) => `${h.name.toLowerCase()}:${h.value}`));
  const score = (e: HarEntry) =>
    (e.request.headers ?? []).filter((h) => have.has(`${h.name.toLowerCase()}:${h.value}`)).length;
  let best = candidates[0]!;
  let bestScore = score(best);
  for (const e of candidates.slice(1)) {
    const s = score(e);
    if (s > bestScore) [best, bestScore] = [e, s];
  }
  return best;
}
