import { writeFileSync } from 'node:fs';
import { test } from '@playwright/test';
import { inTest } from '../core/in-test.js';
import { describeScreen, NestwrightError } from '../errors.js';
import { poll } from '../poll.js';
import type { App } from '../app.js';
import { swipeScreen } from '../core/gestures.js';
import { fieldValue } from '../../device-runtime/protocol/selector.js';
import { aiCommand } from './ai-commands.js';
import { keyName, KEYS, NOT_HONOURED, RANDOM_NAMES, type CommandName } from './commands.js';
import { find, gone, locatorFor, nodeAt, present, screenNode, type Found } from './element.js';
import { screenshotPath, type RunState } from './state.js';
import type { Command } from './plan.js';
import { readPoint, readSelector, describeSelector, type MaestroSelector } from './selector.js';

/**
 * Maestro's UI commands on one instance, through the public App and Locator API. Waiting is
 * Maestro's: a lookup waits up to the lookup timeout (an optional one up to the optional timeout
 * and then the command is skipped), assertions wait for what they assert.
 */

type Json = Record<string, unknown>;
type UiName = Exclude<CommandName, 'runFlow' | 'repeat' | 'retry' | 'evalScript' | 'runScript' | 'assertTrue'>;

const notSupported = (what: string) => new NestwrightError('maestro', what, { code: 'NOT_SUPPORTED' });
const timedOut = (what: string) => new NestwrightError('maestro', what, { code: 'TIMEOUT' });

async function required(state: RunState, sel: MaestroSelector, optional: boolean): Promise<Found | null> {
  const timeout = optional ? state.opts.optionalTimeout : state.opts.lookupTimeout;
  const hit = await find(state.app, sel, timeout);
  if (hit || optional) return hit;
  const obs = await state.app.observe();
  throw timedOut(`no element matches ${describeSelector(sel)} after ${timeout}ms\nScreen:\n${describeScreen(obs)}`);
}

const random = (n: number, chars: string) =>
  Array.from({ length: n }, () => chars[Math.floor(Math.random() * chars.length)]).join('');

/** The focused field, and what it holds. */
async function focusedField(state: RunState): Promise<{ found: Found; value: string }> {
  const r = await poll(state.opts.lookupTimeout, async () => {
    const obs = await state.app.observe();
    const node = obs.nodes.find((n) => n.editable && n.focused);
    return node ? { done: true as const, value: { node, obs } as Found } : { done: false as const };
  });
  if (!('value' in r))
    throw timedOut('no text field has the focus: tap the field first (inputText types into the focused field)');
  const found = r.value as Found;
  return { found, value: fieldValue(found.node) };
}

async function type(state: RunState, text: string): Promise<void> {
  const { found, value } = await focusedField(state);
  // Maestro types at the end of what the field holds.
  await locatorFor(state.app, found).fill(value + text);
}

function direction(d: unknown): 'up' | 'down' | 'left' | 'right' {
  return String(d ?? 'down').toLowerCase() as 'up' | 'down' | 'left' | 'right';
}

