#!/usr/bin/env node
/**
 * `npm run build` (and so `npm pack`): `tsc -p tsconfig.json`, the driver and the parts of
 * nestwright it carries, into dist/. `NESTWRIGHT_BUILD_NO_CHECK=1` emits without the type check
 * (tsc --noCheck, about half the CPU), as the root's ci/build.mjs does: only for a run whose
 * static checks type-check the same sources (`npm test`).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const noCheck = process.env.NESTWRIGHT_BUILD_NO_CHECK === '1' ? ['--noCheck'] : [];
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', ...noCheck], {
  cwd: path.dirname(fileURLToPath(import.meta.url)),
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
