import { test, expect } from '@playwright/test';
import { DeviceClient, McpToolTransport } from '../../device-runtime/client/index.js';
import { inMemoryTransport } from '../../device-runtime/sim/mcp.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';

test('the same protocol in memory: calls, errors, and closing ends the session', async () => {
  const rt = new SimRuntime();
  const client = new DeviceClient(await McpToolTransport.connect(await inMemoryTransport(rt, 'mem-1')));
  const { space_id } = await client.call('space_create', {});
  const lease = await client.call('session_acquire', { space_id });
  expect(lease.session_id).toBe('mem-1');
  await expect(client.call('space_status', { space_id: 'nope' })).rejects.toMatchObject({ code: 'SPACE_NOT_FOUND' });
  await client.close();
  expect(rt.leases.exclusiveHolder(space_id)).toBeUndefined();
  rt.close();
});
