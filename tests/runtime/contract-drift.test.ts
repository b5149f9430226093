import { test, expect } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOOL_LIST, TOOL_NAMES, ExtensionSchema } from '../../device-runtime/protocol/index.js';
import { handlers } from '../../device-runtime/sim/handlers/index.js';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { DeviceClient, DeviceError, type ToolTransport } from '../../device-runtime/client/index.js';
import { runtime, session } from './helpers.js';

/**
 * The protocol is the contract: every tool has a simulator handler, is callable through the
 * client, has a title whose placeholders it can fill, and is what tools/list shows over MCP.
 */
test('every protocol tool has a simulator handler, and every handler is a protocol tool', () => {
  const handled = Object.keys(handlers).sort();
  expect(
    TOOL_NAMES.filter((n) => !(n in handlers)),
    'tools without a handler',
  ).toEqual([]);
  expect(
    handled.filter((n) => !TOOL_NAMES.includes(n as never)),
    'handlers that are not protocol tools',
  ).toEqual([]);
});

test('every tool of the NestSpace design (docs/protocol.md#tools) is in the protocol', () => {
  const designed = [
    ...[
      'space_list',
      'space_create',
      'space_delete',
      'space_install_apk',
      'space_uninstall',
      'space_list_apps',
      'space_launch',
      'space_stop',
      'space_status',
    ],
    ...[
      'ui_observe',
      'ui_screenshot',
      'ui_tap',
      'ui_long_press',
      'ui_swipe',
      'ui_scroll',
      'ui_set_text',
      'ui_key',
      'ui_wait_for',
      'ui_find',
    ],
    ...['app_intent', 'sys_shell', 'sys_logcat', 'sys_clipboard_get', 'sys_clipboard_set'],
    ...['appfn_status', 'appfn_list', 'appfn_execute'],
    ...['session_acquire', 'session_release', 'session_status', 'approval_request', 'approval_wait'],
    ...['task_run', 'task_status', 'task_cancel', 'skill_list', 'skill_run', 'trajectory_get'],
  ];
  expect(designed.filter((n) => !TOOL_NAMES.includes(n as never))).toEqual([]);
  // Whatever is not in the design is declared an extension (DESIGN.md: discoverable at run time).
  const extra = TOOL_LIST.filter((t) => !designed.includes(t.name) && !t.extension).map((t) => t.name);
  expect(extra, 'tools beyond the NestSpace design not flagged extension').toEqual([]);
});

test('every tool has a title template whose placeholders are input fields, target or condition', () => {
  for (const tool of TOOL_LIST) {
    expect(tool.title, `${tool.name} title`).not.toBe('');
    const fields = Object.keys(tool.input.shape);
    for (const [, key] of tool.title.matchAll(/\{(\w+)\}/g)) {
      expect(['target', 'condition', ...fields], `${tool.name}: placeholder {${key}}`).toContain(key);
    }
  }
});

test('every tool is reachable through DeviceClient: the call is validated and sent, never refused as unknown', async () => {
  const sent: string[] = [];
  // A transport that records and answers NOT_SUPPORTED: the client must get as far as sending.
  const transport: ToolTransport = {
    async callTool(name) {
      sent.push(name);
      return {
        isError: true,
        structuredContent: { error: { code: 'NOT_SUPPORTED', message: 'recorded', retryable: false, hint: null } },
      };
    },
    async close() {},
  };
  const client = new DeviceClient(transport);
  for (const name of TOOL_NAMES) {
    const e = await client.call(name, {} as never).catch((x: unknown) => x);
    expect(e, name).toBeInstanceOf(DeviceError);
    expect((e as DeviceError).code, `${name}: ${(e as Error).message}`).not.toBe('UNKNOWN_TOOL');
  }
  // Tools whose input has no required field reach the transport.
  expect(sent).toContain('space_list');
  expect(sent).toContain('runtime_info');
});

test('runtime_info tells the truth: its tools are the protocol tools and every extension tool is listed', async () => {
  const rt = runtime();
  const info = await session(rt, 's').ok('runtime_info', {});
  expect(info.tools.sort()).toEqual([...TOOL_NAMES].sort());
  // A tool of a family (the world_* tools) is listed under the family's name.
  for (const t of TOOL_LIST.filter((t) => t.extension)) expect(info.extensions).toContain(t.group ?? t.name);
  for (const e of info.extensions) expect(ExtensionSchema.options).toContain(e);
  expect(info.capabilities.virtual_displays).toBe(true);
});

test('tools/list over MCP lists exactly the protocol tools, with their input schemas', async () => {
  const sim = await startSimServer();
  try {
    const client = new Client({ name: 'drift', version: '0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(sim.url), {
        requestInit: { headers: { Authorization: `Bearer ${sim.token}` } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const t of tools) expect(t.inputSchema.type, t.name).toBe('object');
    await client.close();
  } finally {
    await sim.close();
  }
});

test('every tool declares its error codes, all from the closed set', async () => {
  const { TOOL_ERRORS, errorCodesOf, ErrorCodeSchema } = await import('../../device-runtime/protocol/index.js');
  expect(Object.keys(TOOL_ERRORS).sort()).toEqual([...TOOL_NAMES].sort());
  for (const name of TOOL_NAMES)
    for (const c of errorCodesOf(name)) expect(ErrorCodeSchema.options, `${name}: ${c}`).toContain(c);
  expect(errorCodesOf('space_install_apk')).toEqual(
    expect.arrayContaining(['SIGNATURE_MISMATCH', 'LEASE_REQUIRED', 'APPROVAL_REQUIRED', 'SPACE_NOT_FOUND']),
  );
  expect(errorCodesOf('space_list')).not.toContain('SPACE_NOT_FOUND');
});
