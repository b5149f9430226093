import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { childEnv } from '../inline-run.js';
import { ROOT, makeProject, nestwrightBin } from './helpers.js';

test.describe.configure({ timeout: 240_000 });

async function startHttp(
  root: string,
  args: string[] = [],
): Promise<{ child: ChildProcess; url: string; token: string }> {
  const child = spawn(
    process.execPath,
    [await nestwrightBin(), 'mcp', '--http', '--port', '0', '--root', root, ...args],
    {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await expect.poll(() => out, { timeout: 60_000 }).toContain('token: in ');
  const url = /listening on (\S+)/.exec(out)![1]!;
  const token = readFileSync(/token: in (\S+)/.exec(out)![1]!, 'utf8').trim();
  return { child, url, token };
}

/**
 * What runs over HTTP here is the transport: the token, the tools' metadata, a long call's progress.
 * Two spec files of the example suite (9 tests, both apps' data) are enough for that; the whole
 * suite runs in its own stages of `npm test` and through every provider.
 */
const RUN = ['specs/notes.spec.ts', 'specs/settings.spec.ts'];

test('over HTTP with a bearer token: the stock client lists the example suite and runs two of its files through run_tests, with progress', async () => {
  const server = await startHttp(ROOT, ['--config', 'playwright.config.ts']);
  try {
    // The token is checked before anything else.
    const anonymous = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);

    const client = new Client({ name: 'nestwright-tests', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${server.token}` } },
      }),
    );
    const { tools } = await client.listTools();
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.outputSchema, t.name).toBeTruthy();
      expect(t.annotations, t.name).toBeTruthy();
    }
    const listed = (await client.callTool({ name: 'list_tests', arguments: { files: ['specs/'] } })) as CallToolResult;
    const all = (listed.structuredContent as { tests: unknown[] }).tests.length;
    expect(all).toBeGreaterThan(10);
    const chosen = (await client.callTool({ name: 'list_tests', arguments: { files: RUN } })) as CallToolResult;
    const count = (chosen.structuredContent as { tests: unknown[] }).tests.length;
    expect(count).toBeGreaterThan(5);
    expect(count).toBeLessThan(all);

    const progress: number[] = [];
    const run = (await client.callTool({ name: 'run_tests', arguments: { files: RUN } }, undefined, {
      timeout: 220_000,
      onprogress: (p) => progress.push(p.progress),
    })) as CallToolResult;
    expect(run.isError, JSON.stringify(run.content)).toBeFalsy();
    const r = run.structuredContent as {
      passed: number;
      failed: number;
      flaky: number;
      skipped: number;
      failures: unknown[];
    };
    expect(r.failed, JSON.stringify(r.failures)).toBe(0);
    expect(r.passed + r.flaky + r.skipped).toBe(count);
    expect(progress.length, 'progress came during the run, not only at its end').toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(count);
    await client.close();
  } finally {
    server.child.kill('SIGTERM');
  }
});

test('over HTTP a closed connection releases the live apps it held; refused flags exit 2', async () => {
  const project = await makeProject({});
  const server = await startHttp(project.dir);
  // A device of the test's own, so the test can see the space come and go.
  const sim = await startSimServer();
  const device = new DeviceClient(await McpToolTransport.http(sim.url, sim.token));
  const spaces = async () => (await device.call('space_list', {})).spaces.map((s) => s.space_id);
  try {
    const connect = async () => {
      const client = new Client({ name: 'nestwright-tests', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${server.token}` } },
      });
      await client.connect(transport);
      return { client, transport };
    };
    const a = await connect();
    const opened = (await a.client.callTool({
      name: 'open_app',
      arguments: { app: 'com.android.settings', device: { provider: 'sim', url: sim.url, token: sim.token } },
    })) as CallToolResult;
    const { session, space } = opened.structuredContent as { session: string; space: string };
    expect(await spaces()).toContain(space);
    // Another connection cannot use it.
    const b = await connect();
    const foreign = (await b.client.callTool({ name: 'observe', arguments: { session } })) as CallToolResult;
    expect(foreign.isError).toBe(true);
    expect((foreign.content[0] as { text: string }).text).toContain('SESSION_NOT_FOUND');
    await a.transport.terminateSession();
    await a.client.close();
    await expect.poll(spaces, { timeout: 20_000 }).not.toContain(space);
    await b.client.close();
  } finally {
    server.child.kill('SIGTERM');
    await device.close();
    await sim.close();
    await project.remove();
  }
  const bad = spawn(process.execPath, [await nestwrightBin(), 'mcp', '--port', '1'], {
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  bad.stderr.on('data', (d) => (err += d));
  expect(await new Promise((r) => bad.on('close', r))).toBe(2);
  expect(err).toContain('--port, --token-file and --no-auth go with --http');
});
