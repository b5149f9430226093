import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** APPIUM_HOME inside the project (git-ignored): its manifest lists the drivers installed below. */
export const APPIUM_HOME = process.env.NESTWRIGHT_APPIUM_HOME ?? path.join(ROOT, '.nestwright', 'appium-home');
const APPIUM = path.join(ROOT, 'node_modules/appium/index.js');
export const DRIVERS = {
  nestspace: path.join(ROOT, 'device-runtime/appium-driver'),
  fake: path.join(ROOT, 'node_modules/@appium/fake-driver'),
} as const;

const run = promisify(execFile);

function manifest(): string {
  const f = path.join(APPIUM_HOME, 'node_modules/.cache/appium/extensions.yaml');
  return existsSync(f) ? readFileSync(f, 'utf8') : '';
}

/** A lock directory: parallel test files install the drivers once, one at a time. */
async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = path.join(APPIUM_HOME, '.install-lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Install the NestSpace driver and @appium/fake-driver into APPIUM_HOME from their local paths,
 * as a user would (`appium driver install --source=local <path>`), unless they are there already.
 * Local installs are links: nothing is downloaded, and edits to the driver apply at once.
 */
export async function ensureDrivers(): Promise<void> {
  const has = (name: string) => new RegExp(`^\\s{2}${name}:`, 'm').test(manifest());
  if (has('nestspace') && has('fake')) return;
  mkdirSync(APPIUM_HOME, { recursive: true });
  await withLock(async () => {
    if (!existsSync(path.join(APPIUM_HOME, 'package.json'))) writeFileSync(path.join(APPIUM_HOME, 'package.json'), '{ "private": true }\n');
    for (const [name, dir] of Object.entries(DRIVERS)) {
      if (has(name)) continue;
      await run(process.execPath, [APPIUM, 'driver', 'install', '--source=local', dir], { env: { ...process.env, APPIUM_HOME }, timeout: 180_000 });
    }
  });
}

export interface AppiumServer {
  url: string;
  port: number;
  /** The server's output, for a failing test's message. */
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Start an Appium 3 server from node_modules with the project's APPIUM_HOME. The NestSpace
 * driver is TypeScript in this repository, so the server runs with tsx's loader (a published
 * build would not need it).
 */
export async function startAppium(opts: { allowInsecure?: string[]; env?: Record<string, string> } = {}): Promise<AppiumServer> {
  await ensureDrivers();
  const port = await freePort();
  const args = [APPIUM, 'server', '--address', '127.0.0.1', '--port', String(port), '--log-level', 'warn', '--log-no-colors'];
  if (opts.allowInsecure?.length) args.push('--allow-insecure', opts.allowInsecure.join(','));
  const env: NodeJS.ProcessEnv = { ...process.env, APPIUM_HOME, NODE_OPTIONS: '--import tsx', ...opts.env };
  delete env.NESTWRIGHT_SIM_URL;
  delete env.NESTWRIGHT_SIM_TOKEN;
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`appium exited with ${child.exitCode}:\n${out}`);
    const up = await fetch(`${url}/status`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`appium did not answer /status within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    log: () => out,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export const NOTES_APK = path.join(ROOT, 'fixtures/apks/notes.apk');

/** Capabilities of a NestSpace session on the Notes app (WebdriverIO's `capabilities`). */
export const notesCaps = (extra: Record<string, unknown> = {}) => ({
  platformName: 'Android',
  'appium:automationName': 'NestSpace',
  'appium:app': NOTES_APK,
  ...extra,
});
