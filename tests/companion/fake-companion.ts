import sharp from 'sharp';
import { WebSocket } from 'ws';
import type { UiNode } from '../../device-runtime/protocol/index.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';

/** What the fake phone does wrong on purpose (the edges the companion's design lists). */
export interface Edges {
  /** Answer this many get_screen requests with an empty tree (a transition), then the real one. */
  nullTrees?: number;
  /** The app in front is secure: pictures come back black. */
  secure?: boolean;
  /** Every answer waits this long. */
  slowMs?: number;
  /** Answer nothing (a hung phone): requests time out. */
  silent?: boolean;
}

export interface FakeCompanionOptions {
  url: string;
  key: string;
  /** The name the phone reports (its identity across reconnects). */
  name?: string;
  /** APKs "installed" on the phone. */
  apks?: string[];
  /** 'published': answers the companion app's messages; 'design' also takes `execute` and `get_screenshot`. */
  dialect?: 'published' | 'design';
  /**
   * Answer `clear_data` (a companion that can reset an app); the published app cannot. `'refuses'`:
   * answer it `{ success: false, error: 'unsupported: clear_data' }`, as an app answers an action it does not know.
   */
  canClear?: boolean | 'refuses';
  edges?: Edges;
}

const KEYS: Record<number, string> = {
  4: 'back',
  3: 'home',
  66: 'enter',
  67: 'delete',
  61: 'tab',
  84: 'search',
  82: 'menu',
};

/**
 * A phone running the companion, for tests: a WebSocket client (the `ws` library) that dials in,
 * authenticates, and answers as the companion app does, from a simulated device of its own in
 * this process (the simulator's screens stand in for the phone's accessibility tree; its tree
 * is turned into the app's element list as its ScreenTreeBuilder would). Messages produced while
 * the connection is down are queued and sent after it is back, as the design's queue does.
 */
export class FakeCompanion {
  readonly rt = new SimRuntime({});
  socket: WebSocket | null = null;
  deviceId: string | null = null;
  received: Array<{ type: string }> = [];
  authError: string | null = null;
  edges: Edges;
  private space = '';
  private queue: string[] = [];
  private nullTreesLeft = 0;

  constructor(readonly opts: FakeCompanionOptions) {
    this.edges = { ...opts.edges };
    this.nullTreesLeft = this.edges.nullTrees ?? 0;
  }

  async start(): Promise<this> {
    this.space = (await this.sim('space_create', {})).space_id;
    await this.sim('session_acquire', { space_id: this.space });
    for (const apk of this.opts.apks ?? [])
      await this.sim('space_install_apk', { space_id: this.space, apk_paths: [apk] });
    await this.dial();
    return this;
  }

