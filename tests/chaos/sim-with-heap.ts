/**
 * `node --expose-gc --import tsx tests/chaos/sim-with-heap.ts IDLE_MS`, forked with an IPC
 * channel: the simulator's real server (startSimServer, sessions reclaimed after IDLE_MS idle) in
 * a process of its own, so its memory is measured alone. It sends `{ url, token }` once
 * listening; each `'measure'` message is answered with the heap after two full GCs, RSS and the
 * open MCP session count.
 */
import { startSimServer } from '../../device-runtime/sim/server.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('sim-with-heap: start node with --expose-gc');
const sim = await startSimServer({ sessionIdleMs: Number(process.argv[2] ?? 1_800_000) });
process.send!({ url: sim.url, token: sim.token });
process.on('message', (m) => {
  if (m === 'measure') {
    gc();
    gc();
    const { heapUsed, rss, external } = process.memoryUsage();
    process.send!({ heapUsed, rss, external, sessions: sim.sessionCount() });
  } else if (m === 'stop') {
    void sim.close().then(() => process.exit(0));
  }
});
