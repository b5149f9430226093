import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { ROOT } from '../../docs/gen/api-examples.js';
import { CONFIG_DOC, renderConfigDoc } from '../../docs/gen/config-doc.js';
import { blocksOf, DOCS, linkProblem, linksOf, pageFiles } from '../../docs/gen/doc-pages.js';
import { commandsOf, shellProblems } from '../../docs/gen/shell-check.js';
import { sidebar } from '../../docs/.vitepress/sidebar.js';

/**
 * The pages of docs/ (and README.md, CONTRIBUTING.md) are checked as code: their TypeScript
 * compiles against the package (tests/docs/api-examples.test.ts, in one program with the API
 * reference's examples), their shell commands exist, their links and anchors resolve, and
 * every page is in the site's navigation. A new page is one file plus one line of
 * docs/.vitepress/sidebar.ts; these checks pick it up by itself.
 */

const pages = pageFiles();
const blocks = pages.flatMap(blocksOf);

/** Fence languages a page may use: code that is checked, data, and `text` for output. */
// js: a spec for another tool's runner (WebdriverIO's globals), not this package's API.
const LANGS = { checked: ['ts', 'sh'], data: ['yaml', 'json', 'jsonc', 'text', 'js'] };

test('every fenced block names a language the checks know (ts and sh are checked; text is output)', () => {
  const unknown = blocks
    .filter((b) => ![...LANGS.checked, ...LANGS.data].includes(b.lang))
    .map((b) => `${relative(ROOT, b.file)}:${b.line - 1}: \`\`\`${b.lang || '(none)'}`);
  expect(unknown, 'use ts, sh, yaml, json, jsonc, or text for output and messages').toEqual([]);
});

test('every shell block names commands, flags, scripts and files that exist', async () => {
  test.setTimeout(300_000);
  const commands = blocks.filter((b) => b.lang === 'sh').flatMap(commandsOf);
  expect(commands.length).toBeGreaterThan(40);
  expect(commands.filter((c) => c.words.includes('nestwright')).length).toBeGreaterThan(20);
  expect(await shellProblems(commands)).toEqual([]);
});

test('the shell check finds what does not exist', async () => {
  const block = {
    file: join(DOCS, 'intro.md'),
    line: 1,
    lang: 'sh',
    code: 'npx nestwright teleport\nnpx nestwright report --colour\nnpm run no-such-script\nNESTWRIGHT_NOPE=1 npx playwright test --shards=2\nbash ci/none.sh\nfrobnicate --now',
  };
  const problems = await shellProblems(commandsOf(block));
  expect(problems).toHaveLength(7);
  expect(problems.join('\n')).toContain('nestwright has no command "teleport"');
  expect(problems.join('\n')).toContain('`nestwright report --help` lists no --colour');
  expect(problems.join('\n')).toContain('no script "no-such-script"');
  expect(problems.join('\n')).toContain('NESTWRIGHT_NOPE is read nowhere');
  expect(problems.join('\n')).toContain('`playwright test --help` lists no --shards');
  expect(problems.join('\n')).toContain('"frobnicate" is neither');
});

test('every relative link and anchor of the pages resolves, on GitHub and on the site (which makes the anchors GitHub makes)', () => {
  const links = pages.flatMap(linksOf);
  expect(links.length).toBeGreaterThan(60);
  expect(links.map(linkProblem).filter(Boolean)).toEqual([]);
});

test('the link check finds a missing page, a missing anchor and a link out of docs/', () => {
  const at = (target: string) => linkProblem({ file: join(DOCS, 'intro.md'), line: 1, target });
  expect(at('locators.md#strict-mode')).toBeNull();
  expect(at('no-such-page.md')).toContain('no such file');
  expect(at('locators.md#no-such-heading')).toContain('no heading');
  expect(at('../ci/README.md')).toContain('links outside docs/');
  expect(at('configuration.md#the-fields-of-ai')).toBeNull();
});

test('every page of docs/ is in the site sidebar, once, and every sidebar line names a page', () => {
  const onDisk = readdirSync(DOCS)
    .filter((f) => f.endsWith('.md') && f !== 'index.md')
    .map((f) => `/${basename(f, '.md')}`);
  const links = sidebar.map((s) => s.link);
  expect(new Set(links).size, 'a page is listed twice').toBe(links.length);
  expect(
    onDisk.filter((p) => !links.includes(p)),
    'add these pages to docs/.vitepress/sidebar.ts',
  ).toEqual([]);
  const missing = links.filter((l) => !pages.includes(join(DOCS, `${l.slice(1)}.md`)) && !l.startsWith('/api/'));
  expect(missing, 'these sidebar lines name no page').toEqual([]);
  expect(links[0], 'getting started comes first').toBe('/intro');
  for (const generated of ['/protocol', '/api/README']) expect(links).toContain(generated);
});

test('each page starts with its title, then the task, before any code', () => {
  for (const file of pages.filter((f) => f.startsWith(DOCS) && !['index.md', 'protocol.md'].includes(basename(f)))) {
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# '), `${relative(ROOT, file)} starts with its title`).toBe(true);
    const intro = text.split('\n').slice(1).join('\n').trimStart();
    expect(
      intro.startsWith('```') || intro.startsWith('#'),
      `${relative(ROOT, file)}: a sentence on the task comes first`,
    ).toBe(false);
  }
});

test('docs/configuration.md is up to date with the option declarations (npm run docs:config rewrites it)', () => {
  const committed = readFileSync(CONFIG_DOC, 'utf8');
  expect(committed, 'docs/configuration.md is stale: run `npm run docs:config` and commit it').toBe(
    renderConfigDoc(committed),
  );
  for (const option of [
    'deviceOptions',
    'apk',
    'actionTimeout',
    'trajectory',
    'screenshot',
    'permissions',
    'channel',
    'deviceActions',
    'heal',
    'ai',
  ]) {
    expect(committed, option).toMatch(
      new RegExp(`\\| \\[\`${option}\`\\]\\(#${option.toLowerCase()}\\) \\| (test|worker) \\| `),
    );
  }
});

test('the README stays short: what nestwright is, the quick start, and links', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  expect(readme).toContain('npm ci && npm run example');
  expect(readme).toMatch(/^npm test\b/m);
});
