import { KEYCODES } from '../android-roles.js';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { inspectApk } from '../../apk/index.js';
import type { CallResult, ToolTransport } from '../../client/index.js';
import {
  encodeError,
  encodeResult,
  getTool,
  PROTOCOL_VERSION,
  type Observation,
  type ToolArgs,
  type ToolName,
  type ToolResult,
} from '../../protocol/index.js';
import { observationOf } from './elements.js';
import { envelopeOf, fail } from './errors.js';
import type { CompanionHub } from './hub.js';
import type { Answer, Request } from './messages.js';
import type { Phone } from './phone.js';
import { currentInstance, newSpace, takePhone, type CompanionSpace } from './spaces.js';

export interface CompanionSessionOptions {
  /** Which phone this run takes (default: any free one). */
  device?: { name?: string; id?: string };
  /** How long one request may wait for the phone's answer (default 10 s). */
  requestTimeoutMs?: number;
  /** How long space_create waits for a free phone (default 30 s). */
  phoneWaitMs?: number;
}

type Handler<N extends ToolName> = (args: ToolArgs<N>) => Promise<ToolResult<N>>;
type Handlers = { [N in ToolName]?: Handler<N> };

/**
 * The device protocol for one client session, served from the phones that dialled in to the
 * hub: observations from `get_screen`, actions as the companion's messages (the phone acts on the
 * node at the point first and falls back to a gesture, as its design says), screenshots from the
 * design's `get_screenshot`. A space is one phone held by this session; what a companion cannot
 * do (install, several instances, clearing data, logcat) is NOT_SUPPORTED or the weaker isolation
 * docs/devices.md describes.
 */
export class CompanionToolTransport implements ToolTransport {
  readonly sessionId = undefined;
  private spaces = new Map<string, CompanionSpace>();
  private snapshots = new Map<string, Observation>();
  private snapshotCount = 0;
  private instanceCount = 0;

  constructor(
    private readonly hub: CompanionHub,
    private readonly session: string,
    private readonly opts: CompanionSessionOptions = {},
  ) {}

  async callTool(name: string, args: Record<string, unknown>): Promise<CallResult> {
    const handler = (this.handlers as Record<string, ((a: unknown) => Promise<unknown>) | undefined>)[name];
    const tool = getTool(name);
    try {
      if (!handler || !tool)
        throw fail(
          'NOT_SUPPORTED',
          `${name} is not available through the companion provider${tool?.extension ? ` (it does not offer the ${tool.group ?? tool.name} extension)` : ''}`,
          {
            hint: 'A companion phone offers observation, actions, screenshots and launching (docs/devices.md#companion); use the nestspace provider for the rest.',
          },
        );
      const parsed = tool.input.safeParse(args);
      if (!parsed.success)
        throw fail('INVALID_ARGUMENT', `${name}: ${parsed.error.issues[0]?.message ?? 'bad arguments'}`);
      return encodeResult(tool, (await handler(parsed.data)) as Record<string, unknown>);
    } catch (e) {
      return encodeError(envelopeOf(name, e));
    }
  }

  async close(): Promise<void> {
    this.spaces.clear();
    this.hub.release(this.session);
  }

  private space(id: string): CompanionSpace {
    const s = this.spaces.get(id);
    if (!s)
      throw fail('SPACE_NOT_FOUND', `no space ${id} in this companion session`, {
        hint: 'Create one with space_create.',
      });
    return s;
  }

  private get timeout(): number {
    return this.opts.requestTimeoutMs ?? 10_000;
  }

  /** One action the phone answers with `result`; a failed one is an error naming the phone's reason. */
  private async act(
    phone: Phone,
    tool: string,
    req: Request,
    timeoutMs = this.timeout,
  ): Promise<Answer & { type: 'result' }> {
    const a = await phone.request(req, timeoutMs);
    if (a.type !== 'result')
      throw fail('PROTOCOL_ERROR', `${tool}: the phone answered ${req.type} with ${a.type}, not result`);
    // The phone answers with text only: classified here, once, into the code everything above reads.
    // `unsupported: <action>` is how the app refuses an action it does not know.
    if (!a.success)
      throw fail(
        /^unsupported\b/i.test(a.error ?? '')
          ? 'NOT_SUPPORTED'
          : /not found|no focused/i.test(a.error ?? '')
            ? 'NODE_NOT_FOUND'
            : 'INTERNAL',
        `${tool}: the phone could not ${req.type}: ${a.error ?? 'no reason given'}`,
        {
          hint: /accessibility service not running/i.test(a.error ?? '')
            ? "Turn the companion's accessibility service on (Settings › Accessibility)."
            : undefined,
        },
      );
    return a;
  }

