/**
 * The suite a crawl writes: for each screen of the app, a spec that reaches it by its shortest
 * path with the locators the crawl used (the framework's best for each node) and asserts what
 * identifies the screen; for each crash, a spec of its path marked as the known bug
 * (`test.fail`: it passes while the app still crashes there). Secrets are written as the
 * environment variable they come from (`secret(process.env.X ?? '')`), never as values.
 */
import type { Action, Crash, CrawlPath, CrawlResult, CrawlScreen, InputValue } from './model.js';

const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const value = (v: InputValue) => (typeof v === 'string' ? q(v) : `secret(process.env.${v.secret} ?? '')`);

function actionLines(a: Action): string[] {
  switch (a.kind) {
    case 'back':
      return [`await app.press('back');`];
    case 'tap':
      return [`await ${a.code}.tap();`];
    case 'longPress':
      return [`await ${a.code}.longPress();`];
    case 'swipe':
      return [`await ${a.code}.swipe('up');`];
    case 'fill':
      return [`await ${a.code}.fill(${value(a.value)});`, `await app.hideKeyboard();`];
    case 'submit':
      return [
        ...a.fields.flatMap((f) => [`await ${f.code}.fill(${value(f.value)});`, `await app.hideKeyboard();`]),
        ...a.checks.map((c) => `await ${c.code}.tap();`),
        `await ${a.code}.tap();`,
      ];
  }
}

function pathLines(p: CrawlPath): string[] {
  const lines: string[] = [];
  if (p.entry.kind === 'launch' && p.entry.activity)
    lines.push(`await app.launch({ activity: ${q(p.entry.activity)} });`);
  if (p.entry.kind === 'deepLink') lines.push(`await app.intent({ data: ${q(p.entry.uri)} });`);
  for (const a of p.actions) lines.push(...actionLines(a));
  return lines;
}

function screenTest(s: CrawlScreen, pkg: string): string {
  const body = pathLines(s.path);
  if (s.kind === 'screen' || s.kind === 'dialog') {
    if (s.activity && s.package === pkg) body.push(`await expect(app).toHaveActivity(${q(s.activity)});`);
    for (const i of s.identify) body.push(`await expect(${i.code}).${i.hidden ? 'toBeHidden' : 'toBeVisible'}();`);
  } else if (s.kind === 'permission') {
    for (const i of s.identify) if (!i.hidden) body.push(`await expect(${i.code}).toBeVisible();`);
  }
  return `  test(${q(`${s.id} ${s.title}`)}, async ({ app }) => {\n${body.map((l) => `    ${l}`).join('\n')}\n  });`;
}

function crashTest(c: Crash, from: CrawlScreen | undefined): string {
  const body = pathLines(c.path);
  const head = c.reason.split('\n')[0]!;
  return [
    `  // Known bug found by the crawl: ${head}`,
    `  test(${q(`${c.id.replace(':', ' ')}: ${head.slice(0, 80)}`)}, async ({ app }) => {`,
    `    test.fail(true, ${q(`crashes: ${head.slice(0, 120)}`)});`,
    ...body.map((l) => `    ${l}`),
    // Still there after the action: fails with the crash while the bug is in.
    ...(from?.activity ? [`    await expect(app).toHaveActivity(${q(from.activity)});`] : [`    await app.observe();`]),
    `  });`,
  ].join('\n');
}

/** The spec file of a crawl: `apk` as the spec sees it (relative to the suite's folder, or a package). */
export function writeSuite(result: CrawlResult, apk: string): string {
  const pkg = result.app.package;
  const screens = result.screens.filter((s) => s.kind !== 'other-app' && (s.identify.length > 0 || s.activity));
  const usesSecret = JSON.stringify(result.screens.map((s) => s.path)).includes('"secret"');
  return [
    `// Written by \`nestwright crawl\` from ${result.screens.length} screens of ${pkg}: one test per screen, reached by its shortest path.`,
    `import { test, expect${usesSecret ? ', secret' : ''} } from 'nestwright';`,
    '',
    `test.use({ apk: ${q(apk)} });`,
    '',
    `test.describe('screens', () => {`,
    screens.map((s) => screenTest(s, pkg)).join('\n\n'),
    `});`,
    ...(result.crashes.length
      ? [
          '',
          `test.describe('crashes', () => {`,
          result.crashes
            .map((c) =>
              crashTest(
                c,
                result.screens.find((s) => s.id === c.screen),
              ),
            )
            .join('\n\n'),
          `});`,
        ]
      : []),
    '',
  ].join('\n');
}
