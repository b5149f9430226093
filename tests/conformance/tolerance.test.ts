import { test, expect } from '@playwright/test';
import { DeviceClient, DeviceError, McpToolTransport, protocolMismatch } from '../../device-runtime/client/index.js';
import { PROTOCOL_VERSION, TOOLS } from '../../device-runtime/protocol/index.js';
import { inMemoryTransport } from '../../device-runtime/sim/mcp.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import { outputJsonSchema } from '../../device-runtime/protocol/json-schema.js';
import { apk, NOTES } from '../runtime/helpers.js';
import { wrapTransport, type Rewrite } from './wrap.js';

let rt: SimRuntime;
let n = 0;
test.beforeEach(() => {
  rt = new SimRuntime();
});
test.afterEach(() => rt.close());

async function client(rw: Rewrite): Promise<DeviceClient> {
  return new DeviceClient(wrapTransport(await McpToolTransport.connect(await inMemoryTransport(rt, `tol-${++n}`)), rw));
}

test('a result with fields the protocol does not know is accepted and keeps them, at every depth', async () => {
  const c = await client({
    result: (name, body) => {
      if (name !== 'ui_observe') return body;
      const nodes = (body.nodes as Record<string, unknown>[]).map((node) => ({ ...node, elevation: 3 }));
      return { ...body, nodes, frame_rate: 60 };
    },
  });
  const { space_id } = await c.call('space_create', {});
  await c.call('session_acquire', { space_id });
  await c.call('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
  await c.call('space_launch', { space_id, package: NOTES });
  const obs = await c.call('ui_observe', { space_id });
  expect((obs as Record<string, unknown>).frame_rate).toBe(60);
  expect(obs.nodes.length).toBeGreaterThan(0);
  for (const node of obs.nodes) expect((node as Record<string, unknown>).elevation).toBe(3);
  // Known fields are still the parsed ones.
  expect(obs.space_id).toBe(space_id);
  await c.close();
});

test('a newer minor protocol version works; an older one or another major one is refused at connect, both versions named', async () => {
  const [major, minor] = PROTOCOL_VERSION.split('.').map(Number) as [number, number];
  const as = (v: string): Rewrite => ({
    result: (name, body) => (name === 'runtime_info' ? { ...body, protocol_version: v } : body),
  });
  const newer = await client(as(`${major}.${minor + 1}`));
  expect((await newer.info())?.protocol_version).toBe(`${major}.${minor + 1}`);
  await newer.close();
  for (const v of [`${major + 1}.0`, ...(minor > 0 ? [`${major}.${minor - 1}`] : [`${major - 1}.9`])]) {
    const c = await client(as(v));
    const err = await c.info().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DeviceError);
    expect((err as DeviceError).code).toBe('PROTOCOL_ERROR');
    expect((err as DeviceError).message).toContain(v);
    expect((err as DeviceError).message).toContain(PROTOCOL_VERSION);
    await c.close();
  }
  expect(protocolMismatch('1.7', '1.2')).toBeNull();
  expect(protocolMismatch('banana', '1.0')).toMatch(/not MAJOR\.MINOR/);
});

test('a result without a required field fails naming the tool, the field and the runtime version, with the conformance kit as the hint', async () => {
  const c = await client({
    result: (name, body) => {
      if (name !== 'space_status') return body;
      const { running: _gone, ...rest } = body;
      return rest;
    },
  });
  const info = await c.info();
  const { space_id } = await c.call('space_create', {});
  const err = (await c.call('space_status', { space_id }).then(
    () => null,
    (e: unknown) => e,
  )) as DeviceError;
  expect(err).toBeInstanceOf(DeviceError);
  expect(err.code).toBe('PROTOCOL_ERROR');
  expect(err.message).toContain('space_status');
  expect(err.message).toContain('missing required field result.running');
  expect(err.message).toContain(`protocol ${info!.protocol_version}`);
  expect(err.message).toContain(info!.runtime.version);
  expect(err.hint).toContain('nestwright conformance');
  await c.close();
});

test("the tolerance is the client's alone: the schemas still strip unknown keys, and the MCP output schemas are unchanged", () => {
  const parsed = TOOLS.space_list.result.parse({ spaces: [], extra: 1 });
  expect(parsed).not.toHaveProperty('extra');
  const schema = outputJsonSchema(TOOLS.space_list) as { additionalProperties?: unknown };
  expect(schema.additionalProperties).toBe(false);
});
