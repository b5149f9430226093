import { test, expect } from '@playwright/test';
import { checkExamples, collectExamples, documentedApi } from '../../docs/gen/api-examples.js';

/** The `@example` blocks of the API reference (docs/api) are code: they must compile against the package's types. */
test('every @example of the public API type-checks against the package', () => {
  test.setTimeout(180_000);
  const examples = collectExamples();
  expect(examples.length).toBeGreaterThan(60);
  const problems = checkExamples(examples);
  expect(problems.map((p) => p.message).join('\n\n'), 'fix the example (or the API) at the place shown').toBe('');
});

test('each public method of App, Locator, Space, the device fixture, the matchers and the error classes has an @example', () => {
  const api = documentedApi();
  for (const name of [
    'App.intent',
    'App.launch',
    'App.hideKeyboard',
    'Locator.tap',
    'Locator.fill',
    'LocatorFactory.getByRole',
    'Space.install',
    'Space.launch',
    'DeviceApi.newSpace',
    'NestwrightMatchers.toHaveActivity',
    'NestwrightMatchers.toHaveText',
    'NestwrightMatchers.toHaveCrashed',
    'NestwrightMatchers.toPassSkill',
    'AppCrashedError',
  ]) {
    expect(
      api.map((m) => m.name),
      `${name} is one of the documented API's members`,
    ).toContain(name);
  }
  expect(
    api.filter((m) => !m.hasExample).map((m) => m.name),
    'these have no @example in their doc comment',
  ).toEqual([]);
});

test('the examples the issue asked for are there', () => {
  const all = collectExamples();
  const code = (owner: string) =>
    all
      .filter((e) => e.owner === owner)
      .map((e) => e.code)
      .join('\n');
  expect(code('App.intent')).toContain("app.intent({ data: 'nwshop://product/42' })");
  expect(code('App.launch')).toContain("app.launch({ activity: '.CartActivity' })");
  expect(code('NestwrightMatchers.toHaveActivity')).toContain("toHaveActivity('.ProductActivity')");
  expect(code('DeviceApi.newSpace')).toContain('device.newSpace()');
  expect(code('Space.install')).toContain("space.install('fixtures/apks/chat.apk')");
  for (const type of ['App', 'Locator', 'Space', 'Device'])
    expect(code(type), `a helper typed with ${type}`).toContain(`type ${type} } from 'nestwright'`);
});
