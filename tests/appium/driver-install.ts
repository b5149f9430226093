import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const APPIUM = path.join(ROOT, 'node_modules/appium/index.js');
/** The NestSpace driver's package folder: sources, and after a build its dist/. */
export const DRIVER_DIR = path.join(ROOT, 'device-runtime/appium-driver');
/** Where the tests keep the packed driver (git-ignored). */
const PACKED_DIR = path.join(ROOT, '.nestwright', 'appium-driver-pack');

const run = promisify(execFile);

/**
 * A lock directory: parallel test processes build, pack and install one at a time. A lock older
 * than `staleMs` belonged to a process that died.
 */
export async function withLock<T>(lock: string, fn: () => Promise<T>, staleMs = 600_000): Promise<T> {
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > staleMs) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Newest modification time of what the packed driver is made from. */
function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist') continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|mjs|json)$/.test(e.name) && !e.name.endsWith('.test.ts'))
        newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(path.join(ROOT, 'device-runtime'));
  return Math.max(newest, statSync(path.join(ROOT, 'package-lock.json')).mtimeMs);
}

let packed: Promise<string> | null = null;

/**
 * The driver as a user gets it: `npm pack` in its folder, whose prepack builds dist/ from a clean
 * slate and bundles the npm dependencies. Done again only when a source is newer than the
 * tarball; leaves dist/ built, so the folder is installable too. Returns the tarball's path.
 */
export function packDriver(): Promise<string> {
  packed ??= withLock(path.join(ROOT, '.nestwright', 'appium-driver.lock'), async () => {
    const manifest = JSON.parse(readFileSync(path.join(DRIVER_DIR, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    const tarball = path.join(PACKED_DIR, `${manifest.name}-${manifest.version}.tgz`);
    const fresh =
      existsSync(tarball) &&
      existsSync(path.join(DRIVER_DIR, 'dist/appium-driver/index.js')) &&
      statSync(tarball).mtimeMs > newestSource();
    if (!fresh) {
      mkdirSync(PACKED_DIR, { recursive: true });
      rmSync(tarball, { force: true });
      // Built without tsc's type check (its build.mjs): the static checks of `npm test` check
      // the same sources; what these tests check is the package.
      await run('npm', ['pack', '--pack-destination', PACKED_DIR], {
        cwd: DRIVER_DIR,
        env: { ...process.env, NESTWRIGHT_BUILD_NO_CHECK: '1' },
        timeout: 600_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      if (!existsSync(tarball)) throw new Error(`npm pack in ${DRIVER_DIR} did not write ${tarball}`);
    }
    return tarball;
  });
  return packed;
}

/**
 * A fresh APPIUM_HOME at `home`, with the environment installs into it run with: npm offline (an
 * install that needed the registry fails) and npm's global folder inside the home (`npm link`,
 * which `appium driver install --source=local` runs, writes there first).
 */
export function freshHome(home: string): NodeJS.ProcessEnv {
  rmSync(home, { recursive: true, force: true });
  mkdirSync(path.join(home, '.npm-global', 'lib'), { recursive: true });
  writeFileSync(path.join(home, 'package.json'), '{ "private": true }\n');
  return homeEnv(home);
}

export function homeEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APPIUM_HOME: home,
    npm_config_prefix: path.join(home, '.npm-global'),
    npm_config_offline: 'true',
  };
  delete env.NODE_OPTIONS;
  return env;
}

/** `appium driver install --source=local <dir>`, as a user types it; its output. */
export async function installLocal(home: string, dir: string): Promise<string> {
  mkdirSync(path.join(home, '.npm-global', 'lib'), { recursive: true });
  const r = await run(process.execPath, [APPIUM, 'driver', 'install', '--source=local', dir], {
    env: homeEnv(home),
    timeout: 300_000,
  });
  return r.stdout + r.stderr;
}

/** `npm install --prefix <APPIUM_HOME> <tarball>`: the packed driver, which Appium finds there. */
export async function installTarball(home: string, tarball: string): Promise<string> {
  const r = await run('npm', ['install', '--prefix', home, '--no-audit', '--no-fund', tarball], {
    env: homeEnv(home),
    timeout: 600_000,
  });
  return r.stdout + r.stderr;
}

/** What `appium driver list --installed --json` says of the drivers in `home`. */
export async function installedDrivers(
  home: string,
): Promise<Record<string, { pkgName: string; installType: string; installPath: string; version: string }>> {
  const r = await run(process.execPath, [APPIUM, 'driver', 'list', '--installed', '--json'], {
    env: homeEnv(home),
    timeout: 120_000,
  });
  return JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
}
