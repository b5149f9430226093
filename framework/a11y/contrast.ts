import type { UiNode } from '../../device-runtime/protocol/index.js';
import type { AuditInput, Pixels, RawFinding } from './rules.js';

/**
 * TextContrastCheck and ImageContrastCheck from the screenshot's pixels, as ATF's heavyweight
 * evaluation does when it cannot read a View's colours: crop the screenshot to the node's bounds,
 * count each colour's pixels, split the distinct colours by the (unweighted) mean of their
 * luminances, take the most frequent colour on each side, call the more frequent of the two the
 * background and the other the foreground (ATF's ContrastSwatch, single-foreground method), and
 * compare their WCAG contrast ratio, rounded to two decimals, with the threshold less ATF's
 * tolerance of 0.01. A crop of one colour has nothing to measure and yields no finding.
 *
 * Written here rather than taken from a library: the one colour-contrast packages on npm compute
 * a ratio from two given colours, not the two colours from pixels, and the ratio is four lines.
 */

export const NORMAL_TEXT_RATIO = 4.5;
export const LARGE_TEXT_RATIO = 3;
export const IMAGE_RATIO = 3;
const TOLERANCE = 0.01;

const channel = (c: number) => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
};

/** WCAG relative luminance of a 0xRRGGBB colour. */
export function luminance(rgb: number): number {
  return 0.2126 * channel((rgb >> 16) & 255) + 0.7152 * channel((rgb >> 8) & 255) + 0.0722 * channel(rgb & 255);
}

/** WCAG contrast ratio of two colours (≥ 1). */
export function contrastRatio(a: number, b: number): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export interface Swatch {
  background: number;
  foreground: number;
  /** Rounded to two decimals, as ATF reports it. */
  ratio: number;
}

/** Foreground and background of the pixels inside `bounds` (screen px; the picture may be scaled), or null for one colour. */
export function swatch(
  px: Pixels,
  bounds: readonly [number, number, number, number],
  screenWidth: number,
): Swatch | null {
  const k = px.width / screenWidth;
  const l = Math.max(0, Math.round(bounds[0] * k));
  const t = Math.max(0, Math.round(bounds[1] * k));
  const r = Math.min(px.width, Math.round(bounds[2] * k));
  const b = Math.min(px.height, Math.round(bounds[3] * k));
  if (r <= l || b <= t) return null;
  const counts = new Map<number, number>();
  const d = px.data;
  // Counted by runs of one colour: a crop is mostly background, so a row is a few map updates.
  for (let y = t; y < b; y++) {
    let i = (y * px.width + l) * 4;
    let run = -1;
    let n = 0;
    for (let x = l; x < r; x++, i += 4) {
      const c = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
      if (c === run) n++;
      else {
        if (n) counts.set(run, (counts.get(run) ?? 0) + n);
        run = c;
        n = 1;
      }
    }
    if (n) counts.set(run, (counts.get(run) ?? 0) + n);
  }
  if (counts.size < 2) return null;
  let sum = 0;
  const lum = new Map<number, number>();
  for (const c of counts.keys()) {
    const v = luminance(c);
    lum.set(c, v);
    sum += v;
  }
  const mean = sum / counts.size;
  let low = -1,
    high = -1,
    lowN = 0,
    highN = 0;
  for (const [c, n] of counts) {
    if (lum.get(c)! < mean) {
      if (n > lowN) [low, lowN] = [c, n];
    } else if (n > highN) [high, highN] = [c, n];
  }
  if (low < 0 || high < 0) return null;
  const [background, foreground] = highN > lowN ? [high, low] : [low, high];
  return { background, foreground, ratio: Math.round(contrastRatio(background, foreground) * 100) / 100 };
}

const hex = (c: number) => `#${c.toString(16).padStart(6, '0')}`;

const TEXT_CLASSES = new Set([
  'android.widget.TextView',
  'android.widget.Button',
  'android.widget.EditText',
  'android.widget.CheckBox',
  'android.widget.Switch',
  'android.widget.RadioButton',
  'android.widget.CheckedTextView',
]);
const IMAGE_CLASSES = new Set(['android.widget.ImageView', 'android.widget.ImageButton']);
const TEXT_ROLES = new Set(['text', 'button', 'textbox', 'checkbox', 'switch', 'radio']);

const isText = (n: UiNode) => (n.class ? TEXT_CLASSES.has(n.class) : TEXT_ROLES.has(n.role)) && !!(n.text || n.hint);
const isImage = (n: UiNode) => (n.class ? IMAGE_CLASSES.has(n.class) : n.role === 'image');

/**
 * TextContrastCheck. From pixels the text's size is unknown, so ATF grades both outcomes a
 * warning: below 3:1 fails for any text; between 3:1 and 4.5:1 is enough only for large text
 * (18 sp, or 14 sp bold), so it is reported as borderline.
 */
export function textContrast(input: AuditInput): RawFinding[] {
  const px = input.pixels;
  if (!px) return [];
  const out: RawFinding[] = [];
  for (const n of input.nodes) {
    if (!n.enabled || !isText(n)) continue;
    const s = swatch(px, n.bounds, input.screen.width);
    if (!s) continue;
    const required =
      LARGE_TEXT_RATIO - s.ratio > TOLERANCE
        ? LARGE_TEXT_RATIO
        : NORMAL_TEXT_RATIO - s.ratio > TOLERANCE
          ? NORMAL_TEXT_RATIO
          : null;
    if (required === null) continue;
    const measured = {
      kind: 'contrast' as const,
      ratio: s.ratio,
      required,
      foreground: hex(s.foreground),
      background: hex(s.background),
    };
    out.push({
      rule: 'TextContrastCheck',
      severity: 'warning',
      node: n,
      message:
        required === LARGE_TEXT_RATIO
          ? `the text's contrast is ${s.ratio}:1 (${measured.foreground} on ${measured.background}), below ${LARGE_TEXT_RATIO}:1, too low for text of any size. Darken the text or lighten the background to reach ${NORMAL_TEXT_RATIO}:1.`
          : `the text's contrast is ${s.ratio}:1 (${measured.foreground} on ${measured.background}): enough for large text (${LARGE_TEXT_RATIO}:1, 18 sp or 14 sp bold) but below the ${NORMAL_TEXT_RATIO}:1 normal text needs. Raise it to ${NORMAL_TEXT_RATIO}:1, or make the text large.`,
      measured,
    });
  }
  return out;
}

/** ImageContrastCheck: an image (or image button) whose two main colours contrast less than 3:1. */
export function imageContrast(input: AuditInput): RawFinding[] {
  const px = input.pixels;
  if (!px) return [];
  const out: RawFinding[] = [];
  for (const n of input.nodes) {
    if (!n.enabled || !isImage(n)) continue;
    const s = swatch(px, n.bounds, input.screen.width);
    if (!s || IMAGE_RATIO - s.ratio <= TOLERANCE) continue;
    const measured = {
      kind: 'contrast' as const,
      ratio: s.ratio,
      required: IMAGE_RATIO,
      foreground: hex(s.foreground),
      background: hex(s.background),
    };
    out.push({
      rule: 'ImageContrastCheck',
      severity: 'warning',
      node: n,
      message: `the image's contrast is ${s.ratio}:1 (${measured.foreground} on ${measured.background}), below ${IMAGE_RATIO}:1; its content may be hard to make out. Use colours that reach ${IMAGE_RATIO}:1 against its background.`,
      measured,
    });
  }
  return out;
}
