import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import { FAKE_DRIVER, flatSteps, runWithAllure } from './run-inline.js';

const MB = 1024 * 1024;

/**
 * A 1,000-step suite (10 tests × 100 steps) with a before and an after screenshot on every step,
 * phone-sized (1080×2400), over 10 screens with 3 targets each, as an app's screens repeat in a
 * real suite. The report must stay under 50 MB: identical screenshots with the same target are
 * stored once, and even with no repetition at all the measured size per screenshot keeps it under.
 */
const SPEC = `
import { test, screen } from ${JSON.stringify(FAKE_DRIVER)};
const screens = Array.from({ length: 10 }, (_, i) => screen(i));
const target = (k: number) => ({ role: 'listitem', text: 'Row ' + k, id: 'row_' + k, bounds: [0, 260 + k * 160, 1080, 410 + k * 160] as [number, number, number, number] });
for (let t = 0; t < 10; t++) {
  test('journey ' + t, async ({ nw }) => {
    for (let i = 0; i < 100; i++) {
      const s = (t * 3 + i) % 10;
      const k = (t + i) % 3;
      await nw.step({ title: "Tap text='Row " + k + "' #" + i, selector: "text='Row " + k + "'", node: target(k),
        before: screens[s], after: screens[(s + k + 1) % 10],
        observation: { snapshot_id: 's_' + i, screen: { width: 1080, height: 2400, rotation: 0 }, nodes: [] } });
    }
  });
}
`;

test('a 1,000-step suite with screenshots on every step makes Allure results under 50 MB', async () => {
  test.setTimeout(300_000);
  const run = await runWithAllure({ 'size.spec.ts': SPEC });
  expect(run.exitCode, run.output).toBe(0);
  expect(run.results).toHaveLength(10);
  const steps = run.results.flatMap((r) => flatSteps(r).map((s) => s.step));
  expect(steps).toHaveLength(1_000);
  const shotRefs = steps.flatMap((s) =>
    s.attachments.filter((a: any) => a.type === 'image/png').map((a: any) => a.source),
  );
  expect(shotRefs).toHaveLength(2_000);

  const files = await readdir(run.resultsDir);
  const pngs = files.filter((f) => f.endsWith('.png'));
  expect(new Set(shotRefs).size).toBe(pngs.length);
  expect(pngs.length).toBeLessThanOrEqual(60); // 10 screens × 3 targets, before and after
  let pngBytes = 0;
  for (const f of pngs) pngBytes += (await stat(path.join(run.resultsDir, f))).size;
  const total = await run.size();
  expect(total).toBeLessThan(50 * MB);
  // No repetition at all: every one of the 2,000 screenshots a file of the measured mean size.
  const worstCase = total - pngBytes + 2_000 * (pngBytes / pngs.length);
  expect(worstCase).toBeLessThan(50 * MB);
  test.info().annotations.push({
    type: 'size',
    description: `${(total / MB).toFixed(1)} MB, ${pngs.length} screenshots stored for 2,000 shown; with no repetition ${(worstCase / MB).toFixed(1)} MB`,
  });

  // And the HTML report Allure makes from them (it copies every attachment once).
  if (spawnSync('java', ['-version']).status !== 0) return;
  const out = path.join(run.dir, 'allure-report');
  const log: string[] = [];
  expect(
    await reportCommand(['--results', run.resultsDir, '--output', out], {
      out: (t) => log.push(t),
      err: (t) => log.push(t),
    }),
    log.join(''),
  ).toBe(0);
  expect(await du(out)).toBeLessThan(50 * MB);
});

async function du(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? await du(p) : (await stat(p)).size;
  }
  return total;
}
