import { PNG } from 'pngjs';

/** [left, top, right, bottom] in screen pixels, as in the protocol's node bounds. */
export type Bounds = readonly [number, number, number, number];

const STROKE = [255, 45, 85] as const; // the same red as Playwright's trace viewer target

/**
 * Draw the target's bounds on a screenshot: a 4 px outline (scaled with the image) and a light
 * tint inside, so a reader sees what was tapped. `screenWidth` is the device width the bounds are
 * in; when the PNG was taken at another scale the rectangle is scaled to match. Returns the input
 * unchanged when it is not a PNG or the bounds are empty. Cost: one PNG decode and encode.
 */
export function highlightPng(png: Buffer, bounds: Bounds, screenWidth?: number): Buffer {
  let image: PNG;
  try {
    image = PNG.sync.read(png);
  } catch {
    return png;
  }
  const scale = screenWidth && screenWidth > 0 ? image.width / screenWidth : 1;
  const clampX = (v: number) => Math.max(0, Math.min(image.width, Math.round(v * scale)));
  const clampY = (v: number) => Math.max(0, Math.min(image.height, Math.round(v * scale)));
  const [l, t, r, b] = [clampX(bounds[0]), clampY(bounds[1]), clampX(bounds[2]), clampY(bounds[3])];
  if (r <= l || b <= t) return png;
  const stroke = Math.max(2, Math.round(4 * Math.max(scale, 0.5)));
  for (let y = t; y < b; y++) {
    for (let x = l; x < r; x++) {
      const edge = x < l + stroke || x >= r - stroke || y < t + stroke || y >= b - stroke;
      const i = (y * image.width + x) * 4;
      const a = edge ? 1 : 0.12;
      for (let c = 0; c < 3; c++) image.data[i + c] = Math.round(image.data[i + c]! * (1 - a) + STROKE[c]! * a);
      if (edge) image.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(image, { deflateLevel: 9 });
}
