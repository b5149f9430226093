import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { App } from '../../framework/core/app.js';
import { runMaestroFlow } from '../../framework/maestro/execute.js';
import { planFlow } from '../../framework/maestro/plan.js';
import { FlowScript } from '../../device-runtime/protocol/skill/index.js';
import { AppNetwork, type Request } from '../../framework/network/index.js';
import type { AppPort } from '../../framework/core/port.js';
import { planSkill, replaySkill } from '../../framework/skills/index.js';
import { catalogPage, fakePort, HOST, startBackend } from '../network/engine-helpers.js';

/**
 * A flow's or a skill's script `http` goes through the instance's network: when the instance's
 * proxy is running, the request goes through it (with its credentials, trusting its CA), so the
 * test's routes answer it, its events and HAR see it; with no proxy it goes straight to the host
 * as Maestro's does. The instance is an AppNetwork over a fake runtime that offers net_proxy (the
 * real proxy, gate and upstream); the flow runs in the real Maestro executor, the skill in the real
 * replay. The server the script asks is real, on 127.0.0.1, and counts what reaches it.
 */
test.describe.configure({ mode: 'default' });

/** A real HTTP server on 127.0.0.1 that reports each request it gets on a line of its own. */
const SERVER = `require('node:http').createServer((req, res) => {
  process.stdout.write(req.method + ' ' + req.url + '\\n');
  res.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{"from":"server"}');
}).listen(0, '127.0.0.1', function () { process.stdout.write('port ' + this.address().port + '\\n'); });`;

let backend: Awaited<ReturnType<typeof startBackend>>;
let server: { port: number; hits: string[]; close: () => Promise<void> };
let dir: string;

