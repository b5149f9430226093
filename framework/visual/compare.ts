import type { Bounds } from '../../device-runtime/protocol/index.js';
import { blank, clamp, Picture, rgba, type Pixels } from './picture.js';

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
 * pixelmatch's anti-aliasing test looks two pixels around a differing one: rows this far from
 * the band of differing rows are compared too, so the count is the whole picture's.
 */
const AROUND = 3;

/**
 * Compare `actual` with `expected` as Playwright's default comparator does: pixelmatch (the kept
 * library Playwright itself wraps) with `threshold` 0.2 and semi-transparent pixels blended over
 * white (Playwright's copy of pixelmatch; pixelmatch 7 would blend over a checkerboard), images
 * of different sizes padded with transparent pixels to the larger and reported as such, so
 * padding counts only where the larger picture is not white, and the pixel limits of
 * `maxDiffPixels`/`maxDiffPixelRatio` (the ratio of the padded size, as Playwright's).
 * Playwright's own comparator (`getComparator` of playwright-core's bundle) is not called: it
 * returns a message but not the count the report records, decodes with pngjs, and cannot skip
 * the rows that are the same; tests/framework/visual-compare.test.ts checks that both say the
 * same.
 * `exclude` (boxes in the pictures' pixels) are left out: the expected pixels are used there.
 * Identical PNG bytes match without decoding either picture; otherwise only the band of rows
 * whose bytes differ (found with a native memory compare) goes through pixelmatch, and the diff
 * image is drawn only for a failure, the one time it is shown.
 */
export async function compareImages(
  actual: Picture,
  expected: Picture,
  tol: Tolerance,
  exclude: readonly Bounds[] = [],
): Promise<Comparison> {
  if (actual.sameBytes(expected)) return MATCH;
  // pixelmatch loads with the first comparison that needs pixels, not with the framework.
  const { default: pixelmatch } = await import('pixelmatch');
  let [a, e] = await Promise.all([actual.pixels(), expected.pixels()]);
  const width = Math.max(a.width, e.width);
  const height = Math.max(a.height, e.height);
  let sizes = '';
  if (a.width !== e.width || a.height !== e.height) {
    sizes = `Expected an image ${e.width}px by ${e.height}px, received ${a.width}px by ${a.height}px. `;
    a = pad(a, width, height);
    e = pad(e, width, height);
  } else if (a.channels !== e.channels) {
    [a, e] = [widen(a), widen(e)];
  }
  if (exclude.length) a = withExpectedIn(a, e, exclude);
  const threshold = tol.threshold ?? 0.2;
  const band = differingRows(a, e);
  const count = band
    ? pixelmatch(rgba(e, band[0], band[1]), rgba(a, band[0], band[1]), undefined, width, band[1] - band[0], {
        threshold,
        checkerboard: false,
      })
    : 0;
  const byRatio = tol.maxDiffPixelRatio !== undefined ? e.width * e.height * tol.maxDiffPixelRatio : undefined;
  const limit =
    tol.maxDiffPixels !== undefined && byRatio !== undefined
      ? Math.min(tol.maxDiffPixels, byRatio)
      : (tol.maxDiffPixels ?? byRatio ?? 0);
  const ratio = Math.ceil((count / (e.width * e.height)) * 100) / 100;
  const pixels = count > limit ? `${count} pixels (ratio ${ratio.toFixed(2)} of all image pixels) are different.` : '';
  if (!pixels && !sizes) return { ...MATCH, diffPixels: count, ratio };
  const diff = blank(width, height, 4);
  pixelmatch(rgba(e, 0, height), rgba(a, 0, height), diff.data, width, height, { threshold, checkerboard: false });
  return { errorMessage: sizes + pixels, diffPixels: count, ratio, diff: Picture.fromPixels(diff) };
}

/** [top, bottom) of the rows whose bytes differ, widened by AROUND; null when every row is equal. */
function differingRows(a: Pixels, e: Pixels): [number, number] | null {
  const row = a.width * a.channels;
  let top = -1;
  for (let y = 0; y < a.height; y++) {
    if (a.data.compare(e.data, y * row, (y + 1) * row, y * row, (y + 1) * row) !== 0) {
      top = y;
      break;
    }
  }
  if (top < 0) return null;
  let bottom = top + 1;
  for (let y = a.height - 1; y > top; y--) {
    if (a.data.compare(e.data, y * row, (y + 1) * row, y * row, (y + 1) * row) !== 0) {
      bottom = y + 1;
      break;
    }
  }
  return [Math.max(0, top - AROUND), Math.min(a.height, bottom + AROUND)];
}

function widen(p: Pixels): Pixels {
  return p.channels === 4 ? p : { width: p.width, height: p.height, channels: 4, data: rgba(p, 0, p.height) };
}

function pad(img: Pixels, width: number, height: number): Pixels {
  const src = widen(img);
  if (src.width === width && src.height === height) return src;
  const out = blank(width, height, 4);
  for (let y = 0; y < src.height; y++)
    src.data.copy(out.data, y * width * 4, y * src.width * 4, (y + 1) * src.width * 4);
  return out;
}

/** A copy of `a` with `e`'s pixels inside the boxes: what is there is not compared. */
function withExpectedIn(a: Pixels, e: Pixels, boxes: readonly Bounds[]): Pixels {
  const c = a.channels;
  const out: Pixels = { ...a, data: Buffer.from(a.data) };
  for (const box of boxes) {
    const [l, t, r, b] = clamp(box, a.width, a.height);
    for (let y = t; y < b; y++)
      e.data.copy(out.data, (y * a.width + l) * c, (y * a.width + l) * c, (y * a.width + r) * c);
  }
  return out;
}
