import { execFileSync } from 'node:child_process';

/**
 * Maestro's `http.get/post/put/delete/request` for scripts, synchronous as in Maestro (a script
 * reads the response on the next line, with no `await`): one short-lived child process doing one
 * `fetch`, waited for with a timeout. The request and the response cross as JSON text; the child
 * runs this fixed code, never the script's. The request goes from this host, as Maestro's does
 * (not through the instance's network, so routes and HAR do not see it).
 */

const FETCH_CHILD = `
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', async () => {
  const { url, method, headers, body } = JSON.parse(input);
  try {
    const r = await fetch(url, { method, headers, body: body ?? undefined });
    const h = {};
    r.headers.forEach((v, k) => (h[k] = v));
    process.stdout.write(JSON.stringify({ ok: r.ok, status: r.status, body: await r.text(), headers: h }));
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: String(e && e.cause ? e.cause : e) + " (url " + JSON.stringify(url) + ")" }));
  }
});`;

/** What the script's `http` sends: `{ url, method, headers, body }` as JSON. */
interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * One request, answered within `timeoutMs`: `request` is the JSON of an {@link HttpRequest}, the
 * answer the JSON of `{ ok, status, body, headers }`. Throws an Error whose message names the call.
 */
export function httpRequest(request: string, timeoutMs: number): string {
  const r = JSON.parse(request) as HttpRequest;
  const call = `http.${r.method.toLowerCase()}(${r.url})`;
  let out: string;
  try {
    // The runner's own loaders (NODE_OPTIONS of a test worker) stay out of the child.
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    out = execFileSync(process.execPath, ['-e', FETCH_CHILD], {
      input: request,
      timeout: Math.max(1, timeoutMs),
      encoding: 'utf8',
      env,
    });
  } catch (e) {
    throw new Error(`${call}: no answer within ${timeoutMs}ms (${(e as Error).message.split('\n')[0]})`);
  }
  const answer = JSON.parse(out) as { error?: string };
  if (answer.error) throw new Error(`${call}: ${answer.error}`);
  return out;
}
