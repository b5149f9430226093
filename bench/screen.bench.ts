import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { resolve } from 'node:path';
import { SimRuntime } from '../device-runtime/sim/runtime.js';
import { paintFrame } from '../device-runtime/sim/ui/paint.js';
import { renderPng } from '../device-runtime/sim/ui/screenshot.js';
import { median, percentile, round, sample, type BenchSection } from './section.js';

const APKS = resolve(import.meta.dirname, '../fixtures/apks');
const ctx = { sessionId: 'bench', caller: 'REMOTE_MCP' as const };

async function call(rt: SimRuntime, name: string, args: object): Promise<any> {
  const r = await rt.call(name, args, ctx);
  if (!r.ok) throw new Error(`bench: ${name}: ${r.error.code}: ${r.error.message}`);
  return r.result;
}

async function spaceWith(rt: SimRuntime): Promise<string> {
  const { space_id } = await call(rt, 'space_create', {});
  await call(rt, 'session_acquire', { space_id });
  return space_id;
}

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * The simulated screen: observe and screenshot latency on a busy screen (Notes with 300 notes,
 * a snackbar over the list), and the heap cost of 32 running instances, each with its own data.
 */
export async function benchScreen(): Promise<BenchSection> {
  const rt = new SimRuntime({ slots: 32 });
  const space_id = await spaceWith(rt);
  await call(rt, 'space_install_apk', { space_id, apk_paths: [`${APKS}/notes.apk`] });
  await call(rt, 'space_launch', { space_id, package: 'com.nestwright.notes' });
  await call(rt, 'ui_tap', { space_id, text: 'More options' });
  await call(rt, 'ui_tap', { space_id, text: 'Load sample notes' });
  const nodes = (await call(rt, 'ui_observe', { space_id })).nodes.length;
  const rows: BenchSection['rows'] = [];
  const add = (what: string, xs: number[]) =>
    rows.push({ what, 'median ms': round(median(xs), 3), 'p95 ms': round(percentile(xs, 95), 3), runs: xs.length });
  add(`ui_observe compact (${nodes} nodes)`, await sample(300, () => call(rt, 'ui_observe', { space_id })));
  add('ui_observe detail=full', await sample(300, () => call(rt, 'ui_observe', { space_id, detail: 'full' })));
  add(
    'ui_scroll + ui_observe',
    await sample(200, async () => {
      const { moved } = await call(rt, 'ui_scroll', { space_id, direction: 'down' });
      if (!moved) await call(rt, 'ui_swipe', { space_id, from: [540, 400], to: [540, 2200], duration_ms: 100 });
      return call(rt, 'ui_observe', { space_id });
    }),
  );
  const frame = rt.space(space_id).screen.frame();
  const ops = paintFrame(frame);
  add('screenshot render+encode, scale 1', await sample(40, () => renderPng(ops, 1), 5));
  add('screenshot render+encode, scale 0.5', await sample(80, () => renderPng(ops, 0.5), 5));
  add('ui_screenshot unchanged screen (cached)', await sample(200, () => call(rt, 'ui_screenshot', { space_id })));
  add(
    'ui_observe include_screenshot, cached',
    await sample(200, () => call(rt, 'ui_observe', { space_id, include_screenshot: true })),
  );

  // Memory: 32 running instances across 8 spaces (Notes with 300 notes, Shop, Chat, Settings).
  gc();
  const before = process.memoryUsage().heapUsed;
  const mem = new SimRuntime({ slots: 32 });
  for (let s = 0; s < 8; s++) {
    const sp = await spaceWith(mem);
    for (const apk of ['notes.apk', 'shop.apk', 'chat.apk'])
      await call(mem, 'space_install_apk', { space_id: sp, apk_paths: [`${APKS}/${apk}`] });
    for (const pkg of ['com.nestwright.notes', 'com.nestwright.shop', 'com.nestwright.chat', 'com.android.settings']) {
      await call(mem, 'space_launch', { space_id: sp, package: pkg, instance: 'new' });
      if (pkg === 'com.nestwright.notes') {
        await call(mem, 'ui_tap', { space_id: sp, text: 'More options' });
        await call(mem, 'ui_tap', { space_id: sp, text: 'Load sample notes' });
      }
      await call(mem, 'ui_observe', { space_id: sp });
    }
  }
  gc();
  const used = process.memoryUsage().heapUsed - before;
  const running = [...mem.spaces.values()]
    .flatMap((s) => [...s.instances.values()])
    .filter((i) => i.slot !== null).length;
  rows.push({
    what: `heap for ${running} running instances (8 spaces)`,
    'median ms': '',
    'p95 ms': '',
    runs: `${round(used / 2 ** 20, 1)} MB total, ${round(used / running / 1024, 0)} KB each`,
  });
  return {
    title: 'Simulated screen (sim/ui): observe, screenshot, memory',
    rows,
    notes: [
      'In process (rt.call, schema validation both ways, no transport), instant profile. Screenshot render is uncached; ui_screenshot on an unchanged screen reuses the PNG.',
    ],
  };
}
