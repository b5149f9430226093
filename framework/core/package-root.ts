import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where nestwright's own files are, from any module of it. Compiled (the published package), its
 * JavaScript is bundled into `dist/` (ci/bundle.mjs), so a module's code may sit in a shared chunk
 * (`dist/chunks/…`) rather than beside the files it names: paths are taken from the package root,
 * never from `import.meta.url` of the module that needs them. From the TypeScript sources (this
 * repository) the files are the sources themselves.
 */
const HERE = fileURLToPath(import.meta.url);

/** True in the published package (dist/), false when run from the TypeScript sources. */
export const COMPILED = HERE.endsWith('.js');

/** The package's root: the folder holding package.json (and dist/ when compiled). */
export const PACKAGE_ROOT = COMPILED
  ? HERE.slice(0, HERE.lastIndexOf(`${sep}dist${sep}`))
  : resolve(dirname(HERE), '..', '..');

/**
 * One of nestwright's modules by its source path without extension (`framework/runner/global-setup`):
 * `dist/framework/runner/global-setup.js` compiled (an entry point of the bundle), the `.ts` from source.
 */
export function ownModule(path: string): string {
  return COMPILED ? join(PACKAGE_ROOT, 'dist', `${path}.js`) : join(PACKAGE_ROOT, `${path}.ts`);
}

/** Every file of nestwright's own code: `dist/` compiled; from source, the folders `dirs` (e.g. `framework`). */
export function ownCodeDirs(...dirs: string[]): string[] {
  return COMPILED ? [join(PACKAGE_ROOT, 'dist') + sep] : dirs.map((d) => join(PACKAGE_ROOT, d) + sep);
}
