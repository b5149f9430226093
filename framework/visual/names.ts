import type { TestInfo } from '@playwright/test';
import { NestwrightError, type ApiName } from '../core/errors.js';

/** How many times each name (and the unnamed counter) was used in a test: Playwright's numbering. */
const used = new WeakMap<TestInfo, { anonymous: number; named: Map<string, number> }>();

/**
 * The baseline path and the attachment base name of one `toHaveScreenshot` call, as Playwright
 * names them: the name given (`.png` added when it has none), or `<test title> <n>.png` for the
 * n-th unnamed call of the test; the path from `testInfo.snapshotPath(…, { kind: 'screenshot' })`,
 * which applies the config's `expect.toHaveScreenshot.pathTemplate` or `snapshotPathTemplate`
 * (default `<spec>-snapshots/<name>-<project>-<suffix>.png`, the suffix being the device's
 * platform part). A second call with the same name compares with the same baseline; its
 * attachments get `-1`, `-2`, … as Playwright's do.
 */
export function snapshotNames(
  api: ApiName,
  testInfo: TestInfo,
  name: string | string[] | undefined,
): { name: string; path: string; base: string } {
  let counts = used.get(testInfo);
  if (!counts) used.set(testInfo, (counts = { anonymous: 0, named: new Map() }));
  let parts: string[];
  if (name === undefined || name === '' || (Array.isArray(name) && name.length === 0)) {
    parts = [`${testInfo.titlePath.slice(1).join(' ')} ${++counts.anonymous}.png`];
  } else {
    parts = (Array.isArray(name) ? name : [name]).map(String);
    const lastPart = parts[parts.length - 1]!;
    const ext = /\.[^./\\]+$/.exec(lastPart)?.[0];
    if (ext && ext.toLowerCase() !== '.png') {
      throw new NestwrightError(
        api,
        `snapshot name ${JSON.stringify(lastPart)} must end in .png (device screenshots are PNG)`,
        { code: 'INVALID_ARGUMENT' },
      );
    }
    if (!ext) parts[parts.length - 1] = `${lastPart}.png`;
  }
  const joined = parts.join('/');
  // The typed overloads take one name with options; several parts (Playwright's array names) go the way its runtime takes them.
  const path = (testInfo.snapshotPath as (...args: unknown[]) => string).call(testInfo, ...parts, {
    kind: 'screenshot',
  });
  const n = (counts.named.get(joined) ?? 0) + 1;
  counts.named.set(joined, n);
  // Playwright's sanitizeForFilePath, on the part before the extension.
  const flat = `${joined.slice(0, -4).replace(/[\x00-\x2C\x2E-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+/g, '-')}.png`;
  const base = n > 1 ? flat.replace(/\.png$/, `-${n - 1}.png`) : flat;
  return { name: joined, path, base };
}

/** `settings.png` + `-actual` → `settings-actual.png`. */
export function withSuffix(file: string, suffix: string): string {
  return file.replace(/(\.png)?$/, `${suffix}.png`);
}
