import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { Bounds } from '../../device-runtime/protocol/index.js';
import { clamp, Picture } from './picture.js';

/** How two pictures may differ and still match (Playwright's options, its defaults). */
export interface Tolerance {
  /** Per-pixel colour distance (YIQ), 0..1, under which two pixels are the same. Default 0.2. */
  threshold?: number;
  /** Pixels that may differ. Default 0 (with neither this nor the ratio set). */
  maxDiffPixels?: number;
  /** Share of all pixels that may differ, 0..1. With maxDiffPixels too, the smaller limit holds. */
  maxDiffPixelRatio?: number;
}

/** What a comparison found; `errorMessage` is Playwright's wording, null when the pictures match. */
export interface Comparison {
  errorMessage: string | null;
  diffPixels: number;
  /** diffPixels over all pixels, rounded up to hundredths as Playwright prints it. */
  ratio: number;
  /** The diff image (differing pixels red over a faded copy), when the pictures were decoded. */
  diff: Picture | null;
}

const MATCH: Comparison = { errorMessage: null, diffPixels: 0, ratio: 0, diff: null };

/**
 * Compare `actual` with `expected` as Playwright's default comparator does: pixelmatch (the kept
 * library Playwright itself wraps) with `threshold` 0.2, images of different sizes padded to
 * the larger and reported as such, and the pixel limits of `maxDiffPixels`/`maxDiffPixelRatio`.
 * `exclude` (boxes in the pictures' pixels) are left out: the expected pixels are used there.
 * Identical PNG bytes match without decoding either picture.
 */
export function compareImages(
  actual: Picture,
  expected: Picture,
  tol: Tolerance,
  exclude: readonly Bounds[] = [],
): Comparison {
  if (actual.sameBytes(expected)) return MATCH;
  let a = actual.pixels();
  let e = expected.pixels();
  const width = Math.max(a.width, e.width);
  const height = Math.max(a.height, e.height);
  let sizes = '';
  if (a.width !== e.width || a.height !== e.height) {
    sizes = `Expected an image ${e.width}px by ${e.height}px, received ${a.width}px by ${a.height}px. `;
    a = pad(a, width, height);
    e = pad(e, width, height);
  }
  if (exclude.length) a = withExpectedIn(a, e, exclude);
  // Counted without a diff image first (pixelmatch then skips drawing every matching pixel): the
  // diff is drawn only for a failure, the one time it is shown.
  const count = pixelmatch(e.data, a.data, undefined, width, height, { threshold: tol.threshold ?? 0.2 });
  const byRatio = tol.maxDiffPixelRatio !== undefined ? e.width * e.height * tol.maxDiffPixelRatio : undefined;
  const limit =
    tol.maxDiffPixels !== undefined && byRatio !== undefined
      ? Math.min(tol.maxDiffPixels, byRatio)
      : (tol.maxDiffPixels ?? byRatio ?? 0);
  const ratio = Math.ceil((count / (e.width * e.height)) * 100) / 100;
  const pixels = count > limit ? `${count} pixels (ratio ${ratio.toFixed(2)} of all image pixels) are different.` : '';
  if (!pixels && !sizes) return { ...MATCH, diffPixels: count, ratio };
  const diff = new PNG({ width, height });
  pixelmatch(e.data, a.data, diff.data, width, height, { threshold: tol.threshold ?? 0.2 });
  return { errorMessage: sizes + pixels, diffPixels: count, ratio, diff: Picture.fromImage(diff) };
}

function pad(img: PNG, width: number, height: number): PNG {
  if (img.width === width && img.height === height) return img;
  const out = new PNG({ width, height, fill: true });
  out.data.fill(0);
  for (let y = 0; y < img.height; y++)
    img.data.copy(out.data, y * width * 4, y * img.width * 4, (y + 1) * img.width * 4);
  return out;
}

/** A copy of `a` with `e`'s pixels inside the boxes: what is there is not compared. */
function withExpectedIn(a: PNG, e: PNG, boxes: readonly Bounds[]): PNG {
  const out = new PNG({ width: a.width, height: a.height });
  a.data.copy(out.data);
  for (const box of boxes) {
    const [l, t, r, b] = clamp(box, a.width, a.height);
    for (let y = t; y < b; y++)
      e.data.copy(out.data, (y * a.width + l) * 4, (y * a.width + l) * 4, (y * a.width + r) * 4);
  }
  return out;
}
