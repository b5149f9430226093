import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, expect, type Browser, type Page } from '@playwright/test';
import { childEnv } from '../inline-run.js';
import { nestwrightBin } from '../mcp-agent/helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** `nestwright <command> … --no-open` as a child; resolves with the printed address. */
export async function startCommand(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [await nestwrightBin(), ...args, '--no-open'], {
    cwd,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d) => (out += d));
  await expect
    .poll(() => out, { timeout: 90_000, message: 'the command prints its address' })
    .toMatch(/ at http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/);
  return { child, url: /at (http:\/\/\S+)/.exec(out)![1]!, output: () => out };
}

/**
 * The middle of a node on the picture, found the way a person does: hover it in the list and see
 * where the box lands. Retried while the screen still settles (a snackbar, an animation).
 */
export async function pointOf(page: Page, treeText: string): Promise<{ x: number; y: number }> {
  let point = { x: 0, y: 0 };
  await expect(async () => {
    await page.locator('#tree li', { hasText: treeText }).first().hover({ timeout: 2_000 });
    const box = await page.locator('#overlay .box.hover').boundingBox({ timeout: 1_000 });
    if (!box) throw new Error(`no box for ${treeText}`);
    point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }).toPass({ timeout: 20_000 });
  await page.mouse.move(0, 0);
  return point;
}

export async function clickOnScreen(page: Page, treeText: string): Promise<void> {
  const p = await pointOf(page, treeText);
  await page.mouse.click(p.x, p.y);
}
