import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  connectDevice,
  startEmbeddedDevice,
} from '../device-runtime/providers/index.js';
import { Locator } from '../framework/core/locator.js';
import { parseLocatorInput } from '../framework/tools/expression.js';
import { Space } from '../framework/core/space.js';
import { median, percentile, round, sample, type BenchSection } from './section.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NOTES_APK = path.join(ROOT, 'fixtures/apks/notes.apk');
const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

function env(): Record<string, string> {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('NESTWRIGHT_SIM_')) e[k] = v;
  return e;
}

/** `npx playwright test specs/` as a user runs it: wall time of the child process. */
async function playwrightRun(): Promise<number> {
  const t = performance.now();
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/@playwright/test/cli.js'),
      'test',
      '-c',
      'playwright.config.ts',
      '--reporter=dot',
      'specs/',
    ],
    { cwd: ROOT, env: env(), stdio: 'ignore' },
  );
  const code = await new Promise((r) => child.on('close', r));
  if (code !== 0) throw new Error(`npx playwright test exited ${code}`);
  return performance.now() - t;
}

/**
 * `nestwright mcp` over stdio with the SDK's stock client: what observe and try_locator cost an
 * agent, against the same work done in-process through the framework (the floor), and a
 * run_tests of the example suite against `npx playwright test` of the same specs, same run.
 */
export async function benchAgentMcp(): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'bin/nestwright.js'), 'mcp', '--root', ROOT, '--config', 'playwright.config.ts'],
      cwd: ROOT,
      env: env(),
      stderr: 'ignore',
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as CallToolResult;
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
    return r.structuredContent as Record<string, any>;
  };
  const sim = await startEmbeddedDevice();
  process.env[EMBEDDED_URL_ENV] = sim.url;
  process.env[EMBEDDED_TOKEN_ENV] = sim.token;
  try {
    const { session } = await call('open_app', { app: NOTES_APK });
    const observe = await sample(60, () => call('observe', { session }), 10);
    const tryLocator = await sample(
      60,
      () => call('try_locator', { session, selector: "getByRole('button', { name: 'New note' })" }),
      10,
    );
    await call('close_app', { session });

    const conn = await connectDevice({ provider: 'sim' });
    const space = await Space.create(conn.client, 'bench-agent');
    const app = await space.launch(NOTES_APK);
    const locator = new Locator(app.driver, parseLocatorInput("getByRole('button', { name: 'New note' })"));
    const localObserve = await sample(60, () => app.observe(), 10);
    const localResolve = await sample(60, () => app.driver.wrap('bench', {}, (call) => locator.resolve(call)), 10);
    await app.close();
    await space.delete();
    await conn.close();
    rows.push({
      measure: 'observe (stdio MCP → framework → device)',
      ...stats(observe),
      'in-process median ms': round(median(localObserve)),
      ratio: `${round(median(observe) / median(localObserve))}x`,
    });
    rows.push({
      measure: 'try_locator (stdio MCP)',
      ...stats(tryLocator),
      'in-process median ms': round(median(localResolve)),
      ratio: `${round(median(tryLocator) / median(localResolve))}x`,
    });
  } finally {
    delete process.env[EMBEDDED_URL_ENV];
    delete process.env[EMBEDDED_TOKEN_ENV];
    await sim.close();
  }

  // Alternate the two so drift on a noisy machine hits both alike.
  const viaMcp: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < 2; i++) {
    direct.push(await playwrightRun());
    const t = performance.now();
    const r = await call('run_tests', { files: ['specs/'] });
    if (r.failed) throw new Error(`run_tests: ${r.failed} failed`);
    viaMcp.push(performance.now() - t);
  }
  await client.close();
  rows.push({
    measure: 'example suite: run_tests over stdio',
    median_ms: round(median(viaMcp), 0),
    'npx playwright test median ms': round(median(direct), 0),
    ratio: `${round(median(viaMcp) / median(direct))}x`,
  });
  return {
    title: 'nestwright mcp: agent tools over stdio vs the framework in-process; run_tests vs npx playwright test',
    rows,
    notes: [
      'Targets: observe and try_locator under 10 ms median on the simulator; run_tests within 10% of npx playwright test (2 runs each, alternated).',
    ],
  };
}
