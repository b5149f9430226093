import { PNG } from 'pngjs';

/** [left, top, right, bottom] in screen pixels, as in the protocol's node bounds. */
export type Bounds = readonly [number, number, number, number];

export interface RenderOptions {
  /** The target to outline (or several: an AI verdict's evidence nodes), in device pixels; none: only resized. */
  bounds?: Bounds | readonly Bounds[] | null;
  /** Device width the bounds are in; when the PNG was taken at another scale the box follows. */
  screenWidth?: number;
  /** Scale down wider screenshots to this width (0: keep). Allure shows them narrower anyway. */
  maxWidth: number;
}

/** Bump when the drawing changes, so content-addressed names of old renders are not reused. */
export const RENDER_VERSION = 1;

const STROKE = [255, 45, 85] as const; // the red of Playwright's trace viewer target

/**
 * A screenshot as the report shows it: the target outlined (4 px, scaled with the image) and
 * lightly tinted, scaled down to `maxWidth`. Input that is not a PNG is returned as it is.
 * Cost: one PNG decode and encode, ~0.2-0.4 s for 1080×2400 in pure JS: run it off the main
 * thread (see ScreenshotRenderer).
 */
export function renderScreenshot(png: Buffer, opts: RenderOptions): Buffer {
  let image: PNG;
  try {
    image = PNG.sync.read(png);
  } catch {
    return png;
  }
  const needsScale = opts.maxWidth > 0 && image.width > opts.maxWidth;
  if (!opts.bounds && !needsScale) return png;
  if (opts.bounds)
    for (const b of isList(opts.bounds) ? opts.bounds : [opts.bounds]) outline(image, b, opts.screenWidth);
  const out = needsScale ? downscale(image, opts.maxWidth) : image;
  return PNG.sync.write(out, { colorType: 2, filterType: 4, deflateLevel: 6 });
}

const isList = (b: Bounds | readonly Bounds[]): b is readonly Bounds[] => Array.isArray(b[0]);

function outline(image: PNG, bounds: Bounds, screenWidth?: number): void {
  const scale = screenWidth && screenWidth > 0 ? image.width / screenWidth : 1;
  const x = (v: number) => Math.max(0, Math.min(image.width, Math.round(v * scale)));
  const y = (v: number) => Math.max(0, Math.min(image.height, Math.round(v * scale)));
  const [l, t, r, b] = [x(bounds[0]), y(bounds[1]), x(bounds[2]), y(bounds[3])];
  if (r <= l || b <= t) return;
  const stroke = Math.max(2, Math.round(4 * Math.max(scale, 0.5) * Math.max(1, image.width / 1080)));
  const data = image.data;
  for (let py = t; py < b; py++) {
    for (let px = l; px < r; px++) {
      const edge = px < l + stroke || px >= r - stroke || py < t + stroke || py >= b - stroke;
      const i = (py * image.width + px) * 4;
      const a = edge ? 1 : 0.12;
      data[i] = Math.round(data[i]! * (1 - a) + STROKE[0] * a);
      data[i + 1] = Math.round(data[i + 1]! * (1 - a) + STROKE[1] * a);
      data[i + 2] = Math.round(data[i + 2]! * (1 - a) + STROKE[2] * a);
      data[i + 3] = 255;
    }
  }
}

/** Area-average resize to `width` (keeps the aspect ratio); alpha is flattened onto white. */
function downscale(src: PNG, width: number): PNG {
  const f = src.width / width;
  const height = Math.max(1, Math.round(src.height / f));
  const dst = new PNG({ width, height });
  const s = src.data;
  for (let dy = 0; dy < height; dy++) {
    const y0 = Math.floor(dy * f);
    const y1 = Math.min(src.height, Math.max(y0 + 1, Math.floor((dy + 1) * f)));
    for (let dx = 0; dx < width; dx++) {
      const x0 = Math.floor(dx * f);
      const x1 = Math.min(src.width, Math.max(x0 + 1, Math.floor((dx + 1) * f)));
      let r = 0,
        g = 0,
        b = 0,
        n = 0;
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const i = (yy * src.width + xx) * 4;
          const a = s[i + 3]! / 255;
          r += s[i]! * a + 255 * (1 - a);
          g += s[i + 1]! * a + 255 * (1 - a);
          b += s[i + 2]! * a + 255 * (1 - a);
          n++;
        }
      }
      const o = (dy * width + dx) * 4;
      dst.data[o] = Math.round(r / n);
      dst.data[o + 1] = Math.round(g / n);
      dst.data[o + 2] = Math.round(b / n);
      dst.data[o + 3] = 255;
    }
  }
  return dst;
}
