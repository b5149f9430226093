import { DOMParser } from '@xmldom/xmldom';
import xpath from 'xpath';
import { expect, test, type Browser } from './fixtures.js';

/**
 * The NestSpace driver through a real Appium 3 server and WebdriverIO 9 sessions: the Notes flow
 * as a plain WebdriverIO test, parallel sessions on one simulated device, the page source as XML,
 * app management, and the W3C errors.
 */

async function addNote(b: Browser, title: string): Promise<void> {
  await b.$('~Search notes').waitForDisplayed();
  await b.$('android=new UiSelector().text("New note")').click();
  await b.$('id=title').setValue(title);
  await b.$('//android.widget.Button[@text="Save"]').click();
  await b.$(`//*[@text="${title}"]`).waitForDisplayed();
}

test('the notes flow as a plain WebdriverIO test', async ({ open }) => {
  const b = await open();
  expect(b.capabilities).toMatchObject({ automationName: 'NestSpace', appPackage: 'com.nestwright.notes' });
  await expect.poll(() => b.$('id=empty').getText()).toBe('No notes yet');
  await addNote(b, 'Buy milk');
  expect(await b.$('id=note_title').getText()).toBe('Buy milk');
  expect(await b.execute('mobile: getCurrentActivity')).toBe('.MainActivity');

  // Edit it: open the row, replace the title, save.
  await b.$('//*[@text="Buy milk"]').click();
  expect(await b.$('id=toolbar_title').getText()).toBe('Edit note');
  const field = b.$('id=title');
  expect(await field.getText()).toBe('Buy milk');
  await field.clearValue();
  await field.setValue('Buy oat milk');
  await b.$('android=new UiSelector().className("android.widget.Button").text("Save")').click();
  await b.$('//*[@text="Buy oat milk"]').waitForDisplayed();
  expect(await b.$$('//*[@text="Buy milk"]').length).toBe(0);

  // Long press (W3C actions held 800 ms) opens the row's menu; Delete asks first.
  const row = await b.$('//*[@text="Buy oat milk"]').getLocation();
  await b
    .action('pointer', { parameters: { pointerType: 'touch' } })
    .move({ x: row.x + 10, y: row.y + 10 })
    .down()
    .pause(800)
    .up()
    .perform();
  await b.$('android=new UiSelector().text("Delete")').click();
  await b.$('//*[@text=\'"Buy oat milk" will be deleted.\']').waitForDisplayed();
  await b.$('//android.widget.Button[@text="Delete"]').click();
  await b.$('//*[@text="No notes yet"]').waitForDisplayed();
});

test('four sessions in parallel on one device: each its own instance, space and data', async ({ open }) => {
  const sessions = await Promise.all([1, 2, 3, 4].map(() => open()));
  const caps = sessions.map((s) => s.capabilities as Record<string, string>);
  expect(new Set(caps.map((c) => c['nestspace:space'])).size).toBe(4);
  await Promise.all(sessions.map((s, i) => addNote(s, `Note of session ${i + 1}`)));
  await Promise.all(
    sessions.map(async (s, i) => {
      const titles = await s.$$('id=note_title').map((e) => e.getText());
      expect(titles).toEqual([`Note of session ${i + 1}`]);
    }),
  );
  await Promise.all(sessions.map((s) => s.deleteSession()));
  // Nothing survives a session: a new one starts on an empty list.
  const next = await open();
  expect(await next.$('id=empty').getText()).toBe('No notes yet');
  expect((next.capabilities as Record<string, string>)['nestspace:space']).not.toBe(caps[0]['nestspace:space']);
});

