import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { FAKE_DRIVER, ROOT, runWithAllure } from './run-inline.js';

const spec = (from: number) => `
import { test, screen } from ${JSON.stringify(FAKE_DRIVER)};
const home = screen(1);
for (let i = ${from}; i < ${from + 2}; i++) {
  test('journey ' + i, async ({ nw }) => {
    await nw.step({ title: "Tap text='New note'", selector: "text='New note'", node: { role: 'button', text: 'New note', bounds: [0, 348, 1080, 492] }, before: home });
  });
}
`;

test("sharded runs merge into one report: ci/report/merge-shards.sh over each shard's allure-results", async () => {
  test.skip(spawnSync('java', ['-version']).status !== 0, 'Allure 2 needs Java: apt-get install default-jre-headless');
  test.setTimeout(180_000);
  const files = { 'a.spec.ts': spec(0), 'b.spec.ts': spec(2) }; // without fullyParallel, shards split by file
  const shards = [
    await runWithAllure(files, { args: ['--shard', '1/2'] }),
    await runWithAllure(files, { args: ['--shard', '2/2'] }),
  ];
  expect(shards.map((s) => s.results.length)).toEqual([2, 2]);
  // The same screen with the same target is the same file name in both shards: copying is safe.
  const pngs = await Promise.all(
    shards.map(async (s) => (await readdir(s.resultsDir)).filter((f) => f.endsWith('.png'))),
  );
  expect(pngs[0]).toEqual(pngs[1]);

  const out = path.join(shards[0]!.dir, 'merged-report');
  const r = spawnSync('bash', [path.join(ROOT, 'ci/report/merge-shards.sh'), out, ...shards.map((s) => s.dir)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  const suites = JSON.parse(await readFile(path.join(out, 'data', 'suites.json'), 'utf8'));
  const names: string[] = [];
  const walk = (n: any) => (n.children ? n.children.forEach(walk) : names.push(n.name));
  walk(suites);
  expect(names.sort()).toEqual(['journey 0', 'journey 1', 'journey 2', 'journey 3']);

  // Publishing again over the previous report carries its history (Allure's trends) forward.
  const again = spawnSync('bash', [path.join(ROOT, 'ci/report/merge-shards.sh'), out, ...shards.map((s) => s.dir)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(again.status, again.stdout + again.stderr).toBe(0);
  const trend = JSON.parse(await readFile(path.join(out, 'history', 'history-trend.json'), 'utf8'));
  expect(trend.length).toBe(2);
});
