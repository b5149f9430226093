import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { remote } from 'webdriverio';
import { notesCaps, startAppium, type AppiumServer } from './appium-server.js';
import {
  DRIVER_DIR,
  freshHome,
  installedDrivers,
  installLocal,
  installTarball,
  packDriver,
  ROOT,
} from './driver-install.js';
import type { Browser } from './fixtures.js';

/**
 * The NestSpace driver as a WebdriverIO user installs it: packed with `npm pack`, installed into
 * a fresh APPIUM_HOME with npm offline (so nothing comes from the registry), served by a plain
 * Appium 3 server with no TypeScript loader, and driven by two WebdriverIO sessions at once.
 * Once from the tarball (`npm install --prefix $APPIUM_HOME <tgz>`), once from the built folder
 * (`appium driver install --source=local <dir>`).
 */

test.describe.configure({ timeout: 900_000 });

const homes: string[] = [];
const homeOf = (what: string) => {
  const home = path.join(ROOT, 'test-results', 'appium-packaged', `${what}-${randomUUID().slice(0, 8)}`);
  homes.push(home);
  return home;
};
test.afterAll(() => {
  if (!process.env.NESTWRIGHT_KEEP_INLINE) for (const home of homes) rmSync(home, { recursive: true, force: true });
});
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected an error');
    },
    (e: Error) => e,
  );

/** Every file under `dir`, relative to it. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** One session's Notes flow through every finder, typing and clicking; its page source at the end. */
async function notesFlow(b: Browser, title: string): Promise<string> {
  await b.$('~Search notes').waitForDisplayed(); // accessibility id
  await b.$('android=new UiSelector().text("New note")').click(); // UiSelector
  await b.$('id=title').setValue(title); // resource id
  await b.$('//android.widget.Button[@text="Save"]').click(); // xpath
  await b.$(`//*[@text="${title}"]`).waitForDisplayed();
  expect(await b.$$('id=note_title').map((e) => e.getText())).toEqual([title]);
  return b.getPageSource();
}

async function twoSessionsAtOnce(server: AppiumServer): Promise<void> {
  const open = () =>
    remote({
      hostname: '127.0.0.1',
      port: server.port,
      logLevel: 'silent',
      connectionRetryCount: 0,
      waitforTimeout: 10_000,
      capabilities: notesCaps() as never,
    });
  const sessions = await Promise.all([open(), open()]);
  try {
    const caps = sessions.map((s) => s.capabilities as Record<string, string>);
    expect(caps.map((c) => c.automationName)).toEqual(['NestSpace', 'NestSpace']);
    expect(caps[0]['nestspace:space']).not.toBe(caps[1]['nestspace:space']);

    const titles = ['Milk from session one', 'Bread from session two'];
    const sources = await Promise.all(sessions.map((s, i) => notesFlow(s, titles[i])));
    for (const [i, source] of sources.entries()) {
      expect(source.startsWith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>")).toBe(true);
      expect(source).toContain(`text="${titles[i]}"`);
      expect(source, 'a session sees only its own instance').not.toContain(`text="${titles[1 - i]}"`);
    }

    // A bad xpath is a W3C error: WebdriverIO's error name, and on the wire a 400 with the code.
    const bad = await errorOf(sessions[0].findElement('xpath', '//*[@text='));
    expect(bad.name).toBe('invalid selector');
    expect(bad.message).toContain('xpath "//*[@text=" is not a valid XPath 1.0 expression');
    const r = await fetch(`${server.url}/session/${sessions[1].sessionId}/element`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ using: 'xpath', value: '//*[@text=' }),
    });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { value: { error: string; message: string; stacktrace: string } };
    expect(body.value.error).toBe('invalid selector');
    expect(body.value.message).toContain('is not a valid XPath 1.0 expression');
  } finally {
    await Promise.all(sessions.map((s) => s.deleteSession().catch(() => {})));
  }
}

test('the packed driver, installed from its tarball into a fresh APPIUM_HOME, serves two sessions at once on a plain Appium', async () => {
  const tarball = await packDriver();
  const home = homeOf('tarball');
  freshHome(home);
  await installTarball(home, tarball);

  const { nestspace } = await installedDrivers(home);
  expect(nestspace).toMatchObject({ pkgName: 'appium-nestspace-driver', installType: 'npm' });
  const installed = nestspace.installPath;
  expect(path.relative(home, installed), 'a copy in the home, not a link to the sources').toBe(
    path.join('node_modules', 'appium-nestspace-driver'),
  );
  const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
    main: string;
    types: string;
  };
  expect(manifest.main).toMatch(/\.js$/);
  const own = filesIn(installed).filter((f) => !f.startsWith(`node_modules${path.sep}`));
  expect(
    own.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
    'no TypeScript sources in the package',
  ).toEqual([]);
  expect(own).toContain(manifest.types.replace(/^\.\//, ''));
  // Its npm dependencies came out of the tarball (bundled), so the offline install had them.
  for (const dep of ['zod', '@modelcontextprotocol/sdk', '@xmldom/xmldom', 'xpath'])
    expect(filesIn(path.join(installed, 'node_modules', dep))).toContain('package.json');

  const server = await startAppium({ home });
  try {
    await twoSessionsAtOnce(server);
  } catch (e) {
    throw new Error(`${(e as Error).message}\n--- appium log ---\n${server.log()}`, { cause: e });
  } finally {
    await server.close();
  }
});

test('the built folder, installed with appium driver install --source=local, serves two sessions at once on a plain Appium', async () => {
  await packDriver(); // leaves dist/ built
  const home = homeOf('folder');
  freshHome(home);
  const out = await installLocal(home, DRIVER_DIR);
  expect(out).toMatch(/Driver nestspace@[\w.-]+ successfully installed/);
  const { nestspace } = await installedDrivers(home);
  expect(nestspace).toMatchObject({ pkgName: 'appium-nestspace-driver', installType: 'local' });

  const server = await startAppium({ home });
  try {
    await twoSessionsAtOnce(server);
  } catch (e) {
    throw new Error(`${(e as Error).message}\n--- appium log ---\n${server.log()}`, { cause: e });
  } finally {
    await server.close();
  }
});
