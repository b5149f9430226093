import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { APPIUM, DRIVER_DIR, freshHome, homeEnv, installLocal, packDriver, ROOT, withLock } from './driver-install.js';

export { ROOT };
/** APPIUM_HOME inside the project (git-ignored): its manifest lists the drivers installed below. */
export const APPIUM_HOME = process.env.NESTWRIGHT_APPIUM_HOME ?? path.join(ROOT, '.nestwright', 'appium-home');
export const DRIVERS = {
  nestspace: DRIVER_DIR,
  fake: path.join(ROOT, 'node_modules/@appium/fake-driver'),
} as const;

function manifest(): string {
  const f = path.join(APPIUM_HOME, 'node_modules/.cache/appium/extensions.yaml');
  return existsSync(f) ? readFileSync(f, 'utf8') : '';
}

/**
 * Build the NestSpace driver (through `npm pack`, when its sources changed) and install it and
 * @appium/fake-driver into APPIUM_HOME from their local folders, as a user would
 * (`appium driver install --source=local <dir>`), unless they are there already. Local installs
 * are links: nothing is downloaded, and a rebuilt dist/ applies at once.
 */
export async function ensureDrivers(): Promise<void> {
  await packDriver();
  const has = (name: string) => new RegExp(`^\\s{2}${name}:`, 'm').test(manifest());
  if (has('nestspace') && has('fake')) return;
  await withLock(path.join(APPIUM_HOME, '..', 'appium-home.lock'), async () => {
    if (!existsSync(path.join(APPIUM_HOME, 'package.json'))) freshHome(APPIUM_HOME);
    for (const [name, dir] of Object.entries(DRIVERS)) {
      if (!has(name)) await installLocal(APPIUM_HOME, dir);
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
 * Start an Appium 3 server from node_modules, as a user runs one: plain Node, no loader
 * (NODE_OPTIONS removed), the drivers of `opts.home` (default: the project's APPIUM_HOME, with
 * the drivers installed first).
 */
export async function startAppium(
  opts: { allowInsecure?: string[]; env?: Record<string, string>; home?: string } = {},
): Promise<AppiumServer> {
  if (!opts.home) await ensureDrivers();
  const port = await freePort();
  const args = [
    APPIUM,
    'server',
    '--address',
    '127.0.0.1',
    '--port',
    String(port),
    '--log-level',
    'warn',
    '--log-no-colors',
  ];
  if (opts.allowInsecure?.length) args.push('--allow-insecure', opts.allowInsecure.join(','));
  const env: NodeJS.ProcessEnv = { ...homeEnv(opts.home ?? APPIUM_HOME), ...opts.env };
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
    const up = await fetch(`${url}/status`).then(
      (r) => r.ok,
      () => false,
    );
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
