import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { NetInfo } from '../../device-runtime/protocol/index.js';
import { issueCa, issueLeaf, type IssuedCert } from '../../device-runtime/sim/net/ca.js';

/** A request the proxy saw inside a tunnel it opened (mitm) or the CONNECT itself (tunnel). */
export interface Seen {
  method: string;
  host: string;
  path: string;
  body: string;
}

/** What a rule answers instead of the backend, or how it changes the backend's JSON. */
export type Rule = (req: Seen) => { status: number; json: unknown } | { edit: (json: any) => unknown } | null;

/**
 * A real HTTP proxy for the tests, on loopback: CONNECT opens a tunnel; in `mitm` mode the
 * tunnel is TLS terminated with a certificate for the host signed by the proxy's own CA (what
 * mockttp does), each request is recorded, answered by a rule or forwarded to the runtime's
 * backend the way net_info says (its hosts table and system CA), as a proxy on the test machine
 * reaches it.
 */
export async function startProxy(info: NetInfo, opts: { mitm: boolean; rule?: Rule; ca?: IssuedCert }) {
  const ca = opts.ca ?? issueCa('test proxy CA');
  const seen: Seen[] = [];
  const connects: string[] = [];
  const target = (host: string, port: number) => info.hosts.find((h) => h.host === host && h.port === port);
  const leaf = issueLeaf(
    ca,
    info.hosts.map((h) => h.host),
  );
  const tls = createHttpsServer({ cert: leaf.cert, key: leaf.key }, (req, res) => {
    void (async () => {
      const body = await read(req);
      const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
      const s: Seen = { method: req.method ?? 'GET', host, path: req.url ?? '/', body };
      seen.push(s);
      const ruled = opts.rule?.(s) ?? null;
      if (ruled && 'status' in ruled) {
        res.writeHead(ruled.status, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(ruled.json));
      }
      const t = target(host, 443);
      if (!t) return res.writeHead(502).end();
      const up = httpsRequest(
        {
          host: t.address,
          port: t.address_port,
          servername: host,
          ca: info.system_ca_pem ?? undefined,
          method: s.method,
          path: s.path,
          headers: { ...req.headers },
        },
        (upRes) => {
          void read(upRes).then((text) => {
            let out = text;
            if (ruled && 'edit' in ruled) out = JSON.stringify(ruled.edit(JSON.parse(text)));
            res.writeHead(upRes.statusCode ?? 502, { 'content-type': 'application/json' });
            res.end(out);
          });
        },
      );
      up.on('error', () => res.writeHead(502).end());
      up.end(body);
    })();
  });
  const server: Server = createServer((_, res) => res.writeHead(405).end());
  const sockets = new Set<Socket>();
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const [host = '', port = '443'] = (req.url ?? '').split(':');
    connects.push(`${host}:${port}`);
    if (opts.mitm) {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) socket.unshift(head);
      tls.emit('connection', socket);
      return;
    }
    const t = target(host, Number(port));
    const up = connect(t?.address_port ?? Number(port), t?.address ?? host, () => {
      sockets.add(up);
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(socket).pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    ca,
    seen,
    connects,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      tls.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type TestProxy = Awaited<ReturnType<typeof startProxy>>;

function read(s: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    s.on('error', reject);
  });
}
