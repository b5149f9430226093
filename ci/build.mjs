#!/usr/bin/env node
/**
 * `npm run build` (and so `npm pack`): dist/ emptied, tsc's JavaScript and declarations
 * (tsconfig.build.json), the JavaScript bundled (ci/bundle.mjs), the inspector's page copied.
 *
 * `NESTWRIGHT_BUILD_NO_CHECK=1` emits without type-checking (tsc --noCheck): about half of tsc's
 * CPU. Only for a run that type-checks the same sources anyway: `npm test`, whose static checks
 * run tsc over every file while tests/package/pack.test.ts packs. The output is the same code;
 * tsc may list a union's members in another order in a declaration.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
const args = [
  tsc,
  '-p',
  'tsconfig.build.json',
  ...(process.env.NESTWRIGHT_BUILD_NO_CHECK === '1' ? ['--noCheck'] : []),
];
const compiled = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
await bundle();
cpSync(path.join(ROOT, 'cli/inspector/page'), path.join(ROOT, 'dist/cli/inspector/page'), { recursive: true });
