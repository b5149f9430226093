import { createRequire } from 'node:module';
import type { PNG } from 'pngjs';
import type { Bounds } from '../../device-runtime/protocol/index.js';
import type { Severity } from './rules.js';

/** pngjs, loaded on first use rather than with the framework. */
let pngjsModule: typeof import('pngjs') | undefined;
const pngjs = (): typeof import('pngjs') =>
  (pngjsModule ??= createRequire(import.meta.url)('pngjs') as typeof import('pngjs'));

const COLOR: Record<Severity, [number, number, number]> = {
  error: [220, 0, 40],
  warning: [255, 140, 0],
  info: [30, 110, 230],
};

/**
 * The screenshot with each finding's node framed in its severity's colour (error red, warning
 * orange, info blue), for the report and the trajectory step. `screenWidth` maps screen px to
 * the picture's px when it was taken scaled.
 */
export function outlineFindings(
  img: PNG,
  marks: Array<{ bounds: Bounds; severity: Severity }>,
  screenWidth: number,
): Buffer {
  const out = new (pngjs().PNG)({ width: img.width, height: img.height });
  img.data.copy(out.data);
  const k = img.width / screenWidth;
  const w = Math.max(2, Math.round(6 * k));
  for (const m of marks) {
    const [l, t, r, b] = m.bounds.map((v) => Math.round(v * k)) as [number, number, number, number];
    const [cr, cg, cb] = COLOR[m.severity];
    for (let y = Math.max(0, t); y < Math.min(b, img.height); y++) {
      for (let x = Math.max(0, l); x < Math.min(r, img.width); x++) {
        if (x - l >= w && r - 1 - x >= w && y - t >= w && b - 1 - y >= w) continue;
        const i = (y * img.width + x) * 4;
        out.data[i] = cr;
        out.data[i + 1] = cg;
        out.data[i + 2] = cb;
        out.data[i + 3] = 255;
      }
    }
  }
  return pngjs().PNG.sync.write(out);
}
