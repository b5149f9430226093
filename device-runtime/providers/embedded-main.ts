import { startEmbeddedDevice } from './index.js';

/**
 * The embedded simulated runtime as a process of its own (see embedded-process.ts): started with
 * its options as JSON in argv[2], it answers its parent over IPC with `{ url, token }` once it
 * listens, and closes on SIGTERM or when the parent goes away.
 */
const send = (m: unknown) => process.send?.(m);
try {
  const sim = await startEmbeddedDevice(JSON.parse(process.argv[2] ?? '{}'));
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await sim.close().catch(() => {});
    process.exit(0);
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  process.once('disconnect', close);
  send({ url: sim.url, token: sim.token });
} catch (e) {
  send({ error: (e as Error).message });
  process.exit(1);
}