  private async observe(spaceId: string, detail: 'compact' | 'full', maxNodes: number): Promise<Observation> {
    const space = this.space(spaceId);
    const a = await space.phone.request({ type: 'get_screen' }, this.timeout);
    if (a.type !== 'screen')
      throw fail('PROTOCOL_ERROR', `ui_observe: the phone answered get_screen with ${a.type}, not screen`);
    const inst = space.current ? space.instances.get(space.current) : undefined;
    const pkg = a.packageName ?? null;
    const info = space.phone.info;
    const obs = observationOf(a.elements, {
      snapshotId: `c_${++this.snapshotCount}`,
      spaceId,
      instance: inst && pkg === inst.pkg ? inst.id : null,
      packageName: pkg,
      screen: screenOf(
        info.screenWidth,
        info.screenHeight,
        a.elements.map((e) => e.bounds),
      ),
      detail,
      maxNodes,
    });
    this.snapshots.set(obs.snapshot_id, obs);
    if (this.snapshots.size > 32) this.snapshots.delete(this.snapshots.keys().next().value!);
    return obs;
  }

  /** Where an action lands: a node's center (of a snapshot still held), bounds' center, a text's node, or a point. */
  private async point(
    tool: string,
    a: { space_id: string; node_id?: string; snapshot_id?: string; bounds?: number[]; point?: number[]; text?: string },
  ): Promise<[number, number]> {
    let b = a.bounds;
    if (a.node_id) {
      const snap = a.snapshot_id ? this.snapshots.get(a.snapshot_id) : [...this.snapshots.values()].pop();
      const node = snap?.nodes.find((n) => n.id === a.node_id);
      if (!node)
        throw fail('SNAPSHOT_STALE', `${tool}: node ${a.node_id} is not in a snapshot this provider still holds`, {
          hint: 'Observe again.',
        });
      b = node.bounds;
    } else if (a.text !== undefined) {
      const obs = await this.observe(a.space_id, 'compact', 5000);
      const node = obs.nodes.find((n) => n.text === a.text || n.desc === a.text);
      if (!node) throw fail('NODE_NOT_FOUND', `${tool}: no node shows ${JSON.stringify(a.text)}`);
      b = node.bounds;
    }
    if (a.point) return [Math.round(a.point[0]!), Math.round(a.point[1]!)];
    return [Math.round((b![0]! + b![2]!) / 2), Math.round((b![1]! + b![3]!) / 2)];
  }

  /**
   * A new instance starts from cleared data where the phone can (`clear_data`); a phone that does
   * not answer it within 2 s (an app that ignores unknown messages) or refuses it (`unsupported:
   * clear_data`, how the published app answers an action it does not know) is remembered as one
   * that cannot, and its tests share the app's data (docs/devices.md#companion).
   */
  private async clearData(phone: Phone, pkg: string): Promise<void> {
    if (phone.canClear === false) return;
    try {
      await this.act(
        phone,
        'space_launch',
        { type: 'clear_data', packageName: pkg },
        phone.canClear ? this.timeout : 2_000,
      );
      phone.canClear = true;
    } catch (e) {
      const code = (e as { envelope?: { code?: string } }).envelope?.code;
      if ((code !== 'TIMEOUT' && code !== 'NOT_SUPPORTED') || phone.canClear) throw e;
      phone.canClear = false;
    }
  }

