import type { ApiCall } from '../core/api-call.js';
import { openHar, REDACTED, type HarEntry, type HarFile } from './har.js';
import { findEntry } from './har-match.js';
import type { Request } from './messages.js';
import type { RouteHandler } from './proxy.js';
import type { Route } from './route.js';

/**
 * `app.routeFromHAR(path)`'s handler, as Playwright's HAR router: the entry har-match.ts finds
 * answers with its status, headers and body (from wherever the HAR keeps it); a request no entry
 * answers, or whose entry cannot be served (a redirect cycle, a body that cannot be read), is
 * aborted (`notFound: 'abort'`) or handed on to the next route or the network (`'fallback'`).
 *
 * Kept apart from Playwright on purpose: an entry of a request that failed when it was recorded
 * (status 0 or -1, no response) fails the request again at once, where Playwright leaves it
 * unanswered for ever (its own comment calls aborting the better choice); an app then sees the
 * failure it saw when recording instead of a request that hangs until its own timeout.
 */
export async function harReplay(
  call: ApiCall,
  path: string,
  notFound: 'abort' | 'fallback',
): Promise<{ handler: RouteHandler; har: HarFile }> {
  const har = await openHar(call, path, notFound === 'fallback');
  const handler = async (route: Route, request: Request) => {
    const served = await answer(har, request).catch(() => null);
    if (served) return served === 'failed' ? route.abort('failed') : route.fulfill(served);
    return notFound === 'abort' ? route.abort('failed') : route.fallback();
  };
  return { handler, har };
}

type Served = { status: number; headers: Record<string, string>; body: Buffer };

/** What answers `request`: a response, 'failed' (it failed when recorded), or null (no entry). */
async function answer(har: HarFile, request: Request): Promise<Served | 'failed' | null> {
  const entry = await findEntry(har, request);
  if (!entry) return null;
  if (entry.response.status < 100) return 'failed';
  return { status: entry.response.status, headers: servedHeaders(entry), body: await har.body(entry.response.content) };
}

/**
 * The entry's response headers as a route serves them: repeated ones joined (`set-cookie` by
 * lines, as Playwright's router joins them), redacted ones left out, and none that describe the
 * recorded bytes on the wire (the body is served as the HAR keeps it, decoded).
 */
function servedHeaders(entry: HarEntry): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of entry.response.headers) {
    const name = h.name.toLowerCase();
    if (name === 'content-encoding' || name === 'content-length' || name === 'transfer-encoding') continue;
    if (h.value === REDACTED) continue;
    const sep = name === 'set-cookie' ? '\n' : ', ';
    headers[name] = headers[name] === undefined ? h.value : `${headers[name]}${sep}${h.value}`;
  }
  return headers;
}
