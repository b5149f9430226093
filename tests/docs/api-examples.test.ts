import { test, expect } from '@playwright/test';
import { relative } from 'node:path';
import {
  checkExamples,
  collectExamples,
  documentedApi,
  ROOT,
  type Example,
  type ExampleProblem,
} from '../../docs/gen/api-examples.js';
import { blocksOf, pageFiles } from '../../docs/gen/doc-pages.js';

/**
 * The code of the docs compiles against the package's types: the `@example` blocks of the API
 * reference (docs/api) and the TypeScript blocks of the pages (docs/, README.md, CONTRIBUTING.md;
 * their other checks are tests/docs/pages.test.ts). Both are checked in one TypeScript program:
 * building it over the package's sources is most of a check's cost (about 8 s of CPU), so the
 * file's tests run in one worker, in order, and share it.
 */
test.describe.configure({ mode: 'default' });

let checked: { api: Example[]; pages: Example[]; problems: ExampleProblem[] } | undefined;
function checkAll() {
  if (checked) return checked;
  const api = collectExamples();
  const pages = pageFiles()
    .flatMap(blocksOf)
    .filter((b) => b.lang === 'ts')
    .map((b) => ({ where: `${relative(ROOT, b.file)}:${b.line}`, owner: relative(ROOT, b.file), code: b.code }));
  return (checked = { api, pages, problems: checkExamples([...api, ...pages]) });
}
const problemsOf = (examples: Example[]) =>
  checkAll()
    .problems.filter((p) => examples.includes(p.example))
    .map((p) => p.message)
    .join('\n\n');

test('every @example of the public API type-checks against the package', () => {
  test.setTimeout(180_000);
  const { api } = checkAll();
  expect(api.length).toBeGreaterThan(60);
  expect(problemsOf(api), 'fix the example (or the API) at the place shown').toBe('');
});

test('every TypeScript block of the pages type-checks against the package', () => {
  test.setTimeout(180_000);
  const { pages } = checkAll();
  expect(pages.length).toBeGreaterThan(40);
  expect(problemsOf(pages), 'fix the block (or the API) at the place shown').toBe('');
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
