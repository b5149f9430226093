#!/usr/bin/env node
// nestwright's command line. Installed from npm it runs the compiled JavaScript in dist/ (no
// TypeScript loader). In a checkout of the repository, where the TypeScript sources are (and
// dist/ is absent or may be stale), it runs the sources through tsx, a devDependency, so nothing
// needs building first. The published package holds no sources, so it never takes that branch.
import { existsSync } from 'node:fs';

const source = new URL('../cli/index.ts', import.meta.url);
let cli;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(source.href);
} else {
  cli = await import('../dist/cli/index.js');
}
process.exitCode = await cli.main(process.argv.slice(2));
