import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { attachmentText, plain, ROOT, runInline, type InlineRun } from '../framework/inline.js';
import { sharedBatch } from '../framework/shared-batch.js';

/**
 * Audits end to end: inline specs on the simulator, through the real runner and fixtures. The
 * Shop product screen's three documented findings (on both action paths), a clean screen,
 * `exclude`, `rules`, a subtree, the outlined screenshot, a baseline written then a new violation
 * failing while the old ones pass, and bad input. Three child runs in one directory serve them
 * all: `--update-snapshots` (the baseline written, the bad input), a plain run (the baseline
 * again, the findings with device actions on and off), and one with a new violation.
 */
test.describe.configure({ mode: 'default' });

const PRODUCT = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
async function product(app) {
  await app.intent({ data: 'nwshop://product/42' });
  await expect(app.getById('add_to_cart')).toBeVisible({ timeout: 10_000 });
}
`;

// The findings, on the device-side action path and on the one without it.
const SPECS = (actions: 'on' | 'off') => ({
  [`product-${actions}.spec.ts`]: `${PRODUCT}
test.describe('device actions ${actions}', () => {
  ${actions === 'off' ? "test.use({ deviceActions: 'off' });" : ''}
  test('three findings', async ({ app }) => {
    await product(app);
    const r = await app.accessibilityAudit({ minimumSeverity: 'warning', rules: { except: ['DuplicateSpeakableTextCheck'] } });
    console.log('FINDINGS ' + JSON.stringify(r.findings.map((f) => ({ rule: f.rule, severity: f.severity, selector: f.selector, measured: f.measured, message: f.message }))));
    await expect(r.findings[1].locator).toBeVisible();
    await expect(app).not.toPassAccessibilityAudit();
  });
  test('exclude and rules', async ({ app }) => {
    await product(app);
    const only = await app.accessibilityAudit({ rules: { only: ['TouchTargetSizeCheck'] } });
    expect(only.findings.map((f) => f.selector)).toEqual(['id=close_promo']);
    expect(only.rules).toEqual(['TouchTargetSizeCheck']);
    await expect(app).toPassAccessibilityAudit({ minimumSeverity: 'warning', rules: { except: ['DuplicateSpeakableTextCheck'] }, exclude: [app.getById('share'), app.getById('close_promo'), app.getById('product_rating')] });
    const sub = await app.getById('close_promo').accessibilityAudit();
    expect(sub.findings.map((f) => f.rule)).toEqual(['TouchTargetSizeCheck']);
    await expect(app.getById('close_promo')).not.toPassAccessibilityAudit();
  });
  // Fails as declared (test.fail): its error and screenshot are what is checked, and Playwright
  // keeps the worker, which it restarts after every unexpected failure.
  test.fail('fails with what to fix', async ({ app }) => {
    await product(app);
    await expect(app).toPassAccessibilityAudit({ minimumSeverity: 'error' });
  });
});
`,
  [`clean-${actions}.spec.ts`]: `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test.describe('device actions ${actions}', () => {
  ${actions === 'off' ? "test.use({ deviceActions: 'off' });" : ''}
  test('a clean screen', async ({ app }) => {
    await expect(app.getByText('New note')).toBeVisible();
    const r = await app.accessibilityAudit();
    expect(r.findings).toEqual([]);
    await expect(app).toPassAccessibilityAudit();
  });
});
`,
});

const BASELINE = `${PRODUCT}
test('product', async ({ app }) => {
  // The run with a new violation: failing, as declared (the worker stays, as for every test.fail below).
  test.fail(!!process.env.A11Y_NEW, 'a violation the baseline does not accept');
  await product(app);
  const exclude = process.env.A11Y_NEW ? [] : [app.getById('close_promo')];
  await expect(app).toPassAccessibilityAudit({ baseline: true, minimumSeverity: 'warning', exclude });
});
`;

const BAD = `${PRODUCT}
test.fail('unknown rule', async ({ app }) => {
  await product(app);
  const e = await app.accessibilityAudit({ rules: { only: ['TouchTargetCheck'] } }).catch((x) => x);
  expect(e.code).toBe('INVALID_ARGUMENT');
  throw e;
});
test.fail('broken baseline', async ({ app }) => {
  await product(app);
  await expect(app).toPassAccessibilityAudit({ baseline: true });
});
`;

// No baseline file yet and no flag: written and failing once, as a missing screenshot is; the next run passes.
const FIRST = `${PRODUCT}
test('first audit', async ({ app }) => {
  test.fail(!!process.env.A11Y_NO_BASELINE, 'no baseline yet: written, and the test fails once');
  await product(app);
  await expect(app).toPassAccessibilityAudit({ baseline: true, minimumSeverity: 'warning' });
});
`;

const BROKEN = '{ "findings": [ oops';

let update: InlineRun, plainRun: InlineRun, fresh: InlineRun;
// The baseline files as the runs left them.
let written: Array<{ rule: string; selector: string; reason: string }>;
let firstWritten: Array<{ rule: string; selector: string; reason: string }> | null;
let broken: { text: string; exists: boolean };

test.beforeAll(async () => {
  test.setTimeout(400_000);
  ({ update, plainRun, fresh, written, broken, firstWritten } = await sharedBatch('audit', async () => {
    const dir = path.join(ROOT, 'test-results', 'inline', `a11y-${randomUUID().slice(0, 8)}`);
    mkdirSync(path.join(dir, '__a11y__'), { recursive: true });
    const brokenFile = path.join(dir, '__a11y__', 'bad.spec.json');
    writeFileSync(brokenFile, BROKEN);
    const findings = { ...SPECS('on'), ...SPECS('off') };
    const files = { 'base.spec.ts': BASELINE, 'bad.spec.ts': BAD, 'first.spec.ts': FIRST, ...findings };
    const firstFile = path.join(dir, '__a11y__', 'first.spec.json');
    try {
      const update = await runInline(files, { dir, args: ['base.spec.ts', 'bad.spec.ts', '--update-snapshots'] });
      const written = JSON.parse(readFileSync(path.join(dir, '__a11y__', 'base.spec.json'), 'utf8')).findings;
      const broken = { text: readFileSync(brokenFile, 'utf8'), exists: existsSync(brokenFile) };
      const plainRun = await runInline(files, {
        dir,
        args: ['base.spec.ts', 'first.spec.ts', ...Object.keys(findings)],
        env: { A11Y_NO_BASELINE: '1' },
      });
      const firstWritten = existsSync(firstFile) ? JSON.parse(readFileSync(firstFile, 'utf8')).findings : null;
      const fresh = await runInline(files, { dir, args: ['base.spec.ts', 'first.spec.ts'], env: { A11Y_NEW: '1' } });
      return { update, plainRun, fresh, written, broken, firstWritten };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }));
});

for (const actions of ['on', 'off'] as const) {
  test(`the Shop product screen's three findings, and a clean screen (device actions ${actions})`, () => {
    const title = (t: string) => `device actions ${actions} > ${t}`;
    const three = plainRun.result(title('three findings'));
    expect(three.status, three.error).toBe('passed');
    const findings = JSON.parse(/FINDINGS (.*)/.exec(three.stdout)![1]!);
    expect(
      findings.map(
        (f: { rule: string; selector: string; severity: string }) => `${f.severity} ${f.rule} ${f.selector}`,
      ),
    ).toEqual([
      'error SpeakableTextPresentCheck id=share',
      'error TouchTargetSizeCheck id=close_promo',
      'warning TextContrastCheck text="Rated 4.5 of 5"',
    ]);
    expect(findings[1].measured).toEqual({ kind: 'size', widthDp: 32, heightDp: 32, requiredDp: 48 });
    expect(findings[2].measured).toMatchObject({
      kind: 'contrast',
      required: 3,
      background: '#ffffff',
      foreground: '#c4c7c5',
    });
    expect(findings[2].measured.ratio).toBeLessThan(3);
    const rules = plainRun.result(title('exclude and rules'));
    expect(rules.status, rules.error).toBe('passed');
    const clean = plainRun.result(title('a clean screen'));
    expect(clean.status, clean.error).toBe('passed');
    const failed = plainRun.result(title('fails with what to fix'));
    expect(failed.status).toBe('failed');
    const msg = plain(failed.error);
    expect(msg).toContain('expect(app).toPassAccessibilityAudit() failed');
    expect(msg).toContain('2 new findings');
    expect(msg).toMatch(
      /error\s+TouchTargetSizeCheck id=close_promo \[32×32 dp, needs 48×48\]: this touch target is 32×32 dp; make it at least 48×48 dp/,
    );
    expect(msg).toContain('SpeakableTextPresentCheck id=share');
    // The findings framed on the screenshot, in the step and the report.
    const shot = failed.attachments.find((a) => /^step-\d+-accessibility\.png$/.test(a.name));
    expect(shot?.contentType).toBe('image/png');
    const trajectory = attachmentText(failed.attachments.find((a) => a.name === 'nestwright-trajectory') ?? {});
    expect(trajectory).toContain('Accessibility audit');
    expect(trajectory).toContain(shot!.name);
  });
}

