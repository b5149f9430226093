import { test, expect } from '@playwright/test';
import { startSimServer, type RunningSim } from '../../device-runtime/sim/server.js';
import { connect } from './helpers.js';

/**
 * Abort listeners must not pile up with calls. The MCP SDK gives every request of a transport the
 * same long-lived AbortSignal, and fetch lets go of its listener on it only when the request is
 * garbage-collected; a client that passed it through gathered one listener per call (hundreds of
 * MaxListenersExceededWarning lines in a bench run). Counted here on the signals themselves,
 * not from warnings, which Node prints once per signal and only past a threshold.
 */
let sim: RunningSim;
test.beforeAll(async () => {
  sim = await startSimServer({});
});
test.afterAll(async () => {
  await sim?.close();
});

test('abort listeners do not grow with calls', async () => {
  const live = new Map<EventTarget, number>();
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: never[]) {
    if (type === 'abort' && this instanceof AbortSignal) live.set(this, (live.get(this) ?? 0) + 1);
    return add.call(this, type, ...(rest as [never, never]));
  } as typeof add;
  EventTarget.prototype.removeEventListener = function (this: EventTarget, type: string, ...rest: never[]) {
    if (type === 'abort' && this instanceof AbortSignal && live.has(this)) live.set(this, live.get(this)! - 1);
    return remove.call(this, type, ...(rest as [never, never]));
  } as typeof remove;
  try {
    const client = await connect(sim);
    const { space_id } = await client.call('space_create', { name: 'listeners' });
    for (let i = 0; i < 100; i++) await client.call(i % 2 ? 'space_list' : 'space_status', i % 2 ? {} : { space_id });
    const most = Math.max(...live.values());
    expect(most, `a signal holds ${most} abort listeners after 100 calls`).toBeLessThan(10);
  } finally {
    EventTarget.prototype.addEventListener = add;
    EventTarget.prototype.removeEventListener = remove;
  }
});
