import { BaseDriver, errors } from 'appium/driver.js';
import * as app from './app-commands.js';
import { desiredCapConstraints, parseNestSpaceCaps } from './capabilities.js';
import * as el from './element-commands.js';
import { ElementStore } from './elements.js';
import { findNodes, LOCATOR_STRATEGIES, searched } from './find.js';
import { performActions, scrollGesture } from './gestures.js';
import type { PageTree } from './page-source.js';
import { SpaceSession } from './space-session.js';
import { toW3cError } from './w3c-errors.js';

const W3C_ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const wrap = (id: string) => ({ [W3C_ELEMENT]: id, ELEMENT: id });

/**
 * An Appium 3 driver that serves NestSpace spaces over WebDriver. Each session gets a fresh
 * instance of its app (its own data) in a space of its own on a NestSpace runtime — an embedded
 * simulator unless `nestspace:url` names one — so many sessions run in parallel on one device.
 * The commands live in small modules (find, element-commands, app-commands, gestures); this
 * class wires them to Appium's command names and owns the session's lifecycle.
 */
export class NestSpaceDriver extends BaseDriver<typeof desiredCapConstraints> {
  static executeMethodMap = {
    'mobile: deepLink': {
      command: 'mobileDeepLink',
      params: { required: ['url'], optional: ['package', 'waitForLaunch'] },
    },
    'mobile: shell': {
      command: 'mobileShell',
      params: { required: ['command'], optional: ['args', 'timeout', 'includeStderr'] },
    },
    'mobile: clearApp': { command: 'mobileClearApp', params: { required: ['appId'] } },
    'mobile: activateApp': { command: 'activateApp', params: { required: ['appId'] } },
    'mobile: terminateApp': { command: 'terminateApp', params: { required: ['appId'] } },
    'mobile: queryAppState': { command: 'queryAppState', params: { required: ['appId'] } },
    'mobile: pressKey': {
      command: 'mobilePressKey',
      params: { required: ['keycode'], optional: ['metastate', 'flags', 'isLongPress'] },
    },
    'mobile: scrollGesture': {
      command: 'mobileScrollGesture',
      params: { optional: ['elementId', 'left', 'top', 'width', 'height', 'direction', 'percent', 'speed'] },
    },
    'mobile: startActivity': {
      command: 'mobileStartActivity',
      params: { optional: ['component', 'intent', 'package', 'activity', 'wait', 'stop'] },
    },
    'mobile: getCurrentActivity': { command: 'mobileGetCurrentActivity' },
    'mobile: getCurrentPackage': { command: 'mobileGetCurrentPackage' },
  } as const;

  override desiredCapConstraints = desiredCapConstraints;
  private space: SpaceSession | null = null;
  private elements = new ElementStore();

  constructor(opts: Record<string, unknown> = {}, shouldValidateCaps = true) {
    super(opts as never, shouldValidateCaps);
    this.locatorStrategies = [...LOCATOR_STRATEGIES];
    (this as unknown as { supportedLogTypes: unknown }).supportedLogTypes = {
      logcat: { description: "The instance's logcat", getter: (d: NestSpaceDriver) => app.logcat(d.ctx()) },
    };
  }

  private ctx(): el.SessionContext {
    if (!this.space) throw new errors.NoSuchDriverError('the NestSpace session has ended');
    return { ss: this.space, elements: this.elements };
  }

  override async createSession(...args: any[]): Promise<any> {
    const [sessionId, caps] = await (
      super.createSession as (...a: unknown[]) => Promise<[string, Record<string, unknown>]>
    )(...args);
    const parsed = parseNestSpaceCaps(caps);
    try {
      if ('error' in parsed) throw new errors.SessionNotCreatedError(`NestSpace: ${parsed.error}`);
      this.space = await SpaceSession.open(parsed.caps, `appium ${sessionId.slice(0, 8)}`).catch((e) => {
        throw new errors.SessionNotCreatedError(`NestSpace: could not open a space: ${(e as Error).message}`);
      });
    } catch (e) {
      await super.deleteSession(sessionId);
      throw e;
    }
    const ss = this.space;
    return [
      sessionId,
      {
        ...caps,
        'nestspace:space': ss.spaceId,
        ...(ss.instance ? { 'nestspace:instance': ss.instance } : {}),
        ...(ss.pkg ? { appPackage: ss.pkg } : {}),
      },
    ];
  }

  override async deleteSession(sessionId?: string | null): Promise<void> {
    const ss = this.space;
    this.space = null;
    this.elements.clear();
    try {
      await ss?.close();
    } finally {
      await super.deleteSession(sessionId);
    }
  }

