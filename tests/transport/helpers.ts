import { request } from 'node:http';
import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import type { RunningSim } from '../../device-runtime/sim/server.js';

export async function connect(sim: RunningSim): Promise<DeviceClient> {
  return new DeviceClient(await McpToolTransport.http(sim.url, sim.token));
}

export interface RawResponse {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/**
 * One HTTP request with full control of headers (fetch would not let us set Host). `body: null`
 * sends the headers and never the body, to prove the server answers without reading it.
 */
export function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer | null; path?: string } = {},
): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: opts.path ?? u.pathname,
        method: opts.method ?? 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...opts.headers },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (opts.body === null) {
      req.flushHeaders(); // headers only; the response must come anyway
      return;
    }
    req.end(opts.body ?? INIT);
  });
}

export const bearer = (sim: RunningSim) => ({ authorization: `Bearer ${sim.token}` });
