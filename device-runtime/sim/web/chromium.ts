import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

/**
 * The browser engine behind the simulator's WebViews: Debian's Chromium (`/usr/bin/chromium`, or
 * NESTWRIGHT_CHROMIUM), never a downloaded one. It is started on first use — only a run that
 * opens a WebView pays for it — and one browser serves every simulated runtime of this process.
 *
 * Chromium is spawned here rather than by Playwright's `launch()` because the WebViews' pages
 * must be reachable by a second client — the framework, as Playwright's `connectOverCDP` — and
 * `launch()` talks over a pipe only. `--remote-debugging-port=0` lets Chromium pick a free port
 * and print its endpoint, which is what a real WebView's DevTools socket offers too.
 */

/** The flags Chromium runs with here: headless, no sandbox (containers), nothing fetched by itself. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
];

/** Where Chromium is looked for: NESTWRIGHT_CHROMIUM, else Debian's. */
export function chromiumPath(): string {
  return process.env.NESTWRIGHT_CHROMIUM || '/usr/bin/chromium';
}

/** Null when `path` can be run; else why not and how to install it. */
export function chromiumMissing(path: string): string | null {
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return `the simulator renders WebViews in Chromium and found none at ${path}: install Debian's (apt-get install chromium) or set NESTWRIGHT_CHROMIUM to a Chromium executable; until then a WebView shows as a box with no page`;
  }
}

/** A running Chromium: the CDP endpoint clients connect to, and the simulator's own connection. */
export interface RunningChromium {
  /** ws://127.0.0.1:<port>/devtools/browser/<id> */
  endpoint: string;
  browser: Browser;
  pid: number;
}

const STARTUP_MS = 30_000;
const running = new Map<string, Promise<RunningChromium>>();
const children = new Set<ChildProcess>();

/** The process's Chromium at `path`, started on the first call; a failed start is retried by the next call. */
export function sharedChromium(path: string): Promise<RunningChromium> {
  let started = running.get(path);
  if (!started) {
    started = launch(path);
    running.set(path, started);
    started.catch(() => running.delete(path));
  }
  return started;
}

async function launch(path: string): Promise<RunningChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'nestwright-chromium-'));
  const child = spawn(
    path,
    [
      ...CHROMIUM_FLAGS,
      '--remote-debugging-port=0',
      '--remote-debugging-address=127.0.0.1',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.add(child);
  child.once('exit', () => {
    children.delete(child);
    running.delete(path);
    rmSync(profile, { recursive: true, force: true });
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.kill('SIGKILL');
      reject(new Error(`Chromium (${path}) did not start: ${why}\n${err.slice(-2000)}`));
    };
    const onExit = (code: number | null) => fail(`it exited with ${code}`);
    const timer = setTimeout(() => fail(`it printed no DevTools endpoint within ${STARTUP_MS} ms`), STARTUP_MS);
    child.once('error', (e) => fail(e.message));
    child.on('exit', onExit);
    const onData = (d: Buffer) => {
      err += d.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (!m) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stderr!.off('data', onData);
      resolve(m[1]!);
    };
    child.stderr!.on('data', onData);
  });
  // Chromium keeps writing to stderr (warnings); drain it so the pipe never fills.
  child.stderr!.resume();
  // playwright-core loads with the first WebView, not with the simulator.
  const { chromium } = await import('playwright-core');
  const browser = await chromium.connectOverCDP(endpoint);
  return { endpoint, browser, pid: child.pid! };
}

/** Stop the process's Chromium (for tests that check a cold start); the next use starts another. */
export async function stopChromium(): Promise<void> {
  const all = [...running.values()];
  running.clear();
  for (const r of await Promise.allSettled(all)) if (r.status === 'fulfilled') await r.value.browser.close();
  for (const c of children) c.kill('SIGKILL');
}

// Chromium dies with this process, however it ends.
process.once('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});
