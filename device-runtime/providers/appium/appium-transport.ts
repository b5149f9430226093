import { KEYCODES } from '../android-roles.js';
import { createHash } from 'node:crypto';
import { inspectApk } from '../../apk/index.js';
import type { CallResult, ToolTransport } from '../../client/index.js';
import {
  getTool,
  PROTOCOL_VERSION,
  toolError,
  type ToolArgs,
  type ToolName,
  type ToolResult,
} from '../../protocol/index.js';
import {
  currentInstance,
  newSpace,
  sessionCaps,
  type AppiumSpace,
  type Instance,
  type Isolation,
} from './appium-spaces.js';
import { fromWebDriver, ProviderError } from './provider-error.js';
import { readPageSource, type SourceObservation } from './source-observation.js';
import { appiumScreenRecord } from './screen-record.js';
import { serverStatus, WebDriverSession } from './webdriver.js';

export interface AppiumProviderOptions {
  url: string;
  capabilities: Record<string, unknown>;
  isolation?: Isolation;
}

type Handler<N extends ToolName> = (args: ToolArgs<N>) => Promise<ToolResult<N>>;
type Handlers = { [N in ToolName]?: Handler<N> };

const LEVELS = { ALL: 'V', FINEST: 'V', FINE: 'D', DEBUG: 'D', INFO: 'I', WARNING: 'W', SEVERE: 'E' } as const;

/**
 * The device protocol served over WebDriver calls to an Appium 3 server, so nestwright specs
 * run through any Appium server, Grid or farm: the framework keeps its locators, auto-waiting
 * and strictness (they work on observations), and this transport turns each tool call into the
 * WebDriver commands that do it — page source for observations, native finds and clicks for
 * actions, W3C actions for gestures. Spaces and instances map onto sessions (see appium-spaces).
 */
export class AppiumToolTransport implements ToolTransport {
  readonly sessionId = undefined;
  private readonly base: string;
  private readonly isolation: Isolation;
  private spaces = new Map<string, AppiumSpace>();
  private snapshots = new Map<string, SourceObservation>();
  private snapshotCount = 0;
  private activityUnsupported = false;

