// A child of bench/ceiling.ts. `server`: a bare node:http server answering each POST with a
// JSON body the size of a small observation, printing its port. `client <port> <n>`: n POSTs
// one after another on a kept-alive connection, as a worker's tool calls are.
import http from 'node:http';

const [mode, portArg, nArg] = process.argv.slice(2);
const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { structuredContent: { nodes: 'x'.repeat(4000) } } });

if (mode === 'server') {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) })
        .end(answer),
    );
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send?.(server.address().port));
  process.on('disconnect', () => process.exit(0));
} else {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'ui_tap', arguments: { selector: 'text=Save' } },
  });
  const one = () =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: Number(portArg),
          method: 'POST',
          path: '/',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  // Ready once connected (one warm-up call), so process start-up is not timed; go on the parent's word.
  await one();
  process.send?.('ready');
  process.once('message', async () => {
    for (let i = 0; i < Number(nArg); i++) await one();
    agent.destroy();
    process.send?.('done', () => process.exit(0));
  });
}
