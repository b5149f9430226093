import { connectDevice, startEmbeddedDevice } from '../device-runtime/providers/index.js';
import { bigRowTitle, bigScreenShape } from '../device-runtime/sim/apps/big-screen.js';
import { Space } from '../framework/core/space.js';

/**
 * `npx tsx bench/tap-prof.ts [sizes] [taps]`: `locator.tap` alone on the big screen, looped, for
 * `node --cpu-prof --import tsx bench/tap-prof.ts 5000 400`. Prints each size's median tap.
 */
const SETTINGS = 'com.android.settings';
const sizes = (process.argv[2] ?? '50,5000').split(',').map(Number);
const taps = Number(process.argv[3] ?? 100);
const sim = await startEmbeddedDevice({ faults: 'instant' });
const conn = await connectDevice({ provider: 'sim', url: sim.url, token: sim.token });
const space = await Space.create(conn.client, 'tap-prof');
const medians: number[] = [];
for (const n of sizes) {
  const app = await space.launch(SETTINGS, undefined, {
    actionTimeout: 10_000,
    expectTimeout: 10_000,
    deviceActions: 'auto',
  });
  await conn.client.call('app_intent', {
    space_id: space.id,
    package: SETTINGS,
    component: `${SETTINGS}/.BigScreenActivity`,
    extras: { nodes: n },
    ...(app.instance ? { instance: app.instance } : {}),
  });
  const target = app.getByText(bigRowTitle(Math.floor(bigScreenShape(n).rows / 2)));
  for (let i = 0; i < 10; i++) await target.tap();
  const times: number[] = [];
  for (let i = 0; i < taps; i++) {
    const t = performance.now();
    await target.tap();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const m = times[times.length >> 1]!;
  medians.push(m);
  console.log(`${n} nodes: median tap ${m.toFixed(2)} ms (× first size ${(m / medians[0]!).toFixed(2)})`);
  await app.close();
}
await space.delete();
await conn.close();
await sim.close();
