import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import {
  encodeError,
  encodeResult,
  getTool,
  inputJsonSchema,
  outputJsonSchema,
  toolError,
  TOOL_LIST,
  type ErrorCode,
  type Observation,
  type ToolName,
  type UiNode,
} from '../../device-runtime/protocol/index.js';

/**
 * A fake device for fast tests, as Maestro's FakeDriver is: an in-memory runtime that answers the
 * protocol's tools from a screen built in a few lines and records every call. It sits behind the
 * real client (`DeviceClient` over the MCP SDK's in-memory transport), and checks each call's
 * arguments and its own answers against the protocol's schemas, so a test on it exercises the
 * framework's real path to a device without the simulator. What it does not model (apps,
 * processes, animations, lists that scroll) is the simulator's job: end-to-end tests keep it.
 *
 *   const device = await fakeDevice({ screen: [field({ id: 'title' }), button('Save')] });
 *   const app = await device.launch();
 *   await app.getById('title').fill('Milk');
 *   expect(device.calls.map((c) => c.tool)).toContain('ui_set_text');
 */

/** A node as a test writes it: what it shows, and what a tap or typing does. */
export interface FakeNode {
  role: string;
  text?: string | null;
  desc?: string | null;
  /** The short resource id (`title`); the fake writes it as `<package>:id/title`. */
  id?: string;
  hint?: string | null;
  clickable?: boolean;
  editable?: boolean;
  enabled?: boolean;
  checkable?: boolean;
  checked?: boolean;
  password?: boolean;
  /** What a tap on it does to the device (e.g. `d.show([...])`); nothing when absent. */
  onTap?: (device: FakeDevice) => void;
}

export const button = (text: string, extra: Partial<FakeNode> = {}): FakeNode => ({
  role: 'button',
  text,
  clickable: true,
  ...extra,
});
export const label = (text: string, extra: Partial<FakeNode> = {}): FakeNode => ({ role: 'text', text, ...extra });
export const field = (extra: Partial<FakeNode> & { id: string }): FakeNode => ({
  role: 'textbox',
  text: '',
  editable: true,
  clickable: true,
  ...extra,
});
export const checkbox = (text: string, checked = false, extra: Partial<FakeNode> = {}): FakeNode => ({
  role: 'checkbox',
  text,
  clickable: true,
  checkable: true,
  checked,
  ...extra,
});

/** One recorded tool call: its name and its arguments as the fake received them. */
export interface FakeCall {
  tool: ToolName;
  args: Record<string, unknown>;
}

export interface FakeDeviceOptions {
  screen: FakeNode[];
  package?: string;
  activity?: string;
  /** What runtime_info advertises (default none: the framework takes its client-side paths). */
  extensions?: string[];
}

/** The tools the fake answers; the others are NOT_SUPPORTED, as on a runtime without them. */
const ANSWERS = [
  'runtime_info',
  'space_create',
  'session_acquire',
  'space_launch',
  'space_list_apps',
  'space_stop',
  'space_delete',
  'sys_logcat',
  'ui_observe',
  'ui_tap',
  'ui_long_press',
  'ui_set_text',
  'ui_key',
  'ui_scroll',
] as const;

const ROW = 120;
const WIDTH = 1080;

export class FakeDevice {
  readonly calls: FakeCall[] = [];
  readonly pkg: string;
  activity: string;
  private nodes: FakeNode[];
  private version = 1;
  /** Observations to answer with `tree_missing` before the screen shows (a transition). */
  private missing = 0;

  constructor(
    readonly client: DeviceClient,
    opts: FakeDeviceOptions,
    private readonly extensions: string[],
  ) {
    this.pkg = opts.package ?? 'com.example.fake';
    this.activity = opts.activity ?? '.MainActivity';
    this.nodes = opts.screen;
  }

  /** Show another screen (a new snapshot); `afterLooks` observations first answer a missing tree. */
  show(screen: FakeNode[], opts: { activity?: string; afterLooks?: number } = {}): void {
    this.nodes = screen;
    if (opts.activity) this.activity = opts.activity;
    this.missing = opts.afterLooks ?? 0;
    this.version++;
  }

  /** The names of the tools called, in order (`ui_observe` left out unless asked for). */
  tools(opts: { observe?: boolean } = {}): ToolName[] {
    return this.calls.map((c) => c.tool).filter((t) => opts.observe || t !== 'ui_observe');
  }

  /** The current screen as the protocol's observation. */
  observation(): Observation {
    const nodes: UiNode[] = this.nodes.map((n, i) => ({
      id: `n${i}`,
      role: n.role,
      text: n.text ?? null,
      desc: n.desc ?? null,
      bounds: [0, 200 + i * ROW, WIDTH, 200 + (i + 1) * ROW],
      clickable: n.clickable ?? false,
      editable: n.editable ?? false,
      scrollable: false,
      enabled: n.enabled ?? true,
      focused: false,
      selected: false,
      res_id: n.id ? `${this.pkg}:id/${n.id}` : null,
      ...(n.checkable ? { checkable: true, checked: n.checked ?? false } : {}),
      ...(n.password ? { password: true } : {}),
      ...(n.hint !== undefined ? { hint: n.hint } : {}),
      depth: 1,
    }));
    return {
      snapshot_id: `s${this.version}`,
      space_id: 'sp_fake',
      package: this.pkg,
      activity: this.activity,
      screen: { width: WIDTH, height: 2400, rotation: 0 },
      nodes,
      screen_hash: `h${this.version}`,
      screenshot: null,
      keyboard: null,
      timestamp_ms: Date.now(),
    };
  }

