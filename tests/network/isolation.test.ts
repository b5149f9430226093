import { test, expect } from '@playwright/test';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { plain, runInline, type InlineRun } from '../framework/inline.js';

/**
 * Per-instance networks on one device (docs/network.md): two Playwright workers, each with its
 * own Shop instance on the same simulated device, route the same URL to different answers at
 * the same time. Every request is the app's own (a deep link opens a product page, which asks
 * for the product and the one bought with it), through that instance's proxy; each worker's
 * route sees only its own instance's installation id, and each screen shows only its own
 * route's products. 2 workers × 250 pages × 2 requests = 1,000 requests.
 */
const PAGES = 250;

const SPEC = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk', deviceOptions: { provider: 'sim', url: process.env.NW_URL, token: process.env.NW_TOKEN } });
test.describe.configure({ mode: 'parallel' });

for (const label of ['Alpha', 'Beta']) {
  test(\`instance \${label}\`, async ({ app }, testInfo) => {
    test.setTimeout(240_000);
    const seen = [];
    await app.route('**/products/*', (route) => {
      const request = route.request();
      const id = Number(new URL(request.url()).pathname.split('/').pop());
      seen.push({ id, install: request.headers()['x-installation-id'], at: Date.now() });
      return route.fulfill({ json: { id, name: \`\${label} product \${id}\`, price: 100 * id } });
    });
    let wrong = 0;
    for (let id = 1; id <= ${PAGES}; id++) {
      await app.intent({ data: \`nwshop://product/\${id}\` });
      const name = app.getById('product_name');
      await expect(name).toHaveText(/ product \\d+$/, { timeout: 10_000 });
      if ((await name.textContent()) !== \`\${label} product \${id}\`) wrong++;
      await expect(app.getById('related_name')).toContainText(\`\${label} product \${(id % 200) + 1}\`);
      await app.press('back');
    }
    const installs = [...new Set(seen.map((s) => s.install))];
    await testInfo.attach('isolation', {
      contentType: 'application/json',
      body: JSON.stringify({ label, requests: seen.length, installs, wrong, first: seen[0]?.at, last: seen.at(-1)?.at }),
    });
    expect(wrong).toBe(0);
  });
}
`;

interface Evidence {
  label: string;
  requests: number;
  installs: string[];
  wrong: number;
  first: number;
  last: number;
}

let sim: RunningSim;
let run: InlineRun;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  sim = await startSimServer({});
  run = await runInline({ 'isolation.spec.ts': SPEC }, { env: { NW_URL: sim.url, NW_TOKEN: sim.token }, workers: 2 });
});

test.afterAll(async () => {
  await sim?.close();
});

test("two instances route the same URL differently on one device: 1,000 app requests, none answered by the other's route", () => {
  const evidence = ['Alpha', 'Beta'].map((label) => {
    const r = run.result(`instance ${label}`);
    expect(r.status, plain(r.error)).toBe('passed');
    const a = r.attachments.find((x) => x.name === 'isolation')!;
    return JSON.parse(Buffer.from(a.body!, 'base64').toString()) as Evidence;
  });
  const [alpha, beta] = evidence as [Evidence, Evidence];
  // Each route answered its own instance's 500 requests, and every screen showed its own answers.
  expect(alpha.requests + beta.requests).toBe(2 * 2 * PAGES);
  for (const e of evidence) {
    expect(e.requests).toBe(2 * PAGES);
    expect(e.wrong).toBe(0);
    expect(e.installs).toHaveLength(1);
  }
  // Two instances, and no request of one reached the other's route.
  expect(alpha.installs[0]).not.toBe(beta.installs[0]);
  // At the same time on the one device: the two workers' request spans overlap.
  expect(Math.max(alpha.first, beta.first)).toBeLessThan(Math.min(alpha.last, beta.last));
});