  constructor(private readonly opts: AppiumProviderOptions) {
    this.base = opts.url.replace(/\/+$/, '');
    const automation = String(opts.capabilities['appium:automationName'] ?? '');
    this.isolation = opts.isolation ?? (/^nestspace$/i.test(automation) ? 'instance' : 'reset');
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<CallResult> {
    const handler = (this.handlers as Record<string, ((a: unknown) => Promise<unknown>) | undefined>)[name];
    try {
      if (!handler)
        throw new ProviderError(
          toolError(
            'NOT_SUPPORTED',
            `${name} is not available through the appium provider${getTool(name)?.extension ? ` (it does not offer the ${getTool(name)!.group ?? name} extension)` : ''}`,
            {
              hint: 'Use the nestspace or sim provider for this tool.',
            },
          ),
        );
      // The client validated the arguments; parsing again applies the schema's defaults.
      return { structuredContent: (await handler(getTool(name)!.input.parse(args))) as Record<string, unknown> };
    } catch (e) {
      return { isError: true, structuredContent: { error: fromWebDriver(name, e) } };
    }
  }

  async close(): Promise<void> {
    for (const space of this.spaces.values()) await this.deleteSpace(space);
  }

  private space(id: string): AppiumSpace {
    const s = this.spaces.get(id);
    if (!s)
      throw new ProviderError(
        toolError('SPACE_NOT_FOUND', `no space ${id} in this appium provider`, {
          hint: 'Create one with space_create.',
        }),
      );
    return s;
  }

  private async deleteSpace(space: AppiumSpace): Promise<void> {
    const sessions = new Set([...space.instances.values()].map((i) => i.session));
    if (space.shared) sessions.add(space.shared);
    await Promise.all([...sessions].map((s) => s.delete().catch(() => {})));
    this.spaces.delete(space.id);
  }

  /** Open an instance: a session of its own (instance isolation), or the space's session with the app's data cleared. */
  private async openInstance(space: AppiumSpace, pkg: string, activity?: string): Promise<Instance> {
    if (this.isolation === 'instance') {
      const caps = sessionCaps(this.opts.capabilities, space, pkg, 'instance');
      if (activity) caps['appium:appActivity'] = activity;
      const session = await WebDriverSession.create(this.base, caps);
      space.nestspace ??=
        typeof session.capabilities['nestspace:space'] === 'string' ? session.capabilities['nestspace:space'] : null;
      return { id: `s-${session.id.slice(0, 12)}`, pkg, session };
    }
    space.shared ??= await WebDriverSession.create(this.base, sessionCaps(this.opts.capabilities, space, pkg, 'reset'));
    await space.shared.execute('mobile: clearApp', { appId: pkg });
    if (activity) await space.shared.execute('mobile: startActivity', { component: `${pkg}/${activity}` });
    else await space.shared.execute('mobile: activateApp', { appId: pkg });
    return { id: `r${space.instances.size + 1}-${Date.now().toString(36)}`, pkg, session: space.shared };
  }

  private async activity(session: WebDriverSession): Promise<string | null> {
    if (this.activityUnsupported) return null;
    try {
      return await session.execute<string>('mobile: getCurrentActivity');
    } catch {
      this.activityUnsupported = true;
      return null;
    }
  }

  private async observe(spaceId: string, detail: 'compact' | 'full', maxNodes: number): Promise<SourceObservation> {
    const space = this.space(spaceId);
    const inst = currentInstance(space, 'ui_observe');
    const xml = await inst.session.cmd<string>('GET', '/source');
    // UiAutomator2's source has no activity; the NestSpace driver's root carries it.
    const activity = /<hierarchy[^>]*\sactivity="/.test(xml.slice(0, 400)) ? null : await this.activity(inst.session);
    const snap = readPageSource(xml, {
      snapshotId: `a_${++this.snapshotCount}`,
      spaceId,
      instance: inst.id,
      activity,
      detail,
      maxNodes,
    });
    if (snap.obs.package !== inst.pkg) snap.obs.instance = null;
    this.snapshots.set(snap.obs.snapshot_id, snap);
    if (this.snapshots.size > 32) this.snapshots.delete(this.snapshots.keys().next().value!);
    return snap;
  }

  /** The WebDriver element of a node of a snapshot, found with the node's native locator. */
  private async element(
    tool: string,
    spaceId: string,
    nodeId: string,
    snapshotId: string | undefined,
  ): Promise<{ inst: Instance; el: string }> {
    const inst = currentInstance(this.space(spaceId), tool);
    const snap = snapshotId ? this.snapshots.get(snapshotId) : [...this.snapshots.values()].pop();
    const loc = snap?.locate(nodeId);
    if (!loc)
      throw new ProviderError(
        toolError('SNAPSHOT_STALE', `${tool}: node ${nodeId} is not in a snapshot this provider still holds`, {
          hint: 'Observe again.',
        }),
      );
    return { inst, el: await inst.session.find(loc.using, loc.value) };
  }

  private async point(
    tool: string,
    a: { space_id: string; node_id?: string; snapshot_id?: string; bounds?: number[]; point?: number[]; text?: string },
  ): Promise<{ inst: Instance; el?: string; xy?: [number, number] }> {
    if (a.node_id) return this.element(tool, a.space_id, a.node_id, a.snapshot_id);
    const inst = currentInstance(this.space(a.space_id), tool);
    if (a.text !== undefined)
      return {
        inst,
        el: await inst.session.find('-android uiautomator', `new UiSelector().text(${JSON.stringify(a.text)})`),
      };
    const b = a.bounds;
    return { inst, xy: a.point ? [a.point[0], a.point[1]] : [((b![0] + b![2]) / 2) | 0, ((b![1] + b![3]) / 2) | 0] };
  }

  private readonly handlers: Handlers = {
    runtime_info: async () => {
      const status = await serverStatus(this.base);
      return {
        protocol_version: PROTOCOL_VERSION,
        runtime: {
          name: `appium (${this.isolation} isolation)`,
          version: status.build?.version ?? 'unknown',
          kind: 'device' as const,
        },
        // What the device is, the server says per session; these are placeholders until then.
        device: {
          model: `Appium server at ${this.base}`,
          sdk_int: 0,
          abis: [],
          page_size: 4096 as const,
          screen: { width: 0, height: 0, density: 0 },
        },
        capabilities: {
          virtual_displays: this.isolation === 'instance',
          process_slots: 1,
          channels: ['accessibility' as const],
          shell_enabled: false,
        },
        extensions: ['instance', 'clear_data', 'runtime_info', 'screen_record'],
        tools: Object.keys(this.handlers),
      };
    },
    space_create: async (a) => {
      const s = newSpace(a.name);
      this.spaces.set(s.id, s);
      return {
        space_id: s.id,
        name: s.name,
        display_id: null,
        app_count: 0,
        foreground: null,
        created_at: s.createdAt,
      };
    },
    // A space exists only in this provider: it is this client's alone; the lease is local.
    session_acquire: async (a) => ({
      lease_id: `lease_${a.space_id}`,
      space_id: this.space(a.space_id).id,
      owner: a.caller,
      session_id: 'appium',
      mode: a.mode,
      expires_at: Date.now() + a.ttl_ms,
    }),
    session_release: async () => ({ released: [] }),
    space_delete: async (a) => {
      await this.deleteSpace(this.space(a.space_id));
      return { ok: true as const };
    },
    space_install_apk: async (a) => {
      const space = this.space(a.space_id);
      const info = await inspectApk(a.apk_paths).catch((e: Error) => {
        throw new ProviderError(toolError('INVALID_APK', `space_install_apk: ${e.message}`));
      });
      space.apks.set(info.package, a.apk_paths[0]);
      return {
        package: info.package,
        label: info.label ?? info.package,
        version_code: info.versionCode,
        version_name: info.versionName,
        outcome: 'installed' as const,
        preflight: {
          installable: true,
          package: info.package,
          version_code: info.versionCode,
          checks: [
            {
              code: 'INVALID_APK' as const,
              status: 'ok' as const,
              message: 'Read; the Appium server installs it when a session starts (appium:app).',
            },
          ],
        },
      };
    },
    space_launch: async (a) => {
      const space = this.space(a.space_id);
      let inst = a.instance && a.instance !== 'new' ? space.instances.get(a.instance) : undefined;
      if (a.instance && a.instance !== 'new' && !inst)
        throw new ProviderError(
          toolError('INSTANCE_NOT_FOUND', `space_launch: no instance ${a.instance} of ${a.package}`),
        );
      if (!inst && a.instance !== 'new') inst = [...space.instances.values()].find((i) => i.pkg === a.package);
      const cold = !inst;
      if (!inst) {
        inst = await this.openInstance(space, a.package, a.activity);
        space.instances.set(inst.id, inst);
      } else if (a.activity) {
        await inst.session.execute('mobile: startActivity', { component: `${inst.pkg}/${a.activity}` });
      } else {
        await inst.session.execute('mobile: activateApp', { appId: inst.pkg });
      }
      space.current = inst.id;
      return {
        package: inst.pkg,
        instance: inst.id,
        activity: (await this.activity(inst.session)) ?? '',
        slot: 0,
        cold_start: cold,
        restarted_after_crash: false,
        crash_reason: null,
        evicted: null,
      };
    },
    space_stop: async (a) => {
      const space = this.space(a.space_id);
      const targets = [...space.instances.values()].filter(
        (i) => i.pkg === a.package && (!a.instance || i.id === a.instance),
      );
      for (const inst of targets) {
        if (this.isolation === 'instance' && a.remove_instance) {
          await inst.session.delete().catch(() => {});
        } else {
          await inst.session.execute('mobile: terminateApp', { appId: inst.pkg });
          if (a.clear_data) await inst.session.execute('mobile: clearApp', { appId: inst.pkg });
        }
        if (a.remove_instance) space.instances.delete(inst.id);
        if (space.current === inst.id && a.remove_instance) space.current = null;
      }
      if (space.instances.size === 0) space.nestspace = null;
      return { stopped: targets.map((i) => `${i.pkg}@${i.id}`) };
    },
    space_list_apps: async (a) => {
      const space = this.space(a.space_id);
      const byPkg = new Map<string, Instance[]>();
      for (const i of space.instances.values()) byPkg.set(i.pkg, [...(byPkg.get(i.pkg) ?? []), i]);
      const states = ['stopped', 'stopped', 'stopped', 'background', 'foreground'] as const;
      const apps = await Promise.all(
        [...byPkg].map(async ([pkg, list]) => ({
          package: pkg,
          label: pkg,
          version_code: 0,
          version_name: null,
          system: false,
          instances: await Promise.all(
            list.map(async (i) => ({
              instance: i.id,
              state: states[await i.session.execute<number>('mobile: queryAppState', { appId: pkg })] ?? 'stopped',
              slot: null,
              activity: null,
            })),
          ),
        })),
      );
      return { apps };
    },
    ui_observe: async (a) => (await this.observe(a.space_id, a.detail, a.max_nodes)).obs,
    ui_tap: async (a) => {
      const t = await this.point('ui_tap', a);
      if (t.el) await t.inst.session.cmd('POST', `/element/${t.el}/click`);
      else
        await t.inst.session.pointer([
          { type: 'pointerMove', duration: 0, x: t.xy![0], y: t.xy![1] },
          { type: 'pointerDown', button: 0 },
          { type: 'pause', duration: 50 },
          { type: 'pointerUp', button: 0 },
        ]);
      return { ok: true as const, method: t.el ? ('node' as const) : ('gesture' as const), node: null };
    },
    ui_long_press: async (a) => {
      const t = await this.point('ui_long_press', a);
      const move = t.el
        ? { type: 'pointerMove', duration: 0, origin: { 'element-6066-11e4-a52e-4f735466cecf': t.el }, x: 0, y: 0 }
        : { type: 'pointerMove', duration: 0, x: t.xy![0], y: t.xy![1] };
      await t.inst.session.pointer([
        move,
        { type: 'pointerDown', button: 0 },
        { type: 'pause', duration: a.duration_ms },
        { type: 'pointerUp', button: 0 },
      ]);
      return { ok: true as const, method: 'gesture' as const, node: null };
    },
    ui_swipe: async (a) => {
      const inst = currentInstance(this.space(a.space_id), 'ui_swipe');
      await inst.session.pointer([
        { type: 'pointerMove', duration: 0, x: a.from[0], y: a.from[1] },
        { type: 'pointerDown', button: 0 },
        { type: 'pointerMove', duration: a.duration_ms, x: a.to[0], y: a.to[1] },
        { type: 'pointerUp', button: 0 },
      ]);
      return { ok: true as const };
    },
    ui_scroll: async (a) => {
      const inst = currentInstance(this.space(a.space_id), 'ui_scroll');
      let target: Record<string, unknown> = {};
      if (a.node_id) target = { elementId: (await this.element('ui_scroll', a.space_id, a.node_id, a.snapshot_id)).el };
      else {
        const { obs } = await this.observe(a.space_id, 'full', 5000);
        const area = (n: { bounds: number[] }) => (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1]);
        const list = obs.nodes.filter((n) => n.scrollable).sort((x, y) => area(y) - area(x))[0];
        if (!list) return { ok: true as const, moved: false };
        const [l, t, r, b] = list.bounds;
        target = { left: l, top: t, width: r - l, height: b - t };
      }
      // The NestSpace driver answers whether the list moved; UiAutomator2, whether it can move further.
      const moved = await inst.session.execute<boolean>('mobile: scrollGesture', {
        ...target,
        direction: a.direction,
        percent: a.amount,
      });
      return { ok: true as const, moved: !!moved };
    },
    ui_set_text: async (a) => {
      // Appium's Android drivers replace a field's text on send keys (one call, as ui_set_text).
      const { inst, el } = await this.point('ui_set_text', a);
      if (a.text) await inst.session.cmd('POST', `/element/${el}/value`, { text: a.text });
      else await inst.session.cmd('POST', `/element/${el}/clear`);
      if (a.submit) await inst.session.execute('mobile: pressKey', { keycode: KEYCODES.enter });
      return { ok: true as const, method: 'node' as const, node: null };
    },
    ui_key: async (a) => {
      const inst = currentInstance(this.space(a.space_id), 'ui_key');
      if (a.key === 'back') await inst.session.cmd('POST', '/back');
      else await inst.session.execute('mobile: pressKey', { keycode: KEYCODES[a.key] });
      return { ok: true as const };
    },
    ui_screenshot: async (a) => {
      const inst = currentInstance(this.space(a.space_id), 'ui_screenshot');
      const data = await inst.session.cmd<string>('GET', '/screenshot');
      const png = Buffer.from(data, 'base64');
      return {
        mime: 'image/png' as const,
        data,
        width: png.readUInt32BE(16),
        height: png.readUInt32BE(20),
        sha256: createHash('sha256').update(png).digest('hex'),
        snapshot_id: null,
      };
    },
    sys_logcat: async (a) => {
      const inst = currentInstance(this.space(a.space_id), 'sys_logcat');
      const entries = await inst.session.cmd<Array<{ timestamp: number; level: string; message: string }>>(
        'POST',
        '/se/log',
        { type: 'logcat' },
      );
      const lines = entries.slice(-a.max_lines).map((e) => {
        // "L/tag(pid): message" (NestSpace driver) or threadtime "… pid tid L tag: message" (UiAutomator2).
        const m =
          /^([VDIWEF])\/([^(]*)\((\d+)\): ([\s\S]*)$/.exec(e.message) ??
          /\s(\d+)\s+\d+\s([VDIWEF])\s([^:]*):\s([\s\S]*)$/.exec(e.message);
        const [level, tag, pid, message] = m
          ? m[1].length === 1
            ? [m[1], m[2], m[3], m[4]]
            : [m[2], m[3], m[1], m[4]]
          : [LEVELS[e.level as keyof typeof LEVELS] ?? 'I', '', '0', e.message];
        return {
          ts: e.timestamp,
          level: level as 'V' | 'D' | 'I' | 'W' | 'E' | 'F',
          tag: tag.trim(),
          pid: Number(pid),
          package: inst.pkg,
          instance: inst.id,
          message,
        };
      });
      return { lines };
    },
    app_intent: async (a) => {
      const inst = currentInstance(this.space(a.space_id), 'app_intent');
      if (!a.data)
        throw new ProviderError(
          toolError('NOT_SUPPORTED', 'app_intent: the appium provider sends deep links (data) only', {
            hint: 'Give data: a URI.',
          }),
        );
      await inst.session.execute('mobile: deepLink', { url: a.data, package: a.package ?? inst.pkg });
      return {
        resolved: {
          package: a.package ?? inst.pkg,
          activity: (await this.activity(inst.session)) ?? '',
          instance: inst.id,
        },
      };
    },
    ...appiumScreenRecord((id) => this.space(id)),
  };
}
