import { test, expect } from '@playwright/test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DeviceClient, DeviceError } from '../../device-runtime/client/index.js';
import { startSimServer } from '../../device-runtime/sim/server.js';
import { NOTES, apk } from '../runtime/helpers.js';
import { connect } from './helpers.js';

const SECONDS = Number(process.env.NESTWRIGHT_LOAD_SECONDS ?? 10);
const CLIENTS = 16;
const SPACES = 4;

test.describe.configure({ timeout: (SECONDS + 90) * 1000 });

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * 16 clients hammer one simulator over real HTTP with leased mutations and shared reads. Checked:
 * no lease is ever held by two clients at once, every queued acquire is granted (none lost), the
 * audit log has exactly one entry per call sent, and memory after GC does not grow with the run.
 */
test(`${CLIENTS} concurrent clients for ${SECONDS}s: leases exclusive and never lost, audit complete, memory flat`, async () => {
  // A small audit ring fills early, so from then on any growth is a leak.
  const sim = await startSimServer({ auditCapacity: 2000 });
  const setup = await connect(sim);
  const spaces: string[] = [];
  for (let i = 0; i < SPACES; i++) {
    const { space_id } = await setup.call('space_create', { name: `load-${i}` });
    await setup.call('session_acquire', { space_id });
    await setup.call('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
    await setup.call('session_release', { space_id });
    spaces.push(space_id);
  }
  const clients: DeviceClient[] = await Promise.all(Array.from({ length: CLIENTS }, () => connect(sim)));
  const auditBefore = sim.runtime.audit.calls;
  const heapBefore = heapAfterGc();

  let sent = 0;
  const errors: string[] = [];
  const holder = new Map<string, number>();
  let grants = 0;
  const deadline = Date.now() + SECONDS * 1000;
  let heapWarm = 0;
  const warm = setTimeout(() => (heapWarm = heapAfterGc()), (SECONDS * 1000) / 3);
  await Promise.all(
    clients.map(async (c, i) => {
      const send = async <T>(p: () => Promise<T>): Promise<T | DeviceError> => {
        sent++;
        try {
          return await p();
        } catch (e) {
          if (e instanceof DeviceError) return e;
          throw e;
        }
      };
      let round = 0;
      while (Date.now() < deadline) {
        const space_id = spaces[(i + round++) % SPACES]!;
        const lease = await send(() => c.call('session_acquire', { space_id, wait_ms: 60_000 }));
        if (lease instanceof DeviceError) {
          errors.push(`client ${i}: acquire lost: ${lease.message}`);
          continue;
        }
        if (holder.has(space_id))
          errors.push(`client ${i}: ${space_id} granted while client ${holder.get(space_id)} holds it`);
        holder.set(space_id, i);
        grants++;
        const calls: Array<() => Promise<unknown>> = [
          () => c.call('space_rename', { space_id, name: `held-by-${i}` }),
          () => c.call('space_launch', { space_id, package: NOTES, instance: `c${i}` }),
          () => c.call('ui_observe', { space_id }),
          () => c.call('sys_logcat', { space_id, package: NOTES, instance: `c${i}`, max_lines: 5 }),
        ];
        for (const fn of calls) {
          const r = await send(fn);
          if (r instanceof DeviceError && r.code !== 'NO_PROCESS_SLOT') errors.push(`client ${i}: ${r.message}`);
        }
        const status = await send(() => c.call('space_status', { space_id }));
        if (status instanceof DeviceError || status.lease?.session_id !== c.sessionId)
          errors.push(`client ${i}: space_status shows another holder`);
        holder.delete(space_id);
        const released = await send(() => c.call('session_release', { space_id }));
        if (released instanceof DeviceError || released.released.length !== 1)
          errors.push(`client ${i}: release did not release exactly one lease`);
        // Unleased reads in between, as observers do.
        await send(() => c.call('space_list', {}));
        await send(() => c.call('session_status', { space_id }));
      }
    }),
  );

  clearTimeout(warm);
  expect(errors.slice(0, 10)).toEqual([]);
  expect(grants).toBeGreaterThan(CLIENTS);
  expect(sim.runtime.audit.calls - auditBefore).toBe(sent);
  const heapAfter = heapAfterGc();
  const growthMb = (heapAfter - heapBefore) / 1024 / 1024;
  const lateGrowthMb = (heapAfter - heapWarm) / 1024 / 1024;
  test.info().annotations.push({
    type: 'load',
    description: `${sent} calls, ${grants} leases, heap ${(heapBefore / 1e6).toFixed(1)} → ${(heapWarm / 1e6).toFixed(1)} (at 1/3) → ${(heapAfter / 1e6).toFixed(1)} MB`,
  });
  // Generous bounds: rings (audit, logcat) fill in the first third, then memory must stay flat.
  // A per-call leak of a few KB (as the SDK's JSON response mode has) shows in the late growth.
  expect(heapWarm).toBeGreaterThan(0);
  expect(growthMb).toBeLessThan(64);
  expect(lateGrowthMb).toBeLessThan(16);

  for (const c of [...clients, setup]) await c.close();
  expect(sim.sessionCount()).toBe(0);
  await sim.close();
});
