/**
 * What inline specs of the reporter tests import: a stand-in for nestwright's driver that runs
 * each step as a boxed `test.step` and records a trajectory in the framework's format (version 1
 * plus the optional fields the reporter reads), attached as `nestwright-trajectory` when the test
 * ends, the way framework/runner/fixtures.ts does. No device: the reporter never talks to one.
 */
import { test as base } from '@playwright/test';
import { PNG } from 'pngjs';

export type Bounds = [number, number, number, number];

export interface FakeStep {
  title: string;
  kind?: 'action' | 'assertion' | 'app';
  selector?: string;
  node?: { role: string; text?: string; id?: string; bounds: Bounds } | null;
  /** PNG bodies attached as the step's before/after screenshots (named in the trajectory). */
  before?: Buffer;
  after?: Buffer;
  observation?: unknown;
  error?: { code?: string; message: string; name?: string };
  durationMs?: number;
}

export class FakeDriver {
  readonly steps: Array<Record<string, unknown>> = [];
  meta: Record<string, unknown> | undefined;
  failure: { tree?: string; logcat?: string } | undefined;

  async step(s: FakeStep): Promise<void> {
    const index = this.steps.length;
    const record: Record<string, unknown> = {
      index,
      kind: s.kind ?? 'action',
      api: s.kind === 'assertion' ? 'expect.toBeVisible' : 'locator.tap',
      title: s.title,
      selector: s.selector ?? null,
      node: s.node ? node(s.node) : null,
      before: `s_${index * 2}`,
      after: `s_${index * 2 + 1}`,
      screenshots: {},
      startedAt: Date.now(),
      durationMs: s.durationMs ?? 5,
      result: s.error ? 'failed' : 'ok',
      error: s.error ? { code: s.error.code, message: s.error.message } : null,
      source: 'locator',
      instance: 'i1',
    };
    this.steps.push(record);
    await base.step(
      s.title,
      async () => {
        const info = base.info();
        const shots: Record<string, string> = {};
        for (const when of ['before', 'after'] as const) {
          const body = s[when];
          if (!body) continue;
          shots[when] = `step-${index}-${when}.png`;
          await info.attach(shots[when]!, { body, contentType: 'image/png' });
        }
        record.screenshots = shots;
        if (s.observation) {
          await info.attach(`step-${index}-observation.json`, {
            body: JSON.stringify(s.observation),
            contentType: 'application/json',
          });
          record.observations = { before: `step-${index}-observation.json` };
        }
        if (s.error)
          throw Object.assign(new Error(s.error.message), { name: s.error.name ?? 'Error', code: s.error.code });
      },
      { box: true },
    );
  }

  async fail(tree: unknown, logcat: string[]): Promise<void> {
    const info = base.info();
    await info.attach('nestwright-tree', { body: JSON.stringify(tree), contentType: 'application/json' });
    await info.attach('nestwright-logcat', { body: logcat.join('\n'), contentType: 'text/plain' });
    this.failure = { tree: 'nestwright-tree', logcat: 'nestwright-logcat' };
  }
}

function node(n: NonNullable<FakeStep['node']>) {
  return {
    id: `n${n.bounds.join('_')}`,
    role: n.role,
    text: n.text ?? null,
    desc: null,
    bounds: n.bounds,
    clickable: true,
    editable: false,
    scrollable: false,
    enabled: true,
    focused: false,
    selected: false,
    res_id: n.id ? `com.example.notes:id/${n.id}` : null,
  };
}

export const test = base.extend<{ nw: FakeDriver }>({
  nw: async ({}, use, info) => {
    const d = new FakeDriver();
    await use(d);
    const doc = {
      version: 1,
      steps: d.steps,
      ...(d.meta ? { meta: d.meta } : {}),
      ...(d.failure ? { failure: d.failure } : {}),
    };
    await info.attach('nestwright-trajectory', { body: JSON.stringify(doc), contentType: 'application/json' });
  },
});
export { expect } from '@playwright/test';

/**
 * A phone-sized screen like the simulator renders: an app bar, list rows with text-like marks,
 * a floating button. Different seeds give different screens; the same seed the same bytes.
 */
export function screen(seed: number, width = 1080, height = 2400): Buffer {
  const png = new PNG({ width, height });
  let x = seed * 2654435761 + 1;
  const rand = () => (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const fill = (l: number, t: number, r: number, b: number, rgb: [number, number, number]) => {
    for (let y = Math.max(0, t); y < Math.min(height, b); y++) {
      for (let xx = Math.max(0, l); xx < Math.min(width, r); xx++) {
        const i = (y * width + xx) * 4;
        png.data[i] = rgb[0];
        png.data[i + 1] = rgb[1];
        png.data[i + 2] = rgb[2];
        png.data[i + 3] = 255;
      }
    }
  };
  png.data.fill(Buffer.from([250, 250, 250, 255]));
  fill(0, 0, width, 220, [33, 100 + (seed % 5) * 20, 243]);
  fill(48, 120, 48 + 60 * (4 + (seed % 6)), 170, [255, 255, 255]);
  const rows = 6 + (seed % 7);
  for (let r = 0; r < rows; r++) {
    const top = 260 + r * 160;
    fill(0, top + 150, width, top + 152, [224, 224, 224]);
    let left = 48;
    const words = 2 + Math.floor(rand() * 4);
    for (let w = 0; w < words; w++) {
      const len = 40 + Math.floor(rand() * 160);
      fill(left, top + 50, left + len, top + 90, [66, 66, 66]);
      left += len + 24;
    }
  }
  fill(width - 230, height - 330, width - 62, height - 162, [255, 64, 129]);
  return PNG.sync.write(png, { filterType: 4 });
}
