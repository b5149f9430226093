#!/usr/bin/env node
/**
 * `node bundle-deps.mjs` (the driver's `prepack`): copies the driver's npm dependencies, and
 * theirs, from the repository's node_modules into this folder's node_modules, so that `npm pack`
 * ships them (`bundleDependencies: true`). `node bundle-deps.mjs --remove` (its `postpack`) takes
 * them away again, so that inside the repository the driver and its sources keep resolving the
 * repository's one copy of each package.
 *
 * Why bundled: `appium driver install --source=local <file>.tgz` runs `npm link <file>.tgz`,
 * which installs the tarball and everything it depends on. Bundled dependencies come out of the
 * tarball itself: nothing is looked up or fetched from the registry, so the install works offline,
 * and with the versions this repository is tested with. (npm honours a package's
 * npm-shrinkwrap.json only for packages that come from a registry, not from a local tarball.)
 *
 * The copies follow the repository's package-lock.json, walked the way Node resolves: a
 * package's dependency is the nearest `node_modules/<name>` above it in the lock's tree, so the
 * bundled tree has the lock's layout. Peer dependencies are followed too (npm installs them),
 * except the driver's own peer, `appium`: the server that loads the driver provides it. Optional
 * ones missing from the lock are skipped, as npm skips them.
 */
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const target = path.join(here, 'node_modules');

rmSync(target, { recursive: true, force: true });
if (process.argv.includes('--remove')) process.exit(0);

const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(repo, 'package-lock.json'), 'utf8'));
const provided = new Set(Object.keys(pkg.peerDependencies ?? {}));

/** The lock location a package at `from` gets `name` from, or null when the lock has none. */
function resolve(name, from) {
  for (let dir = from; ;) {
    const at = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock.packages[at]) return at;
    if (!dir) return null;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

const closure = new Set();
const queue = [];
function need(name, from, optional) {
  if (provided.has(name)) return;
  const at = resolve(name, from);
  if (!at) {
    if (optional) return;
    throw new Error(
      `bundle-deps: ${from || pkg.name} needs ${name}, which package-lock.json does not have; run npm install at the repository root`,
    );
  }
  if (closure.has(at)) return;
  closure.add(at);
  queue.push(at);
}

for (const name of Object.keys(pkg.dependencies ?? {})) need(name, '', false);
while (queue.length > 0) {
  const at = queue.shift();
  const e = lock.packages[at];
  const optionalPeer = (n) => Boolean(e.peerDependenciesMeta?.[n]?.optional);
  for (const name of Object.keys(e.dependencies ?? {})) need(name, at, false);
  for (const name of Object.keys(e.optionalDependencies ?? {})) need(name, at, true);
  for (const name of Object.keys(e.peerDependencies ?? {})) need(name, at, optionalPeer(name));
}

// Outermost first; a nested package is copied with its parent, minus what the closure lacks.
for (const at of [...closure].sort((a, b) => a.length - b.length)) {
  const from = path.join(repo, at);
  if (!existsSync(from))
    throw new Error(`bundle-deps: ${at} is in package-lock.json but not installed; run npm ci at the repository root`);
  cpSync(from, path.join(here, at), {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(repo, src).split(path.sep).join('/');
      const nested = rel.lastIndexOf('/node_modules/');
      if (nested < 0 || rel === at) return true;
      // Inside a nested node_modules: keep it only on the way to (or within) a package we need.
      return [...closure].some((c) => c === rel || c.startsWith(`${rel}/`) || rel.startsWith(`${c}/`));
    },
  });
}
console.log(`bundle-deps: ${closure.size} packages into node_modules`);
