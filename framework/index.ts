/**
 * nestwright: Playwright-style tests for Android apps in NestSpace virtual spaces.
 *
 *   import { test, expect } from 'nestwright';
 *   test.use({ apk: 'fixtures/apks/notes.apk' });
 *   test('creates a note', async ({ app }) => {
 *     await app.getByText('New note').tap();
 *     await app.getById('title').fill('Milk');
 *     await app.getByRole('button', { name: 'Save' }).tap();
 *     await expect(app.getByText('Milk')).toBeVisible();
 *   });
 *
 * @module nestwright
 */
export * from './entry.js';
// The classes, for the declarations and the docs; at run time the package's JavaScript is
// entry.ts's (ci/bundle.mjs), which binds them when it loads the rest.
export { App } from './core/app.js';
export { Locator } from './core/locator.js';
export { Space } from './core/space.js';
