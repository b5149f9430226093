import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { UiNode } from '../device-runtime/protocol/index.js';
import { sample } from './section.js';

/**
 * The peer column of `npm run bench screens`: Appium 3 + @appium/fake-driver fed the very tree a
 * big screen observes, as UiAutomator2 writes a page source (one element per node, its class as
 * the tag, nested by parent), timed through WebdriverIO: getPageSource, and a find by XPath on a
 * row's text plus a click. Like framework.bench.ts's peer, it needs `bash bench/peer-setup.sh`
 * (APPIUM_HOME, or NESTWRIGHT_APPIUM_HOME); null when Appium is not set up.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const APPIUM_HOME = process.env.NESTWRIGHT_APPIUM_HOME ?? path.join(ROOT, '.nestwright', 'appium-home');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The nodes as a UiAutomator2-style page source inside the fake driver's `<app>`. */
export function fakeAppXml(nodes: UiNode[]): string {
  const kids = new Map<string | null, UiNode[]>();
  for (const n of nodes) {
    const p = n.parent ?? null;
    (kids.get(p) ?? kids.set(p, []).get(p)!).push(n);
  }
  const out: string[] = ['<app><title>Big screen</title><hierarchy rotation="0">'];
  const walk = (n: UiNode, index: number) => {
    const tag = (n.class ?? 'android.view.View').replace(/[^A-Za-z0-9_.]/g, '_');
    const [l, t, r, b] = n.bounds;
    out.push(
      `<${tag} index="${index}" text="${esc(n.text ?? '')}" resource-id="${esc(n.res_id ?? '')}" class="${esc(n.class ?? '')}" content-desc="${esc(n.desc ?? '')}" checkable="${!!n.checkable}" checked="${!!n.checked}" clickable="${n.clickable}" enabled="${n.enabled}" focusable="${n.clickable || n.editable}" focused="${n.focused}" long-clickable="${!!n.long_clickable}" password="${!!n.password}" scrollable="${n.scrollable}" selected="${n.selected}" bounds="[${l},${t}][${r},${b}]" displayed="true">`,
    );
    (kids.get(n.id) ?? []).forEach(walk);
    out.push(`</${tag}>`);
  };
  (kids.get(null) ?? []).forEach(walk);
  out.push('</hierarchy></app>');
  return out.join('\n');
}

export interface PeerFigures {
  pageSource: number[];
  findClick: number[];
  bytes: number;
}

/** Appium's figures for each screen's nodes, or null when Appium is not set up. */
export async function measureAppium(
  screens: Array<{ n: number; nodes: UiNode[]; text: string }>,
  runs: (n: number) => number,
): Promise<Map<number, PeerFigures> | null> {
  const appiumMain = path.join(ROOT, 'node_modules/appium/index.js');
  const wdio = path.join(ROOT, 'node_modules/webdriverio/build/index.js');
  if (
    !existsSync(appiumMain) ||
    !existsSync(wdio) ||
    !existsSync(path.join(APPIUM_HOME, 'node_modules/.cache/appium/extensions.yaml'))
  )
    return null;
  const dir = mkdtempSync(path.join(tmpdir(), 'nw-bench-appium-'));
  const port = 4723 + Math.floor(Math.random() * 1000);
  const server = spawn(process.execPath, [appiumMain, 'server', '--port', String(port), '--log-level', 'error'], {
    env: { ...process.env, APPIUM_HOME },
    stdio: 'ignore',
  });
  const out = new Map<number, PeerFigures>();
  try {
    for (let i = 0; i < 150; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/status`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const { remote } = (await import(pathToFileURL(wdio).href)) as { remote: (o: unknown) => Promise<any> };
    for (const s of screens) {
      const xml = path.join(dir, `screen-${s.n}.xml`);
      writeFileSync(xml, fakeAppXml(s.nodes));
      const d = await remote({
        hostname: '127.0.0.1',
        port,
        logLevel: 'error',
        capabilities: {
          platformName: 'Fake',
          'appium:automationName': 'Fake',
          'appium:deviceName': 'Fake',
          'appium:app': xml,
        },
      });
      try {
        let bytes = 0;
        const k = runs(s.n);
        const pageSource = await sample(k, async () => (bytes = ((await d.getPageSource()) as string).length), 2);
        const findClick = await sample(k, async () => (await d.$(`//*[@text="${s.text}"]`)).click(), 2);
        out.set(s.n, { pageSource, findClick, bytes });
      } finally {
        await d.deleteSession();
      }
    }
  } finally {
    server.kill();
  }
  return out;
}