export async function uiCommand(state: RunState, cmd: Command, arg: unknown, where: string): Promise<void> {
  const a = (arg && typeof arg === 'object' ? arg : {}) as Json;
  const optional = a.optional === true || a.optional === 'true';
  const name = cmd.name as UiName;
  const app = () => state.app;
  switch (name) {
    case 'launchApp': {
      const appId = typeof arg === 'string' ? arg : (a.appId as string | undefined);
      if (appId && appId !== app().package)
        throw notSupported(
          `launchApp of ${appId}: this flow runs on an instance of ${app().package}; run the other app's flows on its own instance`,
        );
      if (a.clearState === true) {
        const fresh = await app().newInstance();
        await app().close();
        state.app = fresh;
      } else if (a.stopApp !== false) await app().stop();
      await app().launch();
      return;
    }
    case 'stopApp':
    case 'killApp':
      return app().stop();
    case 'clearState': {
      const fresh = await app().newInstance();
      await app().close();
      state.app = fresh;
      return;
    }
    case 'clearKeychain':
      // Android has no keychain; Maestro does nothing here on Android either.
      return;
    case 'tapOn':
    case 'doubleTapOn':
    case 'longPressOn': {
      const sel = readSelector(arg);
      const hit = await required(state, sel, optional);
      if (!hit) return;
      const loc = locatorFor(app(), hit);
      if (name === 'longPressOn') return loc.longPress();
      const times = name === 'doubleTapOn' ? 2 : Math.max(1, Number(a.repeat ?? 1));
      for (let i = 0; i < times; i++) {
        if (i > 0 && a.delay !== undefined) await new Promise((r) => setTimeout(r, Number(a.delay)));
        await loc.tap();
      }
      return;
    }
    case 'inputText':
      return type(state, String(typeof arg === 'object' && arg ? a.text : arg));
    case 'inputRandomText':
      return type(state, random(Number(a.length ?? 8), 'abcdefghijklmnopqrstuvwxyz'));
    case 'inputRandomNumber':
      return type(state, random(Number(a.length ?? 8), '0123456789'));
    case 'inputRandomEmail':
      return type(state, `${random(8, 'abcdefghijklmnopqrstuvwxyz')}@example.com`);
    case 'inputRandomPersonName':
      return type(state, RANDOM_NAMES[Math.floor(Math.random() * RANDOM_NAMES.length)]!);
    case 'eraseText': {
      const n = Number(typeof arg === 'object' && arg ? (a.charactersToErase ?? 50) : (arg ?? 50));
      const { found, value } = await focusedField(state);
      const kept = value.slice(0, Math.max(0, value.length - n));
      const loc = locatorFor(app(), found);
      return kept ? loc.fill(kept) : loc.clear();
    }
    case 'pasteText':
      return type(state, state.script.maestro.copiedText);
    case 'setClipboard':
      state.script.maestro.copiedText = String(typeof arg === 'object' && arg ? a.text : arg);
      return;
    case 'copyTextFrom': {
      const hit = await required(state, readSelector(arg), optional);
      if (!hit) return;
      state.script.maestro.copiedText = hit.node.editable
        ? fieldValue(hit.node)
        : (hit.node.text ?? hit.node.desc ?? '');
      return;
    }
    case 'assertVisible': {
      await required(state, readSelector(arg), optional);
      return;
    }
    case 'assertNotVisible': {
      const sel = readSelector(arg);
      const r = await gone(app(), sel, state.opts.lookupTimeout);
      if (!r.gone && !optional)
        throw timedOut(`${describeSelector(sel)} is still visible after ${state.opts.lookupTimeout}ms`);
      return;
    }
    case 'extendedWaitUntil': {
      const timeout = Number(a.timeout ?? state.opts.lookupTimeout);
      if (a.visible !== undefined) {
        const sel = readSelector(a.visible);
        if (!(await find(app(), sel, timeout)))
          throw timedOut(`${describeSelector(sel)} did not appear within ${timeout}ms`);
      }
      if (a.notVisible !== undefined) {
        const sel = readSelector(a.notVisible);
        if (!(await gone(app(), sel, timeout)).gone)
          throw timedOut(`${describeSelector(sel)} was still visible after ${timeout}ms`);
      }
      return;
    }
    case 'waitForAnimationToEnd': {
      // Until two looks in a row show the same screen; like Maestro, never a failure.
      let hash: string | undefined;
      await poll(Number(a.timeout ?? 15_000), async () => {
        const obs = await app().observe();
        const same = !obs.tree_missing && obs.screen_hash !== undefined && obs.screen_hash === hash;
        hash = obs.screen_hash;
        return same ? { done: true, value: true } : { done: false };
      });
      return;
    }
    case 'scroll':
      return screenSwipe(app(), 'up');
    case 'scrollUntilVisible': {
      const sel = readSelector(a.element);
      const timeout = Number(a.timeout ?? 20_000);
      const swipe = { down: 'up', up: 'down', right: 'left', left: 'right' } as const;
      const deadline = Date.now() + timeout;
      for (;;) {
        const hit = await present(app(), sel);
        if (hit && fullyOnScreen(hit)) return;
        if (Date.now() > deadline) {
          if (optional) return;
          throw timedOut(
            `${describeSelector(sel)} did not come into view after scrolling ${direction(a.direction)} for ${timeout}ms`,
          );
        }
        await screenSwipe(app(), swipe[direction(a.direction)], 0.5);
      }
    }
    case 'swipe': {
      const obs = await app().observe();
      if (a.from !== undefined) {
        const hit = await required(state, readSelector(a.from), optional);
        if (!hit) return;
        return locatorFor(app(), hit).swipe(direction(a.direction));
      }
      if (a.direction !== undefined) {
        const node = screenNode(obs);
        if (!node) throw new Error('nothing on screen to swipe');
        return locatorFor(app(), { node, obs }).swipe(direction(a.direction));
      }
      const box = [0, 0, obs.screen.width, obs.screen.height] as const;
      const start = readPoint(String(a.start), box)!;
      const end = readPoint(String(a.end), box)!;
      const [dx, dy] = [end[0] - start[0], end[1] - start[1]];
      const node = nodeAt(obs, String(a.start)) ?? screenNode(obs);
      if (!node) throw new Error(`nothing on screen at ${String(a.start)}`);
      const dir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up';
      const size = Math.abs(dx) > Math.abs(dy) ? obs.screen.width : obs.screen.height;
      return locatorFor(app(), { node, obs }).swipe(dir, {
        distance: Math.min(1, Math.max(0.1, Math.hypot(dx, dy) / size)),
      });
    }
    case 'back':
      return app().press('back');
    case 'hideKeyboard':
      // Hides it when it is up; with no keyboard nothing is pressed (a back would leave the screen).
      return app().hideKeyboard();
    case 'pressKey': {
      const key = KEYS[keyName(arg)];
      if (!key) throw notSupported(`key ${JSON.stringify(arg)} has no key event on a virtual space`);
      return app().press(key);
    }
    case 'takeScreenshot': {
      const png = await app().screenshot({ optional: false });
      const file = screenshotPath(state, String(typeof arg === 'string' ? arg : a.path));
      writeFileSync(file, png);
      if (inTest())
        await test
          .info()
          .attach(String(typeof arg === 'string' ? arg : a.path), { path: file, contentType: 'image/png' });
      return;
    }
    case 'openLink':
      return app().intent({
        action: 'android.intent.action.VIEW',
        data: String(typeof arg === 'string' ? arg : a.link),
      });
    case 'setLocation':
      return app().setGeolocation({ latitude: Number(a.latitude), longitude: Number(a.longitude) });
    case 'travel': {
      const speed = Number(a.speed ?? 1000);
      let last: [number, number] | null = null;
      for (const p of a.points as string[]) {
        const [lat, lng] = String(p)
          .split(',')
          .map((x) => Number(x.trim())) as [number, number];
        if (last) await new Promise((r) => setTimeout(r, Math.min(2000, (metres(last!, [lat, lng]) / speed) * 1000)));
        await app().setGeolocation({ latitude: lat, longitude: lng });
        last = [lat, lng];
      }
      return;
    }
    case 'setPermissions':
      throw notSupported(
        'permissions are granted by the app when it asks (the dialog is on screen: tap "Allow"); the device protocol sets none ahead',
      );
    case 'assertWithAI':
    case 'assertNoDefectsWithAI':
    case 'extractTextWithAI':
      return aiCommand(state, name, arg, where, state.log);
    case 'startRecording':
    case 'stopRecording':
    case 'addMedia':
    case 'setOrientation':
    case 'setAirplaneMode':
    case 'toggleAirplaneMode':
    case 'assertScreenshot':
      throw notSupported(`${name} cannot be honoured on this device: ${NOT_HONOURED[name]} (${where})`);
    default: {
      const never: never = name;
      throw new Error(`unknown command ${String(never)}`);
    }
  }
}

function fullyOnScreen(hit: Found): boolean {
  const [l, t, r, b] = hit.node.bounds;
  return l >= 0 && t >= 0 && r <= hit.obs.screen.width && b <= hit.obs.screen.height && r > l && b > t;
}

function metres(a: [number, number], b: [number, number]): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h =
    Math.sin(rad(b[0] - a[0]) / 2) ** 2 +
    Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(rad(b[1] - a[1]) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

/**
 * Maestro's `scroll` and `scrollUntilVisible` swipe the screen from its center, not an element:
 * one picked while a list loads (its progress bar) may be gone by the time of the swipe.
 */
function screenSwipe(app: App, dir: 'up' | 'down' | 'left' | 'right', distance?: number): Promise<void> {
  return app.driver.wrap('maestro.scroll', {}, (call) =>
    swipeScreen(call, app.driver, dir, distance === undefined ? {} : { distance }),
  );
}
