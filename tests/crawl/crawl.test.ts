import { test, expect } from '@playwright/test';
import ts from 'typescript';
import type { RunCrawlResult } from '../../cli/crawl/run.js';
import { describeAction, type CrawlResult } from '../../cli/crawl/model.js';
import { writeSuite } from '../../cli/crawl/suite.js';
import { matchesTruth, SAMPLE_SCREENS } from '../../device-runtime/sim/apps/screens.js';
import { crawlOnSim } from './helpers.js';

const PASSWORD_ENV = 'CRAWL_TEST_SHOP_PASSWORD';
const PASSWORD = 'typed-only-Zq81';

const screenOf = (r: CrawlResult, activity: string) => r.screens.find((s) => s.activity === activity);
const actionsText = (r: CrawlResult) => r.transitions.map((t) => JSON.stringify(t.action)).join('\n');

test.describe('the Shop, behind its sign-in wall', () => {
  let shop: RunCrawlResult;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    process.env[PASSWORD_ENV] = PASSWORD;
    shop = await crawlOnSim('fixtures/apks/shop.apk', {
      config: { inputs: { email: 'ana@example.com', password: { secret: PASSWORD_ENV } } },
    });
  });
  test.afterAll(() => {
    delete process.env[PASSWORD_ENV];
  });

  test('finds the empty-coupon crash, with the path that reproduces it and the instance log', () => {
    const crash = shop.result.crashes.find((c) => c.reason.includes('StringIndexOutOfBoundsException'));
    expect(crash, JSON.stringify(shop.result.notes)).toBeDefined();
    expect(crash!.reproduced).toBe(true);
    expect(crash!.path.actions.at(-1)).toMatchObject({ kind: 'tap', selector: 'id=apply_coupon' });
    expect(crash!.log.join('\n')).toContain('applyCoupon("")');
    expect(shop.result.transitions.some((t) => t.to === crash!.id)).toBe(true);
  });

  test('passes the sign-in wall with the configured inputs, the password by reference only', () => {
    const catalog = screenOf(shop.result, '.CatalogActivity');
    expect(catalog, 'the catalog is only behind the sign-in').toBeDefined();
    const submit = catalog!.path.actions.find((a) => a.kind === 'submit');
    expect(submit).toMatchObject({
      kind: 'submit',
      selector: 'id=login',
      fields: expect.arrayContaining([
        expect.objectContaining({ selector: 'id=email', value: 'ana@example.com' }),
        expect.objectContaining({ selector: 'id=password', value: { secret: PASSWORD_ENV } }),
      ]),
    });
    const suite = writeSuite(shop.result, 'fixtures/apks/shop.apk');
    expect(suite).toContain(`secret(process.env.${PASSWORD_ENV} ?? '')`);
    for (const text of [JSON.stringify(shop.result), suite]) expect(text).not.toContain(PASSWORD);
  });

  test('reaches every activity and the screens of the ground truth', () => {
    expect(shop.result.activitiesReached).toEqual(
      expect.arrayContaining(['.LoginActivity', '.CatalogActivity', '.CartActivity', '.CheckoutActivity']),
    );
    const truth = SAMPLE_SCREENS['com.nestwright.shop']!;
    const found = truth.filter((t) => shop.result.screens.some((s) => matchesTruth(t, s)));
    // The permission prompt and the order dialog count too: dialogs are screens of their own.
    expect(found.map((t) => t.name)).toEqual(expect.arrayContaining(['Location permission prompt', 'Place order?']));
    expect(found.length).toBeGreaterThanOrEqual(Math.ceil(truth.length * 0.9));
  });

  test('writes a suite that compiles: a spec per screen, the crash as a known bug', () => {
    const suite = writeSuite(shop.result, 'fixtures/apks/shop.apk');
    const out = ts.transpileModule(suite, {
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.ESNext },
    });
    expect(out.diagnostics ?? []).toEqual([]);
    expect(suite.match(/^ {2}test\(/gm)!.length).toBeGreaterThanOrEqual(shop.result.screens.length - 2);
    expect(suite).toMatch(/test\.fail\(true, 'crashes: java\.lang\.StringIndexOutOfBoundsException/);
    expect(suite).toContain(`await app.getById('apply_coupon').tap();`);
  });
});

test('reaches the v2 cart, which only the overflow menu (a dialog) leads to', async () => {
  test.setTimeout(240_000);
  const { result } = await crawlOnSim('fixtures/apks/shop-v2.apk', { minutes: 1 });
  const cart = screenOf(result, '.CartActivity');
  expect(cart, JSON.stringify(result.screens.map((s) => s.title))).toBeDefined();
  // Every way into the cart from another activity, but coming back from the checkout (back, up, Continue
  // shopping), is from the menu.
  const from = result.transitions
    .filter((t) => t.to === cart!.id)
    .map((t) => result.screens.find((s) => s.id === t.from)!)
    .filter((s) => s.activity !== '.CheckoutActivity' && s.activity !== '.CartActivity');
  expect(from.length).toBeGreaterThan(0);
  expect(from.map((s) => `${s.title}: ${s.kind}`)).toEqual(from.map((s) => `${s.title}: dialog`));
  // Its shortest path: open the menu, tap its one item.
  expect(cart!.path.actions.slice(-2).map(describeAction)).toEqual(['tap id=overflow', 'tap id=title']);
});

test('leaves alone what the config says not to touch', async () => {
  test.setTimeout(120_000);
  const untouched = await crawlOnSim('fixtures/apks/notes.apk', { config: { avoid: ['text=Delete all notes'] } });
  expect(untouched.result.settings.avoided).toEqual(['text=Delete all notes']);
  expect(untouched.result.stopped).toBe('exhausted');
  expect(actionsText(untouched.result)).not.toContain('Delete all notes');
  // The same crawl without it does tap it: the control was there to be touched.
  const touched = await crawlOnSim('fixtures/apks/notes.apk');
  expect(actionsText(touched.result)).toContain('Delete all notes');
});

test('on a runtime without fresh instances it says so and clears the data between branches', async () => {
  test.setTimeout(120_000);
  const log: string[] = [];
  const { result } = await crawlOnSim('fixtures/apks/notes.apk', {
    instances: 4,
    sim: { withoutExtensions: ['instance'] },
    log,
  });
  expect(result.settings).toMatchObject({ mode: 'clear-data', instances: 1 });
  expect(log[0]).toContain("cannot start a fresh instance per branch (no 'instance' extension)");
  const truth = SAMPLE_SCREENS['com.nestwright.notes']!.filter((t) => t.activity !== '.SettingsActivity');
  const found = truth.filter((t) => result.screens.some((s) => matchesTruth(t, s)));
  expect(found.map((t) => t.name)).toEqual(truth.map((t) => t.name));
});