  private launchInstance(
    space: CompanionSpace,
    pkg: string,
    wanted: string | undefined,
  ): { id: string; cold: boolean } {
    if (wanted && wanted !== 'new' && !space.instances.has(wanted))
      throw fail('INSTANCE_NOT_FOUND', `space_launch: no instance ${wanted} of ${pkg}`);
    const have = [...space.instances.values()].find((i) => i.pkg === pkg);
    if (wanted === 'new' && have)
      throw fail(
        'NOT_SUPPORTED',
        `space_launch: a phone holds one copy of ${pkg}; a second instance needs the nestspace provider`,
        {
          hint: 'docs/devices.md#companion: one app per phone.',
        },
      );
    if (have) return { id: have.id, cold: have.state === 'stopped' };
    const id = `c${++this.instanceCount}`;
    space.instances.set(id, { id, pkg, state: 'stopped' });
    return { id, cold: true };
  }

  private readonly handlers: Handlers = {
    runtime_info: async () => {
      const phones = [...this.hub.phones.values()];
      const first = phones.find((p) => p.online) ?? phones[0];
      return {
        protocol_version: PROTOCOL_VERSION,
        runtime: { name: 'companion (one app per phone)', version: '1', kind: 'device' as const },
        device: {
          model: first ? `${first.info.manufacturer} ${first.info.model}`.trim() : 'no phone connected yet',
          sdk_int: 0,
          abis: [],
          page_size: 4096 as const,
          screen: { width: first?.info.screenWidth ?? 0, height: first?.info.screenHeight ?? 0, density: 0 },
        },
        capabilities: {
          virtual_displays: false,
          process_slots: 1,
          channels: ['accessibility' as const],
          shell_enabled: false,
        },
        extensions: ['instance', 'runtime_info'],
        tools: Object.keys(this.handlers),
      };
    },
    space_create: async (a) => {
      const phone = await takePhone(this.hub, this.session, this.opts.device, this.opts.phoneWaitMs ?? 30_000);
      const s = newSpace(a.name, phone);
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
    session_acquire: async (a) => ({
      lease_id: `lease_${a.space_id}`,
      space_id: this.space(a.space_id).id,
      owner: a.caller,
      session_id: this.session,
      mode: a.mode,
      expires_at: Date.now() + a.ttl_ms,
    }),
    session_release: async () => ({ released: [] }),
    space_delete: async (a) => {
      const s = this.space(a.space_id);
      this.spaces.delete(s.id);
      this.hub.release(this.session, s.phone);
      return { ok: true as const };
    },
    space_install_apk: async (a) => {
      // The companion cannot install: the package must be on the phone already. The APK says which.
      const info = await inspectApk(a.apk_paths).catch((e: Error) => {
        throw fail('INVALID_APK', `space_install_apk: ${e.message}`);
      });
      return {
        package: info.package,
        label: info.label ?? info.package,
        version_code: info.versionCode,
        version_name: info.versionName,
        outcome: 'unchanged' as const,
        preflight: {
          installable: true,
          package: info.package,
          version_code: info.versionCode,
          checks: [
            {
              code: 'INVALID_APK' as const,
              status: 'ok' as const,
              message: 'Read; a companion phone cannot install, so the app must already be on the phone.',
            },
          ],
        },
      };
    },
    space_launch: async (a) => {
      const space = this.space(a.space_id);
      if (a.activity)
        throw fail(
          'NOT_SUPPORTED',
          `space_launch: a companion phone starts ${a.package} at its launcher activity only, not ${a.activity}`,
          {
            hint: 'Navigate to the screen in the test, or open it with a deep link (app.openLink / app_intent with data).',
          },
        );
      const { id, cold } = this.launchInstance(space, a.package, a.instance);
      if (cold && !space.instances.get(id)!.launched) await this.clearData(space.phone, a.package);
      space.instances.get(id)!.launched = true;
      await this.act(space.phone, 'space_launch', { type: 'launch', packageName: a.package });
      space.instances.get(id)!.state = 'foreground';
      for (const other of space.instances.values())
        if (other.id !== id && other.state === 'foreground') other.state = 'background';
      space.current = id;
      return {
        package: a.package,
        instance: id,
        activity: '',
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
      if (a.clear_data && targets.length)
        throw fail('NOT_SUPPORTED', `space_stop: a companion phone cannot clear ${a.package}'s data`, {
          hint: "docs/devices.md#companion: tests on a companion phone share the app's data; set up the state each test needs.",
        });
      // The companion cannot stop an app: it goes to the background (home), which is what a user can do.
      if (targets.some((t) => t.id === space.current)) await this.act(space.phone, 'space_stop', { type: 'home' });
      for (const t of targets) {
        t.state = 'stopped';
        if (a.remove_instance) space.instances.delete(t.id);
        if (space.current === t.id) space.current = null;
      }
      return { stopped: targets.map((i) => `${i.pkg}@${i.id}`) };
    },
    space_list_apps: async (a) => {
      const space = this.space(a.space_id);
      return {
        apps: [...space.instances.values()].map((i) => ({
          package: i.pkg,
          label: i.pkg,
          version_code: 0,
          version_name: null,
          system: false,
          instances: [{ instance: i.id, state: i.state, slot: null, activity: null }],
        })),
      };
    },
    ui_observe: async (a) => this.observe(a.space_id, a.detail, a.max_nodes),
    ui_tap: async (a) => {
      const [x, y] = await this.point('ui_tap', a);
      await this.act(this.space(a.space_id).phone, 'ui_tap', { type: 'tap', x, y });
      return { ok: true as const, method: a.node_id ? ('node' as const) : ('gesture' as const), node: null };
    },
    ui_long_press: async (a) => {
      const [x, y] = await this.point('ui_long_press', a);
      await this.act(this.space(a.space_id).phone, 'ui_long_press', { type: 'longpress', x, y });
      return { ok: true as const, method: 'gesture' as const, node: null };
    },
    ui_swipe: async (a) => {
      const [x1, y1] = a.from;
      const [x2, y2] = a.to;
      await this.act(this.space(a.space_id).phone, 'ui_swipe', {
        type: 'swipe',
        x1,
        y1,
        x2,
        y2,
        duration: a.duration_ms,
      });
      return { ok: true as const };
    },
    ui_scroll: async (a) => {
      const space = this.space(a.space_id);
      // The screen before is the last one observed (callers observe before scrolling), else a new one.
      const last = [...this.snapshots.values()].reverse().find((o) => o.space_id === a.space_id);
      const before =
        last && (!a.node_id || last.nodes.some((n) => n.id === a.node_id))
          ? last
          : await this.observe(a.space_id, 'full', 5000);
      const area = (b: number[]) => (b[2]! - b[0]!) * (b[3]! - b[1]!);
      const list = a.node_id
        ? (this.snapshots.get(a.snapshot_id ?? '') ?? before).nodes.find((n) => n.id === a.node_id)
        : before.nodes.filter((n) => n.scrollable).sort((p, q) => area(q.bounds) - area(p.bounds))[0];
      if (!list) return { ok: true as const, moved: false };
      const [l, t, r, b] = list.bounds;
      const cx = Math.round((l + r) / 2);
      const cy = Math.round((t + b) / 2);
      // A swipe of 0.8 of the list per page (as ACTION_SCROLL_FORWARD moves, less a little
      // overlap), starting and ending inside it; an amount over one page is several swipes.
      const pages = Math.max(1, Math.ceil(a.amount));
      const dy = Math.round(((b - t) * 0.4 * a.amount) / pages);
      const dx = Math.round(((r - l) * 0.4 * a.amount) / pages);
      // The finger moves against the direction the content scrolls to.
      const [x1, y1, x2, y2] =
        a.direction === 'down'
          ? [cx, cy + dy, cx, cy - dy]
          : a.direction === 'up'
            ? [cx, cy - dy, cx, cy + dy]
            : a.direction === 'right'
              ? [cx + dx, cy, cx - dx, cy]
              : [cx - dx, cy, cx + dx, cy];
      for (let i = 0; i < pages; i++)
        await this.act(space.phone, 'ui_scroll', { type: 'swipe', x1, y1, x2, y2, duration: 300 });
      const after = await this.observe(a.space_id, 'full', 5000);
      return { ok: true as const, moved: after.screen_hash !== before.screen_hash };
    },
    ui_set_text: async (a) => {
      const phone = this.space(a.space_id).phone;
      const [x, y] = await this.point('ui_set_text', a);
      // The companion types into the focused field (ACTION_SET_TEXT replaces its text): focus it first.
      await this.act(phone, 'ui_set_text', { type: 'tap', x, y });
      await this.act(phone, 'ui_set_text', a.text ? { type: 'type', text: a.text } : { type: 'clear' });
      if (a.submit) await this.act(phone, 'ui_set_text', { type: 'enter' });
      return { ok: true as const, method: 'node' as const, node: null };
    },
    ui_key: async (a) => {
      const phone = this.space(a.space_id).phone;
      const own = a.key === 'back' || a.key === 'home' || a.key === 'enter' || a.key === 'notifications';
      await this.act(phone, 'ui_key', own ? { type: a.key as 'back' } : { type: 'keyevent', code: KEYCODES[a.key] });
      return { ok: true as const };
    },
    ui_screenshot: async (a) => {
      const phone = this.space(a.space_id).phone;
      const answer = await phone.request({ type: 'get_screenshot' }, this.timeout).catch((e: unknown) => {
        throw (e as { envelope?: { code?: string } }).envelope?.code === 'TIMEOUT'
          ? fail('NOT_SUPPORTED', `ui_screenshot: the phone ${phone.name} does not answer get_screenshot`, {
              hint: 'The published companion app sends a picture only with an empty tree; screenshots need a companion that answers get_screenshot (docs/devices.md#companion).',
            })
          : e;
      });
      if (answer.type !== 'screenshot' || !answer.image)
        throw fail(
          'CHANNEL_UNAVAILABLE',
          `ui_screenshot: the phone ${phone.name} sent no picture: ${answer.type === 'screenshot' ? (answer.error ?? 'no image') : answer.type}`,
          {
            details: { reason: answer.type === 'screenshot' ? (answer.error ?? 'no_image') : 'unexpected_answer' },
            hint:
              answer.type === 'screenshot' && answer.error === 'secure_window'
                ? 'The app in front sets FLAG_SECURE: Android blanks its pictures.'
                : 'Grant the companion screen capture (MediaProjection) on the phone.',
          },
        );
      return pngOf(Buffer.from(answer.image, 'base64'), a.scale);
    },
    app_intent: async (a) => {
      const space = this.space(a.space_id);
      const inst = currentInstance(space, 'app_intent');
      const pkg = a.package ?? inst.pkg;
      if (a.action && a.action !== 'android.intent.action.VIEW')
        await this.act(space.phone, 'app_intent', {
          type: 'intent',
          intentAction: a.action,
          ...(a.data ? { intentUri: a.data } : {}),
          packageName: pkg,
        });
      else if (a.data)
        await this.act(space.phone, 'app_intent', { type: 'launch', packageName: pkg, intentUri: a.data });
      else throw fail('INVALID_ARGUMENT', 'app_intent: give data (a URI) or an action');
      return { resolved: { package: pkg, activity: '', instance: inst.id } };
    },
  };
}

/** The screen's size: the phone's own figures, else the largest extent of the tree's bounds. */
function screenOf(width: number, height: number, bounds: string[]): { width: number; height: number } {
  if (width > 0 && height > 0) return { width, height };
  let w = 0;
  let h = 0;
  for (const b of bounds) {
    const m = /\]\[(-?\d+),(-?\d+)\]$/.exec(b);
    if (m) [w, h] = [Math.max(w, Number(m[1])), Math.max(h, Number(m[2]))];
  }
  return { width: w, height: h };
}

/**
 * The companion's JPEG as the protocol's PNG, scaled; a frame that is black all over (FLAG_SECURE
 * blanks the window) is reported as `secure_window`, as the design asks.
 */
async function pngOf(jpeg: Buffer, scale: number): Promise<ToolResult<'ui_screenshot'>> {
  const img = sharp(jpeg);
  const meta = await img.metadata();
  const stats = await sharp(jpeg).stats();
  if (stats.channels.slice(0, 3).every((c) => c.max <= 8))
    throw fail(
      'CHANNEL_UNAVAILABLE',
      'ui_screenshot: the picture is black: the window in front is secure (FLAG_SECURE)',
      {
        details: { reason: 'secure_window' },
        hint: 'Android blanks pictures of secure windows; assert on the tree there instead.',
      },
    );
  const width = Math.max(1, Math.round((meta.width ?? 1) * scale));
  const png = await img.resize({ width }).png().toBuffer();
  return {
    mime: 'image/png' as const,
    data: png.toString('base64'),
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    sha256: createHash('sha256').update(png).digest('hex'),
    snapshot_id: null,
  };
}
