import { test, expect } from '@playwright/test';
import { NestwrightError } from '../../framework/core/errors.js';
import { checkOptions, nearest, optionTypos } from '../../framework/runner/option-check.js';

/**
 * The check behind OPTION_INVALID (framework/runner/option-check.ts), which the global setup runs on
 * each project's `use` and the fixtures on what test.use() gave them: the child runs are in
 * options.test.ts.
 */

test('a key nothing reads inside deviceOptions is refused, naming the nearest known key', () => {
  expect(optionTypos({ deviceOptions: { provider: 'sim', fault: 'hostile' } })).toEqual([
    {
      path: 'use.deviceOptions.fault',
      message: 'no such option; did you mean `faults`? The options here are provider, url, token, faults, seed, slots.',
    },
  ]);
  // Each provider's own keys: `serial` is adb's, not the sim's; nested objects of ours too.
  expect(optionTypos({ deviceOptions: { provider: 'adb', serail: 'emulator-5554' } })[0]?.message).toContain(
    'did you mean `serial`?',
  );
  expect(
    optionTypos({ deviceOptions: { provider: 'adb', runtime: { tokenpath: 'files/t' } } }).map((t) => t.path),
  ).toEqual(['use.deviceOptions.runtime.tokenpath']);
  expect(optionTypos({ deviceOptions: { provider: 'companion', dialect: 'publshed' } })[0]?.message).toBe(
    "'publshed' is not one of 'published', 'design'; did you mean 'published'?",
  );
});

test('a value outside an enum is refused with the allowed values and the nearest one', () => {
  expect(optionTypos({ colorScheme: 'drak' })).toEqual([
    { path: 'use.colorScheme', message: "'drak' is not one of 'light', 'dark', 'no-preference'; did you mean 'dark'?" },
  ]);
  expect(optionTypos({ deviceOptions: { provider: 'simm' } })[0]).toEqual({
    path: 'use.deviceOptions.provider',
    message: "'simm' is not one of 'sim', 'nestspace', 'appium', 'adb', 'emulator', 'companion'; did you mean 'sim'?",
  });
  expect(optionTypos({ trajectory: 'retain-on-fail' })[0]?.message).toContain("did you mean 'retain-on-failure'?");
  expect(optionTypos({ deviceActions: 'of' })[0]?.message).toContain("did you mean 'off'?");
  expect(optionTypos({ heal: 'sugest' })[0]?.message).toContain("did you mean 'suggest'?");
  expect(optionTypos({ heal: { mdoe: 'auto' } })[0]?.path).toBe('use.heal.mdoe');
  expect(optionTypos({ channel: 'accesibility' })[0]?.message).toContain("did you mean 'accessibility'?");
  expect(optionTypos({ skills: { ai: 'fallbak' } })[0]?.message).toContain("did you mean 'fallback'?");
  // Far from every value: the allowed values only, no guess.
  expect(optionTypos({ colorScheme: 'purple' })[0]?.message).toBe(
    "'purple' is not one of 'light', 'dark', 'no-preference'.",
  );
});

test("valid options, Playwright's own and a user's pass: only nestwright's own keys are checked", () => {
  expect(
    optionTypos({
      deviceOptions: { provider: 'appium', url: 'http://127.0.0.1:4723', capabilities: { 'appium:anything': 1 } },
      colorScheme: null,
      heal: { mode: 'auto', model: { choose: () => 0 } },
      ai: { model: 'gpt-4o' },
      trajectory: 'retain-on-failure',
      baseURL: 'http://127.0.0.1:3000',
      video: 'on',
      viewport: { width: 1, height: 2 },
      myFixtureOption: 'anything',
    }),
  ).toEqual([]);
  expect(optionTypos({ deviceOptions: { provider: 'emulator', avd: 'Pixel', snapshot: 'clean' } })).toEqual([]);
});

test('checkOptions throws OPTION_INVALID named after the first typo, listing the others', () => {
  const error = (() => {
    try {
      checkOptions({ deviceOptions: { provider: 'sim', fault: 'hostile' }, colorScheme: 'drak' });
    } catch (e) {
      return e;
    }
  })();
  expect(error).toBeInstanceOf(NestwrightError);
  expect((error as NestwrightError).code).toBe('OPTION_INVALID');
  expect((error as NestwrightError).message).toBe(
    'use.deviceOptions.fault: no such option; did you mean `faults`? The options here are provider, url, token, faults, seed, slots. (and use.colorScheme)',
  );
  expect(() => checkOptions({ deviceOptions: { provider: 'sim', faults: 'hostile' } })).not.toThrow();
});

test('nearest counts a swap once and case-insensitively, and guesses nothing far off', () => {
  expect(nearest('drak', ['light', 'dark'])).toBe('dark');
  expect(nearest('Faults', ['faults', 'seed'])).toBe('faults');
  expect(nearest('xyz', ['faults', 'seed'])).toBeUndefined();
});
