import { startSimServer, type RunningSim } from '../device-runtime/sim/server.js';
import { connectDevice } from '../device-runtime/providers/index.js';
import { Space } from '../framework/core/space.js';
import { Trajectory } from '../framework/core/trajectory.js';
import { done, scripted, tap, tool, typeInto, type Turn } from '../tests/ai/scripted-model.js';
import { MessagesStandIn } from '../tests/ai/stand-in.js';
import { median, percentile, round, type BenchSection } from './section.js';

const NOTES_APK = 'fixtures/apks/notes.apk';
const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

/**
 * A task done by the app's function (AppFunctions, `app.functions.call`) vs by its UI, on the
 * `realistic` fault profile: "create a note titled …", until the note is on the list. Once as a
 * spec would do it (a function call vs tap, fill, tap) and once as `app.ai.act` (the model
 * offered the functions calls fn_createNote; on a device without AppFunctions it works through
 * the screens), with the model calls the stand-in counted. Each path runs on its own simulated
 * device (one with AppFunctions, one without), interleaved so both see the same machine.
 */
export async function benchFunctions(): Promise<BenchSection> {
  const fnFirst: Turn = (v, n) =>
    (v.body.tools ?? []).some((t: { name: string }) => t.name === 'fn_createNote')
      ? (v.turn === 0 ? () => tool('fn_createNote', { title: '{title}' }) : done('created'))(v, n)
      : ([tap('New note'), typeInto('title', '{title}'), tap('Save'), done('created')][v.turn] ?? done('created'))(
          v,
          n,
        );
  const model = await MessagesStandIn.start(
    scripted([{ match: 'create a note titled', turns: Array(8).fill(fnFirst) }]),
  );
  const saved = { url: process.env.ANTHROPIC_BASE_URL, key: process.env.ANTHROPIC_API_KEY };
  process.env.ANTHROPIC_BASE_URL = model.url;
  process.env.ANTHROPIC_API_KEY = 'stand-in';
  const sims: RunningSim[] = [];
  const closers: Array<() => Promise<void>> = [];
  try {
    const open = async (appFunctions: boolean) => {
      const sim = await startSimServer({ faults: 'realistic', appFunctions });
      sims.push(sim);
      const conn = await connectDevice({ provider: 'sim', url: sim.url, token: sim.token });
      closers.push(() => conn.close());
      const space = await Space.create(conn.client, `bench-fn-${appFunctions}`);
      const app = await space.launch(NOTES_APK, new Trajectory(), { actionTimeout: 20_000, expectTimeout: 20_000 });
      const shown = async (title: string) => {
        for (let i = 0; i < 200; i++) {
          const obs = await conn.client.call('ui_observe', { space_id: space.id });
          if (obs.nodes.some((n) => n.text === title)) return;
        }
        throw new Error(`${title} never showed`);
      };
      // Between runs, untimed: an empty list again (a new note is appended; past a screenful it is off screen).
      const reset = async () => {
        await conn.client.call('space_stop', {
          space_id: space.id,
          package: app.package,
          ...(app.driver.instance ? { instance: app.driver.instance } : {}),
          clear_data: true,
        });
        await app.launch();
      };
      return { app, shown, reset };
    };
    const fast = await open(true);
    const bare = await open(false);
    const N = 8;
    const t = { fn: [] as number[], ui: [] as number[], aiFn: [] as number[], aiUi: [] as number[] };
    const requests = { aiFn: [] as number[], aiUi: [] as number[] };
    for (let i = 0; i < N + 1; i++) {
      const keep = i > 0;
      await Promise.all([fast.reset(), bare.reset()]);
      let s = performance.now();
      await fast.app.functions.call('createNote', { title: `Fn ${i}` });
      await fast.shown(`Fn ${i}`);
      if (keep) t.fn.push(performance.now() - s);
      await fast.reset();
      s = performance.now();
      await bare.app.getByText('New note').tap();
      await bare.app.getById('title').fill(`Ui ${i}`);
      await bare.app.getByRole('button', { name: 'Save' }).tap();
      await bare.shown(`Ui ${i}`);
      if (keep) t.ui.push(performance.now() - s);
      await bare.reset();
      for (const [which, app, shown] of [
        ['aiFn', fast.app, fast.shown],
        ['aiUi', bare.app, bare.shown],
      ] as const) {
        const before = model.requests.length;
        s = performance.now();
        await app.ai.act('create a note titled {title}', { params: { title: `Ai ${which} ${i}` } });
        await shown(`Ai ${which} ${i}`);
        await (which === 'aiFn' ? fast : bare).reset();
        if (keep) {
          t[which].push(performance.now() - s);
          requests[which].push(model.requests.length - before);
        }
      }
    }
    const per = (xs: number[]) => round(median(xs), 1);
    return {
      title: 'App functions vs the UI (realistic profile): create a note until it is on the list',
      rows: [
        { measure: 'spec: by UI (tap, fill, tap)', n: N, ...stats(t.ui), ratio: 1 },
        {
          measure: 'spec: by function (app.functions.call)',
          n: N,
          ...stats(t.fn),
          vs: 'spec: by UI (tap, fill, tap)',
          ratio: round(median(t.fn) / median(t.ui)),
        },
        {
          measure: 'ai.act: by UI (no AppFunctions)',
          n: N,
          ...stats(t.aiUi),
          model_calls: per(requests.aiUi),
          ratio: 1,
        },
        {
          measure: 'ai.act: by function (fn_createNote offered)',
          n: N,
          ...stats(t.aiFn),
          model_calls: per(requests.aiFn),
          vs: 'ai.act: by UI (no AppFunctions)',
          ratio: round(median(t.aiFn) / median(t.aiUi)),
        },
      ],
      notes: [
        'Model calls are requests to the local Messages API stand-in (tests/ai/stand-in.ts); the scripted model calls fn_createNote when offered, else taps, types and taps. Times include the stand-in, not a real model.',
      ],
    };
  } finally {
    for (const c of closers) await c().catch(() => {});
    for (const s of sims) await s.close().catch(() => {});
    await model.close();
    process.env.ANTHROPIC_BASE_URL = saved.url;
    process.env.ANTHROPIC_API_KEY = saved.key;
    if (saved.url === undefined) delete process.env.ANTHROPIC_BASE_URL;
    if (saved.key === undefined) delete process.env.ANTHROPIC_API_KEY;
  }
}
