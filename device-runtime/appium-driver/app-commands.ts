import { errors } from 'appium/driver.js';
import { PackageNameSchema, type Key } from '../protocol/index.js';
import type { SessionContext } from './element-commands.js';
import { serializePageTree } from './page-source.js';
import { toW3cError } from './w3c-errors.js';

/**
 * Screen, key and app-management commands of the NestSpace driver: page source, screenshot,
 * keys, activate/terminate/query app state, deep links, clear data, logcat, and the guarded shell.
 * Each is one or two protocol calls; errors become W3C errors named after the command.
 */
async function guard<T>(command: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toW3cError(command, e);
  }
}

export const getPageSource = (ctx: SessionContext) =>
  guard('getPageSource', async () => serializePageTree(await ctx.ss.observe()));

export const getScreenshot = (ctx: SessionContext) =>
  guard('getScreenshot', async () => (await ctx.ss.call('ui_screenshot', { scale: 1 })).data);

export const getWindowRect = (ctx: SessionContext) =>
  guard('getWindowRect', async () => {
    const obs = ctx.ss.tree?.obs ?? (await ctx.ss.observe()).obs;
    return { x: 0, y: 0, width: obs.screen.width, height: obs.screen.height };
  });

export const pressKey = (ctx: SessionContext, key: Key) =>
  guard(`press ${key}`, async () => void (await ctx.ss.call('ui_key', { key })));

/** Android key codes `mobile: pressKey` accepts: the ones the device protocol has keys for. */
export const KEYCODES: Record<number, Key> = {
  3: 'home',
  4: 'back',
  61: 'tab',
  66: 'enter',
  67: 'delete',
  82: 'menu',
  84: 'search',
  187: 'recents',
};

export function mobilePressKey(ctx: SessionContext, keycode: number): Promise<void> {
  const key = KEYCODES[keycode];
  if (!key) {
    return Promise.reject(
      new errors.InvalidArgumentError(
        `mobile: pressKey: keycode ${keycode} is not supported; supported: ${Object.entries(KEYCODES)
          .map(([c, k]) => `${c} (${k})`)
          .join(', ')}`,
      ),
    );
  }
  return pressKey(ctx, key);
}

function appPackage(command: string, appId: string): string {
  if (!PackageNameSchema.safeParse(appId).success)
    throw new errors.InvalidArgumentError(`${command}: '${appId}' is not an Android package name (com.example.app)`);
  return appId;
}

/** Our own instance when the app is the session's app; the app's default instance otherwise. */
const instanceFor = (ctx: SessionContext, pkg: string) =>
  pkg === ctx.ss.pkg && ctx.ss.instance ? { instance: ctx.ss.instance } : {};

export const activateApp = (ctx: SessionContext, appId: string) =>
  guard('activateApp', async () => {
    const pkg = appPackage('activateApp', appId);
    await ctx.ss.call('space_launch', { package: pkg, ...instanceFor(ctx, pkg) });
  });

export const terminateApp = (ctx: SessionContext, appId: string) =>
  guard('terminateApp', async () => {
    const pkg = appPackage('terminateApp', appId);
    const { stopped } = await ctx.ss.call('space_stop', { package: pkg, ...instanceFor(ctx, pkg) });
    return stopped.length > 0;
  });

/** 0 not installed, 1 not running, 3 running in background, 4 running in foreground (Appium's values). */
export const queryAppState = (ctx: SessionContext, appId: string) =>
  guard('queryAppState', async () => {
    const pkg = appPackage('queryAppState', appId);
    const { apps } = await ctx.ss.call('space_list_apps', {});
    const app = apps.find((a) => a.package === pkg);
    if (!app) return 0;
    const own = instanceFor(ctx, pkg).instance;
    const states = app.instances.filter((i) => !own || i.instance === own).map((i) => i.state);
    if (states.includes('foreground')) return 4;
    if (states.includes('background')) return 3;
    return 1;
  });

/** `mobile: startActivity` with a component `pkg/.Activity`: that activity of our instance (or of the app). */
export const startActivity = (ctx: SessionContext, component: string) =>
  guard('mobile: startActivity', async () => {
    const m = /^([\w.]+)\/([\w.$]+)$/.exec(component);
    if (!m)
      throw new errors.InvalidArgumentError(
        `mobile: startActivity: give component as 'com.example.app/.MainActivity', got ${JSON.stringify(component)}`,
      );
    const pkg = appPackage('mobile: startActivity', m[1]);
    await ctx.ss.call('space_launch', { package: pkg, activity: m[2], ...instanceFor(ctx, pkg) });
  });

export const mobileClearApp = (ctx: SessionContext, appId: string) =>
  guard('mobile: clearApp', async () => {
    const pkg = appPackage('mobile: clearApp', appId);
    await ctx.ss.call('space_stop', { package: pkg, ...instanceFor(ctx, pkg), clear_data: true });
    return true;
  });

export const mobileDeepLink = (ctx: SessionContext, url: string, pkg?: string) =>
  guard('mobile: deepLink', async () => {
    const target = pkg ?? ctx.ss.pkg ?? undefined;
    await ctx.ss.call('app_intent', {
      action: 'android.intent.action.VIEW',
      data: url,
      ...(target ? { package: target, ...instanceFor(ctx, target) } : {}),
    });
  });

export const currentActivity = (ctx: SessionContext) =>
  guard('mobile: getCurrentActivity', async () => (await ctx.ss.call('ui_observe', { max_nodes: 1 })).activity);
export const currentPackage = (ctx: SessionContext) =>
  guard('mobile: getCurrentPackage', async () => (await ctx.ss.call('ui_observe', { max_nodes: 1 })).package);

/** `mobile: shell` after the server allowed the insecure feature: the runtime's own policy decides next. */
export const mobileShell = (ctx: SessionContext, command: string, args: string[] = []) =>
  guard('mobile: shell', async () => {
    const r = await ctx.ss.call('sys_shell', { command: [command, ...args].join(' '), timeout_ms: 10_000 });
    if (r.exit_code !== 0)
      throw new errors.UnknownError(`mobile: shell: '${command}' exited with ${r.exit_code}: ${r.stderr}`);
    return r.stdout;
  });

export const logcat = (ctx: SessionContext) =>
  guard('getLog logcat', async () => {
    const { lines } = await ctx.ss.call('sys_logcat', {
      ...(ctx.ss.pkg ? { package: ctx.ss.pkg, ...instanceFor(ctx, ctx.ss.pkg) } : {}),
      max_lines: 2000,
    });
    const level = { V: 'ALL', D: 'DEBUG', I: 'INFO', W: 'WARNING', E: 'SEVERE', F: 'SEVERE' } as const;
    return lines.map((l) => ({
      timestamp: l.ts,
      level: level[l.level],
      message: `${l.level}/${l.tag}(${l.pid}): ${l.message}`,
    }));
  });