test('a baseline: written with --update-snapshots, then only a new violation fails', () => {
  const first = update.result('product');
  expect(first.status, first.error).toBe('passed');
  expect(written.map((e) => `${e.rule} ${e.selector}`).sort()).toEqual([
    'DuplicateSpeakableTextCheck id=add_to_cart',
    'SpeakableTextPresentCheck id=share',
    'TextContrastCheck text="Rated 4.5 of 5"',
  ]);
  const again = plainRun.result('product');
  expect(again.status, again.error).toBe('passed');
  const r = fresh.result('product');
  expect(r.status).toBe('failed');
  const msg = plain(r.error);
  expect(msg).toContain('1 new finding (3 more accepted by the baseline)');
  expect(msg).toContain('TouchTargetSizeCheck id=close_promo');
  expect(msg).not.toContain('SpeakableTextPresentCheck id=share');
  expect(msg).toContain('--update-snapshots');
});

test('a missing baseline, without --update-snapshots: written with the findings, the test fails once, the next run passes (as toHaveScreenshot)', () => {
  const first = plainRun.result('first audit');
  expect(first.status).toBe('failed');
  const msg = plain(first.error);
  expect(msg).toContain('4 new findings');
  expect(msg).toMatch(/The baseline .*first\.spec\.json did not list this screen; it was written with these findings/);
  expect(firstWritten?.map((e) => `${e.rule} ${e.selector}`).sort()).toEqual([
    'DuplicateSpeakableTextCheck id=add_to_cart',
    'SpeakableTextPresentCheck id=share',
    'TextContrastCheck text="Rated 4.5 of 5"',
    'TouchTargetSizeCheck id=close_promo',
  ]);
  const again = fresh.result('first audit');
  expect(again.status, again.error).toBe('passed');
});

test('bad input: an unknown rule name, a baseline that is not JSON (left as it is, even with --update-snapshots)', () => {
  expect(plain(update.result('unknown rule').error)).toContain(
    'app.accessibilityAudit: options.rules.only: unknown rule "TouchTargetCheck" (did you mean TouchTargetSizeCheck?); the rules are SpeakableTextPresentCheck, TouchTargetSizeCheck',
  );
  const b = update.result('broken baseline');
  expect(b.status).toBe('failed');
  expect(plain(b.error)).toMatch(
    /expect\.toPassAccessibilityAudit: the accessibility baseline .*bad\.spec\.json is not JSON .*it was left as it is/,
  );
  expect(broken.text).toBe(BROKEN);
  expect(broken.exists).toBe(true);
});