  // ---- finding ----

  override async findElOrEls(strategy: string, selector: string, mult: boolean, context?: string): Promise<any> {
    const ctx = this.ctx();
    const deadline = Date.now() + this.implicitWaitMs;
    for (;;) {
      let tree: PageTree;
      try {
        // One observation per try; finding under an element looks that element up on it.
        const root = context ? (await ctx.elements.resolve(ctx.ss, 'findElement', context, true)).node : null;
        tree = context ? ctx.ss.tree! : await ctx.ss.observe();
        const nodes = findNodes(tree, strategy, selector, root);
        if (mult) return nodes.map((n) => wrap(ctx.elements.add(tree, n)));
        if (nodes.length > 0) return wrap(ctx.elements.add(tree, nodes[0]));
      } catch (e) {
        throw toW3cError(mult ? 'findElements' : 'findElement', e);
      }
      if (Date.now() >= deadline)
        throw new errors.NoSuchElementError(`findElement: ${searched(tree, strategy, selector)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  override async getPageSource(): Promise<string> {
    return app.getPageSource(this.ctx());
  }

  // ---- elements ----

  async click(id: string) {
    return el.click(this.ctx(), id);
  }
  async clear(id: string) {
    return el.clear(this.ctx(), id);
  }
  async setValue(value: string | string[], id: string) {
    return el.setValue(this.ctx(), value, id);
  }
  async getText(id: string) {
    return el.getText(this.ctx(), id);
  }
  async getAttribute(name: string, id: string) {
    return el.getAttribute(this.ctx(), name, id) as Promise<string>;
  }
  async elementDisplayed(id: string) {
    return el.elementDisplayed(this.ctx(), id);
  }
  async elementEnabled(id: string) {
    return el.elementEnabled(this.ctx(), id);
  }
  async elementSelected(id: string) {
    return el.elementSelected(this.ctx(), id);
  }
  async getName(id: string) {
    return el.getName(this.ctx(), id);
  }
  async getElementRect(id: string) {
    return el.getElementRect(this.ctx(), id);
  }

  // ---- screen, keys, gestures ----

  async getScreenshot() {
    return app.getScreenshot(this.ctx());
  }
  async getWindowRect() {
    return app.getWindowRect(this.ctx());
  }
  async back() {
    return app.pressKey(this.ctx(), 'back');
  }
  async performActions(actions: any[]) {
    return performActions(this.ctx(), actions);
  }
  async releaseActions() {}
  async mobilePressKey(keycode: number) {
    return app.mobilePressKey(this.ctx(), Number(keycode));
  }
  async mobileScrollGesture(
    elementId?: string,
    _l?: number,
    _t?: number,
    _w?: number,
    _h?: number,
    direction?: string,
    percent?: number,
  ) {
    return scrollGesture(this.ctx(), { elementId, direction, percent });
  }

  // ---- apps ----

  async activateApp(appId: string) {
    return app.activateApp(this.ctx(), appId);
  }
  async terminateApp(appId: string) {
    return app.terminateApp(this.ctx(), appId);
  }
  async queryAppState(appId: string) {
    return app.queryAppState(this.ctx(), appId) as Promise<any>;
  }
  async mobileClearApp(appId: string) {
    return app.mobileClearApp(this.ctx(), appId);
  }
  async mobileDeepLink(url: string, pkg?: string) {
    return app.mobileDeepLink(this.ctx(), url, pkg);
  }
  async mobileStartActivity(component?: string, intent?: string, pkg?: string, activity?: string) {
    return app.startActivity(this.ctx(), component ?? intent ?? (pkg && activity ? `${pkg}/${activity}` : ''));
  }
  async mobileGetCurrentActivity() {
    return app.currentActivity(this.ctx());
  }
  async mobileGetCurrentPackage() {
    return app.currentPackage(this.ctx());
  }

  /** Two gates: the server must allow `nestspace:adb_shell` (or `*:adb_shell`), then the runtime's policy. */
  async mobileShell(command: string, args?: string[]) {
    if (!this.isFeatureEnabled('adb_shell')) {
      throw new errors.UnsupportedOperationError(
        'mobile: shell is refused: start the server with --allow-insecure=nestspace:adb_shell, and approve the shell on the NestSpace runtime (it is off by default)',
      );
    }
    return app.mobileShell(this.ctx(), command, args);
  }

  async execute(script: string, args: unknown[]) {
    return this.executeMethod(script, args as never);
  }
}
