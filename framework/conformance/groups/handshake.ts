import { protocolMismatch } from '../../../device-runtime/client/index.js';
import { PROTOCOL_VERSION, RuntimeInfoSchema, describeIssues } from '../../../device-runtime/protocol/index.js';
import { expectThat, type Check } from '../check.js';
import { short } from '../session.js';

/** The tools a nestwright run calls on every runtime (the tools group checks each one's answer). */
export const CORE_TOOLS = [
  'space_list',
  'space_create',
  'space_install_apk',
  'space_list_apps',
  'space_launch',
  'space_stop',
  'space_status',
  'ui_observe',
  'ui_screenshot',
  'ui_tap',
  'ui_set_text',
  'ui_key',
  'sys_logcat',
  'session_acquire',
  'session_release',
  'session_status',
] as const;

/** The handshake: runtime_info, its protocol version, the tools it lists. */
export const handshakeChecks: Check[] = [
  {
    id: 'handshake.runtime_info',
    group: 'handshake',
    title: 'runtime_info answers, valid against its schema',
    section: '§5.3 (MCP server); runtime_info is an extension: docs/protocol.md#runtime_info',
    expects: 'runtime_info returns protocol_version, runtime, device, capabilities, extensions and tools',
    fix: 'Implement runtime_info with every field of RuntimeInfoSchema (device-runtime/protocol/tools/runtime.ts).',
    required: true,
    async run(ctx) {
      const a = await ctx.main.call('runtime_info', {});
      expectThat(a.ok, a.ok ? '' : `${a.error.code}: ${a.error.message}`);
      const r = RuntimeInfoSchema.safeParse(a.body);
      expectThat(r.success, r.success ? '' : describeIssues(r.error, 'result'));
      return { status: 'pass', sent: ['runtime_info {}'], received: short(a.body, 200) };
    },
  },
  {
    id: 'handshake.protocol_version',
    group: 'handshake',
    title: `protocol_version is ${PROTOCOL_VERSION.split('.')[0]}.x, at least ${PROTOCOL_VERSION}`,
    section: '§5.3 (MCP server); docs/protocol.md#runtime_info',
    expects: `the same major version as this client (${PROTOCOL_VERSION}) and a minor one at least its`,
    fix: 'Report the protocol version the runtime implements as MAJOR.MINOR; a client refuses another major or an older minor version at connect.',
    required: true,
    async run(ctx) {
      const v = String(ctx.info?.protocol_version ?? '');
      const mismatch = protocolMismatch(v);
      expectThat(!mismatch, mismatch ?? '');
      return { status: 'pass', sent: ['runtime_info {}'], received: `protocol_version ${v}` };
    },
  },
  {
    id: 'handshake.tools_listed',
    group: 'handshake',
    title: 'runtime_info.tools lists every tool nestwright calls',
    section: '§5.7 (tool list)',
    expects: `tools include ${CORE_TOOLS.join(', ')}`,
    fix: 'Register each missing tool on the MCP server and list it in runtime_info.tools.',
    required: true,
    async run(ctx) {
      const tools = new Set((ctx.info?.tools as string[] | undefined) ?? []);
      const missing = CORE_TOOLS.filter((t) => !tools.has(t));
      expectThat(missing.length === 0, `missing: ${missing.join(', ')}`);
      return { status: 'pass', sent: ['runtime_info {}'], received: `${tools.size} tools listed` };
    },
  },
];
