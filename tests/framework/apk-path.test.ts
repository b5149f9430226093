import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { resolveApkPath } from '../../framework/core/space.js';

/**
 * Which file a relative `use.apk` names: the one beside the config file, as Playwright resolves
 * every path of its config; one found only from the current directory still is (a run of the
 * whole thing from another folder is tests/cli/init-run.test.ts).
 */
test('a relative APK path is the config folder’s file first, then the current directory’s; an absolute one is kept', () => {
  const project = mkdtempSync(path.join(tmpdir(), 'nw-apk-path-'));
  mkdirSync(path.join(project, 'fixtures/apks'), { recursive: true });
  writeFileSync(path.join(project, 'fixtures/apks/mine.apk'), 'PK');
  // The config's folder wins, wherever the run starts.
  expect(resolveApkPath('fixtures/apks/mine.apk', project)).toBe(path.join(project, 'fixtures/apks/mine.apk'));
  // Only from the current directory: found there.
  const elsewhere = mkdtempSync(path.join(tmpdir(), 'nw-apk-cwd-'));
  writeFileSync(path.join(elsewhere, 'only-here.apk'), 'PK');
  const fromCwd = path.relative(process.cwd(), path.join(elsewhere, 'only-here.apk'));
  expect(resolveApkPath(fromCwd, project)).toBe(path.join(elsewhere, 'only-here.apk'));
  // Nowhere: the config folder's path, which the install's error then names.
  expect(resolveApkPath('apks/none.apk', project)).toBe(path.join(project, 'apks/none.apk'));
  expect(resolveApkPath('/abs/app.apk', project)).toBe('/abs/app.apk');
  // No config file (a script, the CLI): the current directory.
  expect(resolveApkPath('apks/none.apk', undefined)).toBe(path.resolve('apks/none.apk'));
});
