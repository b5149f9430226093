import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { PNG } from 'pngjs';
import { ContentStore } from '../../reporters/allure/content-store.js';
import { ScreenshotRenderer } from '../../reporters/allure/screenshot-renderer.js';
import { buildSteps } from '../../reporters/allure/steps.js';
import { TrajectoryStepSchema } from '../../reporters/allure/trajectory-schema.js';

/** The Allure steps of an AI verdict: its figures as parameters, its evidence nodes outlined. */
test('an AI verdict step shows its figures and outlines every evidence node on its screenshot', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'nw-ai-report-'));
  const png = new PNG({ width: 100, height: 200 });
  png.data.fill(255);
  const shot = PNG.sync.write(png);
  const step = TrajectoryStepSchema.parse({
    index: 0,
    kind: 'assertion',
    api: 'ai.assert',
    title: 'AI assert: two notes are listed',
    selector: null,
    node: null,
    before: 's_1',
    after: 's_1',
    screenshots: { after: 'step-0-after.png' },
    startedAt: 0,
    durationMs: 12,
    result: 'ok',
    error: null,
    source: 'ai',
    instance: null,
    ai: {
      verb: 'assert',
      instruction: 'two notes are listed',
      model: 'claude-opus-5-5',
      cache: 'none',
      turns: 1,
      calls: [],
      verdict: {
        pass: true,
        reason: 'shows "A" and "B"',
        grounded: true,
        evidence: [
          { id: 'n_1', line: 'n_1 text "A"', bounds: [10, 10, 50, 30] },
          { id: 'n_2', line: 'n_2 text "B"', bounds: [10, 100, 50, 120] },
        ],
      },
      usage: { input: 900, output: 40, cacheRead: 600, cacheWrite: 0, requests: 1 },
      costUsd: 0.00442,
      latencyMs: 35,
      screens: { s_1: '<screen …>' },
    },
  });
  const screens = new ScreenshotRenderer(dir, 0);
  const [s] = buildSteps([], [step], {
    store: new ContentStore(dir),
    screens,
    referenced: new Set(),
    consume: () => {},
    read: () => null,
    body: (name) => (name === 'step-0-after.png' ? shot : null),
  });
  await screens.drain();
  const params = Object.fromEntries(s!.parameters.map((p) => [p.name, p.value]));
  expect(params).toMatchObject({
    source: 'ai',
    model: 'claude-opus-5-5',
    'model requests': '1',
    cost: '$0.0044',
    tokens: '1540 (input 900, output 40, cache read 600, cache write 0)',
    verdict: 'true — shows "A" and "B"',
  });
  const att = s!.attachments.find((a) => a.name === 'screenshot after (evidence highlighted)')!;
  expect(s!.attachments.map((a) => a.name)).toContain('ai step');
  const out = PNG.sync.read(await readFile(path.join(dir, att.source)));
  const red = (x: number, y: number) =>
    out.data[(y * out.width + x) * 4]! > 200 && out.data[(y * out.width + x) * 4 + 1]! < 100;
  expect(red(10, 10)).toBe(true); // first evidence node's corner
  expect(red(10, 100)).toBe(true); // second
  expect(red(80, 180)).toBe(false);
});