test.beforeAll(async () => {
  backend = await startBackend();
  // In a process of its own, so what it counts is what reached it from outside this one.
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const hits: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('port ')) resolve(Number(line.slice(5)));
        else hits.push(line);
      }
    });
    child.on('exit', () => reject(new Error('the test server exited')));
  });
  server = {
    port,
    hits,
    close: async () => void child.kill(),
  };
  dir = await mkdtemp(path.join(os.tmpdir(), 'nw-script-http-'));
});
test.afterEach(() => {
  server.hits.length = 0;
});
test.afterAll(async () => {
  await backend.server.stop();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** An instance's network over a fake runtime, and the app a flow runs on (only its network is used). */
function instance() {
  const { port } = fakePort(backend.info);
  const net = new AppNetwork(port);
  // The route a script's http takes: App and its port ask the instance's network for it.
  const route = () => net.scriptRoute();
  // The flows below are scripts only: the one member of App the executor uses for them.
  const app = { scriptNetwork: route } satisfies Pick<App, 'scriptNetwork'> as unknown as App;
  const appPort = Object.assign(Object.create(port) as AppPort, {
    package: port.pkg,
    options: { actionTimeout: 5_000, expectTimeout: 5_000 },
    scriptNetwork: route,
  });
  return { net, app, appPort };
}

/** Run a flow of one `evalScript` on `app` in the Maestro executor; its `output` (the flow logs it). */
async function runFlow(app: App, script: string): Promise<Record<string, unknown>> {
  const file = path.join(dir, `flow-${Math.random().toString(36).slice(2)}.yaml`);
  const lines = [
    'appId: com.nestwright.shop',
    '---',
    `- evalScript: ${JSON.stringify(`\${${script}}`)}`,
    '- evalScript: ${console.log(JSON.stringify(output))}',
  ];
  await writeFile(file, `${lines.join('\n')}\n`);
  const plan = planFlow(file);
  expect(plan.issues).toEqual([]);
  const logged: string[] = [];
  await runMaestroFlow(app, plan.flow!, { log: (line) => logged.push(line) });
  return JSON.parse(logged.at(-1)!) as Record<string, unknown>;
}

test('a flow script: an app.route() fulfils http.get, app.on("request") and the HAR see it, the server sees nothing', async () => {
  const { net, app } = instance();
  try {
    await net.route('**/api/**', (r) => r.fulfill({ body: '{"from":"route"}' }));
    const seen: string[] = [];
    net.on('request', (r: Request) => seen.push(`${r.method()} ${r.url()}`));
    const url = `http://127.0.0.1:${server.port}/api/thing`;
    const out = await runFlow(app, `output.x = json(http.get('${url}').body).from`);
    expect(out.x).toBe('route');
    expect(server.hits).toEqual([]);
    expect(seen).toEqual([`GET ${url}`]);
    expect(net.exchanges.map((x) => [x.request.url(), x.answeredBy])).toEqual([[url, 'route **/api/** (fulfill)']]);
  } finally {
    await net.close();
  }
});

test('a flow script with no proxy running: http.get reaches the server directly', async () => {
  const { net, app } = instance();
  try {
    const url = `http://127.0.0.1:${server.port}/api/thing`;
    const out = await runFlow(app, `output.x = json(http.get('${url}').body).from`);
    expect(out.x).toBe('server');
    await expect.poll(() => server.hits).toEqual(['GET /api/thing']);
    expect(net.exchanges).toEqual([]);
  } finally {
    await net.close();
  }
});

test('a flow script over HTTPS through the proxy: unrouted, it reaches the instance network host with the worker CA trusted', async () => {
  const { net, app } = instance();
  try {
    await net.route('**/api/**', (r) => r.fulfill({ body: '{"from":"route"}' }));
    const before = backend.hits();
    const url = `https://${HOST}/products?page=2`;
    const out = await runFlow(
      app,
      `output.first = json(http.get('${url}').body).items[0].name; output.routed = json(http.post('https://${HOST}/api/x', { body: '{}' }).body).from`,
    );
    expect(out).toMatchObject({ first: catalogPage(2).items[0]!.name, routed: 'route' });
    expect(backend.hits()).toBe(before + 1);
    expect(net.exchanges.map((x) => `${x.request.method()} ${x.request.url()} ${x.answeredBy}`)).toEqual([
      `GET ${url} network`,
      `POST https://${HOST}/api/x route **/api/** (fulfill)`,
    ]);
  } finally {
    await net.close();
  }
});

test('a skill script step: the route answers http.get, the server sees nothing', async () => {
  const { net, appPort } = instance();
  try {
    await net.route('**/api/**', (r) => r.fulfill({ body: '{"from":"route"}' }));
    const url = `http://127.0.0.1:${server.port}/api/thing`;
    const file = path.join(dir, 'skill.yaml');
    await writeFile(
      file,
      `name: shop.script_http\napp: com.nestwright.shop\nsteps:\n  - script: "output.x = json(http.get('${url}').body).from"\n  - script: \"if (output.x !== 'route') throw new Error('answered by ' + output.x)\"\n`,
    );
    const result = await appPort.wrap('test', {}, (call) => replaySkill(appPort, planSkill(call, file, {}), call));
    expect(result.error?.message ?? null).toBeNull();
    expect(result.ok).toBe(true);
    expect(server.hits).toEqual([]);
    expect(net.exchanges.map((x) => x.request.url())).toEqual([url]);
  } finally {
    await net.close();
  }
});

test('http from a promise job the script queued goes through the route as well', async () => {
  const { net, app } = instance();
  try {
    await net.route('**/api/**', (r) => r.fulfill({ body: '{"from":"route"}' }));
    const url = `http://127.0.0.1:${server.port}/api/job`;
    const out = await runFlow(app, `Promise.resolve().then(() => { output.x = json(http.get('${url}').body).from })`);
    expect(out.x).toBe('route');
    expect(server.hits).toEqual([]);
    expect(net.exchanges.map((x) => x.request.url())).toEqual([url]);
  } finally {
    await net.close();
  }
});

test('a script waiting on http is still stopped by its time limit (SCRIPT_TIMEOUT), the wait bounded by the time left', async () => {
  // A server in this process that never answers: the script waits on its own thread.
  const silent = net.createServer(() => {}).listen(0, '127.0.0.1');
  await once(silent, 'listening');
  const port = (silent.address() as net.AddressInfo).port;
  const scope = new FlowScript(1_000);
  try {
    const run = scope.run(
      `try { http.get('http://127.0.0.1:${port}/') } catch (e) { output.waited = String(e) } for (;;) {}`,
      'wait.js',
    );
    await expect(run).rejects.toMatchObject({ code: 'SCRIPT_TIMEOUT' });
    expect(String((await scope.output()).waited)).toContain(`http.get(http://127.0.0.1:${port}/): no answer within`);
    // The scope carries on.
    expect(await scope.interpolate('${output.waited ? 1 + 1 : 0}', 'after.js')).toBe('2');
  } finally {
    scope.dispose();
    silent.close();
  }
});