  /** Connect until the server is up, backing off as the app does (here from 100 ms, up to `withinMs`). */
  async dial(withinMs = 60_000): Promise<string> {
    const deadline = Date.now() + withinMs;
    for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
      try {
        return await this.connect();
      } catch (e) {
        if (Date.now() + wait > deadline) throw e;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** Dial in and authenticate; resolves with auth_ok's device id, or the auth_error's message. */
  connect(key = this.opts.key): Promise<string> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.opts.url);
      this.socket = ws;
      ws.on('open', () =>
        ws.send(
          JSON.stringify({
            type: 'auth',
            apiKey: key,
            deviceInfo: {
              model: 'Pixel Sim',
              manufacturer: 'nestwright',
              androidVersion: '15',
              screenWidth: 1080,
              screenHeight: 2400,
              batteryLevel: 80,
              isCharging: true,
              ...(this.opts.name ? { name: this.opts.name } : {}),
            },
          }),
        ),
      );
      ws.on('message', (data) => {
        const msg = JSON.parse(data.toString()) as {
          type: string;
          requestId?: string;
          message?: string;
          deviceId?: string;
        };
        this.received.push(msg);
        if (msg.type === 'auth_ok') {
          this.deviceId = msg.deviceId!;
          for (const m of this.queue.splice(0)) ws.send(m);
          resolve(msg.deviceId!);
        } else if (msg.type === 'auth_error') {
          this.authError = msg.message ?? '';
          resolve(`auth_error: ${msg.message}`);
        } else void this.handle(msg as never);
      });
      ws.on('error', reject);
    });
  }

  /** The connection drops without a close handshake (a phone that loses its network). */
  drop(): void {
    this.socket?.terminate();
    this.socket = null;
  }

  sendRaw(text: string): void {
    this.socket?.send(text);
  }

  async close(): Promise<void> {
    this.socket?.close();
    this.rt.close();
  }

  private send(msg: object): void {
    const text = JSON.stringify(msg);
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
    else this.queue.push(text);
  }

  private async sim(name: string, args: object): Promise<any> {
    const r = await this.rt.call(name, args, { sessionId: 'phone', caller: 'REMOTE_MCP' });
    if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
    return r.result;
  }

  private async handle(raw: { type: string; requestId?: string; action?: { type: string } }): Promise<void> {
    if (this.edges.silent) return;
    if (this.edges.slowMs) await new Promise((r) => setTimeout(r, this.edges.slowMs));
    if (raw.type === 'ping') return this.send({ type: 'pong' });
    // The design's form: the action inside `execute`.
    const msg = (
      raw.type === 'execute' && this.opts.dialect === 'design' ? { ...raw.action, requestId: raw.requestId } : raw
    ) as {
      type: string;
      requestId: string;
      [k: string]: unknown;
    };
    if (msg.type === 'get_screen') return this.send(await this.screen(msg.requestId));
    if (msg.type === 'get_screenshot') {
      // The published app has no such message: it ignores what it does not know (no answer).
      if (this.opts.dialect !== 'design') return;
      return this.send({ type: 'screenshot', requestId: msg.requestId, image: await this.jpeg() });
    }
    if (msg.type === 'clear_data' && this.opts.canClear === 'refuses')
      return this.send({ type: 'result', requestId: msg.requestId, success: false, error: 'unsupported: clear_data' });
    if (msg.type === 'clear_data' && !this.opts.canClear) return;
    try {
      const data = await this.act(msg);
      this.send({ type: 'result', requestId: msg.requestId, success: true, ...(data !== undefined ? { data } : {}) });
    } catch (e) {
      this.send({ type: 'result', requestId: msg.requestId, success: false, error: (e as Error).message });
    }
  }

  private async act(m: { type: string; [k: string]: any }): Promise<string | undefined> {
    const space_id = this.space;
    switch (m.type) {
      case 'tap':
        await this.sim('ui_tap', { space_id, point: [m.x, m.y] });
        return;
      case 'longpress':
        await this.sim('ui_long_press', { space_id, point: [m.x, m.y] });
        return;
      case 'swipe':
        await this.sim('ui_swipe', { space_id, from: [m.x1, m.y1], to: [m.x2, m.y2], duration_ms: m.duration ?? 300 });
        return;
      case 'type':
      case 'clear': {
        const focused = (await this.sim('ui_observe', { space_id, detail: 'full' })).nodes.find(
          (n: UiNode) => n.focused && n.editable,
        );
        if (!focused)
          throw new Error(m.type === 'type' ? 'No focused editable node found' : 'No focused editable node to clear');
        await this.sim('ui_set_text', { space_id, node_id: focused.id, text: m.type === 'type' ? m.text : '' });
        return;
      }
      case 'enter':
      case 'back':
      case 'home':
        await this.sim('ui_key', { space_id, key: m.type });
        return;
      case 'keyevent':
        if (!KEYS[m.code]) throw new Error(`keyevent ${m.code} failed`);
        await this.sim('ui_key', { space_id, key: KEYS[m.code] });
        return;
      case 'launch':
        if (m.intentUri) await this.sim('app_intent', { space_id, data: m.intentUri, package: m.packageName });
        else await this.sim('space_launch', { space_id, package: m.packageName });
        return;
      case 'intent':
        await this.sim('app_intent', { space_id, action: m.intentAction, data: m.intentUri, package: m.packageName });
        return;
      case 'clear_data':
        await this.sim('space_stop', { space_id, package: m.packageName, clear_data: true });
        return;
      default:
        throw new Error(`Unknown action: ${m.type}`);
    }
  }

  /** The app's ScreenTreeBuilder over the simulator's tree: interactive or labelled nodes, text or description. */
  private async screen(requestId: string): Promise<object> {
    const obs = await this.sim('ui_observe', { space_id: this.space, detail: 'full' });
    if (this.nullTreesLeft > 0) {
      this.nullTreesLeft--;
      return { type: 'screen', requestId, elements: [], screenshot: await this.jpeg(), packageName: obs.package };
    }
    const byId = new Map<string, UiNode>(obs.nodes.map((n: UiNode) => [n.id, n]));
    const elements = (obs.nodes as UiNode[])
      .filter((n) => n.clickable || n.long_clickable || n.editable || n.scrollable || n.focused || n.text || n.desc)
      .map((n) => {
        const [l, t, r, b] = n.bounds;
        return {
          id: n.res_id ?? '',
          text: n.text || n.desc || '',
          type: (n.class ?? 'android.view.View').split('.').pop(),
          bounds: `[${l},${t}][${r},${b}]`,
          center: [((l + r) / 2) | 0, ((t + b) / 2) | 0],
          size: [r - l, b - t],
          clickable: n.clickable,
          editable: n.editable,
          enabled: n.enabled,
          checked: !!n.checked,
          focused: n.focused,
          selected: n.selected,
          scrollable: n.scrollable,
          longClickable: !!n.long_clickable,
          password: !!n.password,
          hint: n.hint ?? '',
          action: n.editable ? 'type' : n.scrollable ? 'scroll' : n.clickable ? 'tap' : 'read',
          parent: (n.parent ? byId.get(n.parent)?.class : '') ?? '',
          depth: n.depth ?? 0,
        };
      });
    return { type: 'screen', requestId, elements, screenHash: obs.screen_hash, packageName: obs.package };
  }

  /** The screen as the app sends it: JPEG, quality 50, at most 720 px wide; black when the window is secure. */
  private async jpeg(): Promise<string> {
    const shot = await this.sim('ui_screenshot', { space_id: this.space, scale: 1 });
    const png = Buffer.from(shot.data, 'base64');
    const img = this.edges.secure
      ? sharp({ create: { width: 720, height: 1600, channels: 3, background: '#000000' } })
      : sharp(png).resize({ width: 720 });
    return (await img.jpeg({ quality: 50 }).toBuffer()).toString('base64');
  }
}
