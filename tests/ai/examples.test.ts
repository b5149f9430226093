import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { childTsconfigArgs } from '../child-bundle.js';
import { childEnv } from '../inline-run.js';
import { ROOT } from '../framework/inline.js';
import { MessagesStandIn } from './stand-in.js';

/**
 * The example AI specs (specs/*-ai.spec.ts) replay from their committed cache with no API key and
 * zero model requests. ANTHROPIC_BASE_URL points at a stand-in that answers every request with
 * an error, so a request that should not happen is counted here instead of leaving the machine.
 */
test('the example AI specs pass offline from their recorded cache with zero model requests', async () => {
  test.setTimeout(400_000);
  const model = await MessagesStandIn.start(() => ({
    kind: 'error',
    status: 500,
    message: 'the examples must not reach a model',
  }));
  const caches = ['notes-ai.spec.ts', 'shop-ai.spec.ts'].map((f) => path.join(ROOT, 'specs/__ai-cache__', `${f}.json`));
  const before = await Promise.all(caches.map((f) => readFile(f, 'utf8')));
  try {
    const args = [
      path.join(ROOT, 'node_modules/@playwright/test/cli.js'),
      'test',
      '-c',
      'playwright.config.ts',
      'specs/notes-ai.spec.ts',
      'specs/shop-ai.spec.ts',
      '--reporter=json',
      '--output=test-results/ai-examples',
      '--workers=2',
      ...(await childTsconfigArgs()),
    ];
    const env = childEnv({ ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: '' });
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? 1)));
    const report = JSON.parse(out.slice(out.indexOf('{')));
    expect(code, err + JSON.stringify(report.errors)).toBe(0);
    expect(report.stats.expected).toBe(2);
    expect(model.requests).toHaveLength(0);
    const steps = report.suites
      .flatMap((s: any) => s.specs)
      .flatMap((sp: any) => sp.tests[0].results[0].attachments)
      .filter((a: any) => a.name === 'nestwright-trajectory')
      .flatMap((a: any) => JSON.parse(Buffer.from(a.body, 'base64').toString()).steps)
      .filter((s: any) => s.ai);
    expect(steps.map((s: any) => s.ai.cache)).toEqual(['hit', 'hit', 'hit', 'hit']);
    // A replay writes nothing: the committed files are unchanged.
    expect(await Promise.all(caches.map((f) => readFile(f, 'utf8')))).toEqual(before);
  } finally {
    await model.close();
  }
});