  /** Answer one call (arguments already checked against the tool's input schema). */
  answer(tool: ToolName, args: Record<string, unknown>): Record<string, unknown> {
    switch (tool) {
      case 'runtime_info':
        return {
          protocol_version: '1.0',
          runtime: { name: 'fake-device', version: '0', kind: 'simulated' },
          device: {
            model: 'fake',
            sdk_int: 34,
            abis: ['arm64-v8a'],
            page_size: 4096,
            screen: { width: WIDTH, height: 2400, density: 420 },
          },
          capabilities: { virtual_displays: true, process_slots: 4, channels: ['accessibility'], shell_enabled: false },
          extensions: this.extensions,
          tools: [...ANSWERS],
        };
      case 'space_create':
        return {
          space_id: 'sp_fake',
          name: String(args.name ?? 'fake'),
          display_id: 1,
          app_count: 0,
          foreground: null,
          created_at: Date.now(),
        };
      case 'session_acquire':
        return {
          lease_id: 'l_fake',
          space_id: 'sp_fake',
          owner: 'REMOTE_MCP',
          session_id: 'fake',
          mode: 'EXCLUSIVE',
          expires_at: Date.now() + 3_600_000,
        };
      case 'space_launch':
        return {
          package: this.pkg,
          instance: '0',
          activity: this.activity,
          slot: 0,
          cold_start: false,
          restarted_after_crash: false,
          crash_reason: null,
          evicted: null,
        };
      case 'space_list_apps':
        return {
          apps: [
            {
              package: this.pkg,
              label: 'Fake',
              version_code: 1,
              version_name: '1.0',
              system: false,
              instances: [{ instance: '0', state: 'foreground', slot: 0, activity: this.activity }],
            },
          ],
        };
      case 'space_stop':
      case 'space_delete':
      case 'ui_key':
        return { ok: true };
      case 'sys_logcat':
        return { lines: [] };
      case 'ui_observe':
        if (this.missing > 0) {
          this.missing--;
          return { ...this.observation(), nodes: [], tree_missing: true };
        }
        return this.observation();
      case 'ui_tap':
      case 'ui_long_press':
      case 'ui_set_text': {
        const { node, i } = this.target(args);
        if (tool === 'ui_set_text') {
          if (!node.editable) throw new FakeError('INVALID_ARGUMENT', `node n${i} is not editable`);
          this.nodes = this.nodes.map((n) => (n === node ? { ...n, text: String(args.text) } : n));
          this.version++;
        } else node.onTap?.(this);
        return { ok: true, method: 'node', node: this.observation().nodes[i] ?? null };
      }
      case 'ui_scroll':
        return { ok: true, moved: false };
      default:
        throw new FakeError('NOT_SUPPORTED', `the fake device does not answer ${tool}`);
    }
  }

  /** The node an action names, from the snapshot it names (SNAPSHOT_STALE when the screen changed since). */
  private target(args: Record<string, unknown>): { node: FakeNode; i: number } {
    if (args.snapshot_id !== undefined && args.snapshot_id !== `s${this.version}`)
      throw new FakeError(
        'SNAPSHOT_STALE',
        `snapshot ${String(args.snapshot_id)} is gone; the screen is s${this.version}`,
      );
    const i = Number(String(args.node_id ?? '').replace(/^n/, ''));
    const node = Number.isInteger(i) ? this.nodes[i] : undefined;
    if (!node) throw new FakeError('NODE_NOT_FOUND', `no node ${String(args.node_id)} on the screen`);
    return { node, i };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

class FakeError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A fake device behind the real client: the MCP SDK's server and client over its in-memory transport. */
export async function fakeDevice(opts: FakeDeviceOptions): Promise<FakeDevice> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = new Server({ name: 'fake-device', version: '0' }, { capabilities: { tools: {} } });
  let device: FakeDevice | null = null;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOL_LIST.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: inputJsonSchema(t) as { type: 'object' },
      outputSchema: outputJsonSchema(t) as { type: 'object' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const tool = getTool(req.params.name);
    if (!tool || !device) return encodeError(toolError('UNKNOWN_TOOL', `no tool ${req.params.name}`)) as CallToolResult;
    const args = tool.input.safeParse(req.params.arguments ?? {});
    if (!args.success) return encodeError(toolError('INVALID_ARGUMENT', args.error.message)) as CallToolResult;
    device.calls.push({ tool: tool.name as ToolName, args: args.data as Record<string, unknown> });
    try {
      // The fake's own answers are held to the protocol too: a fake that drifted from it fails here.
      const result = tool.result.safeParse(device.answer(tool.name as ToolName, args.data as Record<string, unknown>));
      if (!result.success)
        return encodeError(
          toolError(
            'PROTOCOL_ERROR',
            `the fake device's answer to ${tool.name} breaks the protocol: ${result.error.message}`,
          ),
        ) as CallToolResult;
      return encodeResult(tool, result.data as Record<string, unknown>) as CallToolResult;
    } catch (e) {
      if (e instanceof FakeError) return encodeError(toolError(e.code, e.message)) as CallToolResult;
      throw e;
    }
  });
  await server.connect(serverSide);
  const client = new DeviceClient(await McpToolTransport.connect(clientSide));
  device = new FakeDevice(client, opts, opts.extensions ?? []);
  return device;
}