test('page source is UiAutomator2 XML: an XML parser and xpath find what the driver finds', async ({ open }) => {
  const b = await open();
  await addNote(b, 'Draft');
  const source = await b.getPageSource();
  expect(source.startsWith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>")).toBe(true);
  const doc = new DOMParser().parseFromString(source, 'text/xml');
  const select = (expr: string) => xpath.select(expr, doc as unknown as Node) as Element[];
  expect(select('/hierarchy')[0].getAttribute('width')).toBe('1080');
  const exprs = [
    '//android.widget.Button',
    '//*[@clickable="true"]',
    '//*[@resource-id="com.nestwright.notes:id/note_title"]',
    '//android.widget.TextView[contains(@text, "a")]',
  ];
  for (const expr of exprs) {
    const fromXml = select(expr).map((e) => `${e.getAttribute('text')}|${e.getAttribute('bounds')}`);
    const fromDriver = await b.$$(expr).map(async (e) => `${await e.getText()}|${await e.getAttribute('bounds')}`);
    expect(fromDriver, expr).toEqual(fromXml);
    expect(fromXml.length, expr).toBeGreaterThan(0);
  }
  const save = select('//*[@content-desc="Search notes"]')[0];
  expect(save.tagName).toBe('android.widget.ImageButton');
  for (const attr of [
    'index',
    'package',
    'class',
    'text',
    'resource-id',
    'content-desc',
    'checkable',
    'checked',
    'clickable',
    'enabled',
    'focusable',
    'focused',
    'long-clickable',
    'password',
    'scrollable',
    'selected',
    'bounds',
    'displayed',
  ]) {
    expect(save.hasAttribute(attr), attr).toBe(true);
  }
  const el = b.$('~Search notes');
  expect(await el.getAttribute('resource-id')).toBe('com.nestwright.notes:id/search');
  expect(await el.getAttribute('class')).toBe('android.widget.ImageButton');
  expect(await el.getAttribute('enabled')).toBe('true');
  expect(await el.getAttribute('bounds')).toBe(save.getAttribute('bounds'));
  expect(await el.isDisplayed()).toBe(true);
  const rect = await b.getElementRect(await el.elementId);
  expect(rect).toEqual({ x: 744, y: 84, width: 168, height: 168 });
});

test('app management, keys, deep links, screenshot and logcat', async ({ open }) => {
  const b = await open();
  await b.$('~Search notes').waitForDisplayed();
  expect(await b.queryAppState('com.nestwright.notes')).toBe(4);
  expect(await b.queryAppState('com.example.absent')).toBe(0);
  await b.$('android=new UiSelector().text("New note")').click();
  await b.back();
  await b.$('//*[@text="No notes yet"]').waitForDisplayed();
  expect(await b.terminateApp('com.nestwright.notes')).toBe(true);
  expect(await b.queryAppState('com.nestwright.notes')).toBe(1);
  await b.activateApp('com.nestwright.notes');
  expect(await b.queryAppState('com.nestwright.notes')).toBe(4);
  await b.execute('mobile: deepLink', { url: 'nwnotes://note/new', package: 'com.nestwright.notes' });
  await expect.poll(() => b.execute('mobile: getCurrentActivity')).toBe('.EditNoteActivity');
  await b.execute('mobile: pressKey', { keycode: 4 });
  const png = Buffer.from(await b.takeScreenshot(), 'base64');
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  const logs = (await b.getLogs('logcat')) as Array<{ message: string }>;
  expect(logs.length).toBeGreaterThan(0);
  expect(logs.some((l) => /notes/i.test(l.message))).toBe(true);
});

test.describe('W3C errors', () => {
  const errorOf = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected an error');
      },
      (e: Error) => e,
    );

  test('an unknown capability is refused with the nearest known name', async ({ open }) => {
    const e = await errorOf(open({ 'nestspace:instnace': 'new' }));
    expect(e.message).toMatch(/unknown capability 'nestspace:instnace' \(did you mean 'nestspace:instance'\?\)/);
  });

  test('a bad xpath and an unsupported UiSelector are invalid selectors that say what was wrong', async ({ open }) => {
    const b = await open();
    const bad = await errorOf(b.findElement('xpath', '//*[@text='));
    expect(bad.name).toBe('invalid selector');
    expect(bad.message).toContain('xpath "//*[@text=" is not a valid XPath 1.0 expression');
    const ui = await errorOf(
      b.findElement('-android uiautomator', 'new UiScrollable(new UiSelector()).scrollIntoView(1)'),
    );
    expect(ui.name).toBe('invalid selector');
    expect(ui.message).toMatch(/UiScrollable is not supported/);
    const method = await errorOf(b.findElement('-android uiautomator', 'new UiSelector().textMatches("a.*")'));
    expect(method.message).toMatch(/UiSelector.textMatches\(\) is not supported \(supported: text, textContains/);
    // WebdriverIO hands "no such element" back as a value rather than throwing it.
    const none = (await b.findElement('id', 'no_such_id')) as unknown as { error: string; message: string };
    expect(none.error).toBe('no such element');
    expect(none.message).toMatch(/no element matches id "no_such_id" among \d+ nodes of com\.nestwright\.notes/);
  });

  test('an element gone from the screen is stale', async ({ open }) => {
    const b = await open();
    const id = await b.$('id=new_note').elementId;
    await b.elementClick(id);
    await b.$('id=title').waitForDisplayed();
    const e = await errorOf(b.elementClick(id));
    expect(e.name).toBe('stale element reference');
    expect(e.message).toMatch(/no longer on screen/);
  });

  test('a deleted session answers invalid session id; the shell needs the server to allow it', async ({
    open,
    appium,
  }) => {
    const b = await open();
    const shell = await errorOf(b.execute('mobile: shell', { command: 'ls' }));
    expect(shell.message).toMatch(/--allow-insecure=nestspace:adb_shell/);
    const id = b.sessionId;
    await b.deleteSession();
    // Asked directly (WebdriverIO refuses to send commands for a session it deleted itself).
    const r = await fetch(`${appium.url}/session/${id}/source`);
    expect(r.status).toBe(404);
    expect(((await r.json()) as { value: { error: string } }).value.error).toBe('invalid session id');
  });
});
