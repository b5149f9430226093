import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { attachmentText, plain, ROOT, runInline } from '../framework/inline.js';

/**
 * Audits end to end: inline specs on the simulator, through the real runner and fixtures. The
 * Shop product screen's three documented findings (on both action paths), a clean screen,
 * `exclude`, `rules`, a subtree, the outlined screenshot, a baseline written then a new violation
 * failing while the old ones pass, and bad input.
 */
test.describe.configure({ mode: 'default' });

const PRODUCT = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/shop.apk' });
async function product(app) {
  await app.intent({ data: 'nwshop://product/42' });
  await expect(app.getById('add_to_cart')).toBeVisible({ timeout: 10_000 });
}
`;

const SPECS = {
  'product.spec.ts': `${PRODUCT}
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
test('fails with what to fix', async ({ app }) => {
  await product(app);
  await expect(app).toPassAccessibilityAudit({ minimumSeverity: 'error' });
});
`,
  'clean.spec.ts': `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
test('a clean screen', async ({ app }) => {
  await expect(app.getByText('New note')).toBeVisible();
  const r = await app.accessibilityAudit();
  expect(r.findings).toEqual([]);
  await expect(app).toPassAccessibilityAudit();
});
`,
};

for (const actions of ['on', 'off'] as const) {
  test(`the Shop product screen's three findings, and a clean screen (device actions ${actions})`, async () => {
    test.setTimeout(180_000);
    const run = await runInline(SPECS, { env: actions === 'off' ? { NESTWRIGHT_DEVICE_ACTIONS: 'off' } : {} });
    const three = run.result('three findings');
    expect(three.status, three.error).toBe('passed');
    const out = run.raw as { suites: unknown[] };
    const line = JSON.stringify(out).match(/FINDINGS (\[.*?\])\\n/);
    const findings = JSON.parse(JSON.parse(`"${line![1]}"`));
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
    expect(run.result('exclude and rules').status, run.result('exclude and rules').error).toBe('passed');
    expect(run.result('a clean screen').status, run.result('a clean screen').error).toBe('passed');
    const failed = run.result('fails with what to fix');
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

test('a baseline: written with --update-snapshots, then only a new violation fails', async () => {
  test.setTimeout(240_000);
  const dir = path.join(ROOT, 'test-results', 'inline', `a11y-${randomUUID().slice(0, 8)}`);
  const spec = `${PRODUCT}
test('product', async ({ app }) => {
  await product(app);
  const exclude = process.env.A11Y_NEW ? [] : [app.getById('close_promo')];
  await expect(app).toPassAccessibilityAudit({ baseline: true, minimumSeverity: 'warning', exclude });
});
`;
  try {
    const first = await runInline({ 'base.spec.ts': spec }, { dir, args: ['--update-snapshots'] });
    expect(first.result('product').status, first.result('product').error).toBe('passed');
    const file = path.join(dir, '__a11y__', 'base.spec.json');
    const written = JSON.parse(readFileSync(file, 'utf8')).findings as Array<{
      rule: string;
      selector: string;
      reason: string;
    }>;
    expect(written.map((e) => `${e.rule} ${e.selector}`).sort()).toEqual([
      'DuplicateSpeakableTextCheck id=add_to_cart',
      'SpeakableTextPresentCheck id=share',
      'TextContrastCheck text="Rated 4.5 of 5"',
    ]);
    const again = await runInline({}, { dir });
    expect(again.result('product').status, again.result('product').error).toBe('passed');
    const fresh = await runInline({}, { dir, env: { A11Y_NEW: '1' } });
    const r = fresh.result('product');
    expect(r.status).toBe('failed');
    const msg = plain(r.error);
    expect(msg).toContain('1 new finding (3 more accepted by the baseline)');
    expect(msg).toContain('TouchTargetSizeCheck id=close_promo');
    expect(msg).not.toContain('SpeakableTextPresentCheck id=share');
    expect(msg).toContain('--update-snapshots');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('bad input: an unknown rule name, a baseline that is not JSON (left as it is, even with --update-snapshots)', async () => {
  test.setTimeout(180_000);
  const dir = path.join(ROOT, 'test-results', 'inline', `a11y-${randomUUID().slice(0, 8)}`);
  mkdirSync(path.join(dir, '__a11y__'), { recursive: true });
  const broken = path.join(dir, '__a11y__', 'bad.spec.json');
  writeFileSync(broken, '{ "findings": [ oops');
  try {
    const run = await runInline(
      {
        'bad.spec.ts': `${PRODUCT}
test('unknown rule', async ({ app }) => {
  await product(app);
  const e = await app.accessibilityAudit({ rules: { only: ['TouchTargetCheck'] } }).catch((x) => x);
  expect(e.code).toBe('INVALID_ARGUMENT');
  throw e;
});
test('broken baseline', async ({ app }) => {
  await product(app);
  await expect(app).toPassAccessibilityAudit({ baseline: true });
});
`,
      },
      { dir, args: ['--update-snapshots'] },
    );
    expect(plain(run.result('unknown rule').error)).toContain(
      'app.accessibilityAudit: options.rules.only: unknown rule "TouchTargetCheck" (did you mean TouchTargetSizeCheck?); the rules are SpeakableTextPresentCheck, TouchTargetSizeCheck',
    );
    const b = run.result('broken baseline');
    expect(b.status).toBe('failed');
    expect(plain(b.error)).toMatch(
      /expect\.toPassAccessibilityAudit: the accessibility baseline .*bad\.spec\.json is not JSON .*it was left as it is/,
    );
    expect(readFileSync(broken, 'utf8')).toBe('{ "findings": [ oops');
    expect(existsSync(broken)).toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
