import { createRequire } from 'node:module';
import type { PNG } from 'pngjs';

/** pngjs, loaded on first use rather than with the framework. */
let pngjsModule: typeof import('pngjs') | undefined;
const pngjs = (): typeof import('pngjs') =>
  (pngjsModule ??= createRequire(import.meta.url)('pngjs') as typeof import('pngjs'));

/**
 * The screenshot with a node's bounds outlined (a 6 px magenta frame), for proposals. `screenWidth`
 * maps screen pixels to image pixels when the screenshot was scaled. Returns the PNG unchanged
 * when it cannot be decoded.
 */
export function outlinePng(
  png: Buffer,
  bounds: readonly [number, number, number, number],
  screenWidth: number,
): Buffer {
  let img: PNG;
  try {
    img = pngjs().PNG.sync.read(png);
  } catch {
    return png;
  }
  const k = img.width / screenWidth;
  const [l, t, r, b] = bounds.map((v) => Math.round(v * k)) as [number, number, number, number];
  const w = Math.max(2, Math.round(6 * k));
  const paint = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
    const i = (y * img.width + x) * 4;
    img.data[i] = 255;
    img.data[i + 1] = 0;
    img.data[i + 2] = 200;
    img.data[i + 3] = 255;
  };
  for (let y = t; y < b; y++) {
    for (let x = l; x < r; x++) {
      if (x - l < w || r - 1 - x < w || y - t < w || b - 1 - y < w) paint(x, y);
    }
  }
  return pngjs().PNG.sync.write(img);
}
