import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';
import ts from 'typescript';

/**
 * package.json "exports" name the compiled files users import; tsconfig.json "paths" send the
 * same specifiers to the TypeScript sources inside this repository (so nothing needs building
 * here). The two must name the same entry points, or a spec in the repository and one in a
 * user's project would import different things. Adding an entry point: one line in each.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const tsconfig = (file: string) => ts.readConfigFile(path.join(ROOT, file), ts.sys.readFile).config;

test('every export has a source path in tsconfig.json, and the other way round', () => {
  const paths: Record<string, string[]> = tsconfig('tsconfig.json').compilerOptions.paths;
  const fromExports: Record<string, string> = {};
  for (const [sub, target] of Object.entries(
    manifest.exports as Record<string, string | { types: string; default: string }>,
  )) {
    if (sub === './package.json') continue;
    expect(typeof target, `${sub}: an object with "types" and "default"`).toBe('object');
    const t = target as { types: string; default: string };
    const m = /^\.\/dist\/(.+)\.js$/.exec(t.default);
    expect(m, `${sub}: "default" is a .js file in dist/`).toBeTruthy();
    expect(t.types).toBe(`./dist/${m![1]}.d.ts`);
    expect(existsSync(path.join(ROOT, `${m![1]}.ts`)), `${sub}: ${m![1]}.ts exists`).toBe(true);
    fromExports[sub === '.' ? manifest.name : `${manifest.name}/${sub.slice(2)}`] = `./${m![1]}.ts`;
  }
  expect(Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, v[0]]))).toEqual(fromExports);
});

test('the build compiles every directory an export, the bin or init reaches, and no tests', () => {
  const build = tsconfig('tsconfig.build.json');
  expect(build.compilerOptions).toMatchObject({ outDir: 'dist', rootDir: '.', declaration: true, sourceMap: true });
  for (const target of Object.values(manifest.exports as Record<string, { default?: string }>)) {
    const file = target.default;
    if (file) expect(build.include, file).toContain(file.split('/')[2]);
  }
  expect(build.include).toContain('cli');
  expect(build.exclude).toContain('**/*.test.ts');
  expect(manifest.files).not.toContain('tests/');
  // The bin runs compiled code when the sources are absent (a user's node_modules).
  expect(readFileSync(path.join(ROOT, manifest.bin.nestwright), 'utf8')).toContain("'../dist/cli/index.js'");
});
