/**
 * Type-level checks of test.use() and test.extend(), compiled by `npm run typecheck` (never run):
 * the old option keys are type errors, the new ones are typed, through a user's extend too. Each
 * `@ts-expect-error` fails the typecheck if its line ever compiles.
 */
import { devices, test } from 'nestwright';

// @ts-expect-error `app` is the fixture (an App), not the option: the option is `apk`.
test.use({ app: 'fixtures/apks/notes.apk' });
// @ts-expect-error `device` is the fixture (the connected device), not its options: the option is `deviceOptions`.
test.use({ device: { provider: 'sim' } });
// @ts-expect-error 'every-step' is not one of Playwright's screenshot modes: it is 'on'.
test.use({ screenshot: 'every-step' });
test.use({
  apk: 'fixtures/apks/notes.apk',
  deviceOptions: devices.sim({ slots: 2 }),
  screenshot: 'on',
  trajectory: 'off',
  heal: 'auto',
});

// A user's extend keeps every option, typed, and the fixtures' types.
const extended = test.extend<{ pkg: string }, { provider: string }>({
  pkg: async ({ app, apk }, use) => use(apk ?? app.package),
  provider: [
    async ({ deviceOptions, device }, use) => use(deviceOptions.provider ?? device.provider),
    { scope: 'worker' },
  ],
});
extended.use({
  apk: 'com.android.settings',
  deviceActions: 'off',
  deviceOptions: { provider: 'sim', faults: 'hostile' },
});
// @ts-expect-error the old key is a type error through the extend too.
extended.use({ app: 'com.android.settings' });

// Merged with Playwright's browser fixtures: both sets of fixtures and options, typed.
import { mergeTests, test as browserTest } from '@playwright/test';
const merged = mergeTests(test, browserTest);
merged.use({ apk: 'fixtures/apks/notes.apk', actionTimeout: 2_000, extraHTTPHeaders: { 'x-suite': 'merged' } });
merged('typed', async ({ app, request, space }) => {
  void [app.package, request.get, space.id];
});
// nestwright's own test has no browser fixtures.
// @ts-expect-error `page` comes with Playwright's test: merge it in.
test('no page', async ({ page }) => void page);
