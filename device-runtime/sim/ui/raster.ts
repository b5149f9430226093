import { glyph, GLYPH_HEIGHT, GLYPH_WIDTH } from './font.js';

export type Rgb = readonly [number, number, number];

export const hex = (s: string): Rgb => [parseInt(s.slice(1, 3), 16), parseInt(s.slice(3, 5), 16), parseInt(s.slice(5, 7), 16)];

/**
 * An RGBA pixel buffer drawn in screen coordinates (1080×2400) and stored at `scale`, so a 0.25
 * screenshot costs 1/16 of the pixels. Text uses the embedded 5×7 font, each font pixel a block.
 */
export class Raster {
  readonly width: number;
  readonly height: number;
  readonly data: Buffer;

  constructor(
    screenWidth: number,
    screenHeight: number,
    readonly scale: number,
  ) {
    this.width = Math.max(1, Math.round(screenWidth * scale));
    this.height = Math.max(1, Math.round(screenHeight * scale));
    this.data = Buffer.alloc(this.width * this.height * 4, 255);
  }

  /** Fill [x0, y0, x1, y1) in screen px; `alpha` < 1 blends over what is there (a dim layer). */
  fill(x0: number, y0: number, x1: number, y1: number, color: Rgb, alpha = 1): void {
    const s = this.scale;
    const l = Math.max(0, Math.round(x0 * s));
    const t = Math.max(0, Math.round(y0 * s));
    const r = Math.min(this.width, Math.round(x1 * s));
    const b = Math.min(this.height, Math.round(y1 * s));
    if (r <= l || b <= t) return;
    const d = this.data;
    const [cr, cg, cb] = color;
    for (let y = t; y < b; y++) {
      let i = (y * this.width + l) * 4;
      for (let x = l; x < r; x++, i += 4) {
        if (alpha >= 1) {
          d[i] = cr;
          d[i + 1] = cg;
          d[i + 2] = cb;
        } else {
          d[i] = d[i]! + (cr - d[i]!) * alpha;
          d[i + 1] = d[i + 1]! + (cg - d[i + 1]!) * alpha;
          d[i + 2] = d[i + 2]! + (cb - d[i + 2]!) * alpha;
        }
        d[i + 3] = 255;
      }
    }
  }

  outline(x0: number, y0: number, x1: number, y1: number, color: Rgb, w = 3): void {
    this.fill(x0, y0, x1, y0 + w, color);
    this.fill(x0, y1 - w, x1, y1, color);
    this.fill(x0, y0, x0 + w, y1, color);
    this.fill(x1 - w, y0, x1, y1, color);
  }

  /** Advance of one character at font pixel size `px` (screen px per font pixel). */
  static advance(px: number): number {
    return (GLYPH_WIDTH + 1) * px;
  }

  /** Draw `text` with its top-left at (x, y), clipped at `maxX`; font pixels are `px` screen px. */
  text(x: number, y: number, text: string, px: number, color: Rgb, maxX = Infinity): void {
    let cx = x;
    for (const ch of text) {
      if (cx + GLYPH_WIDTH * px > maxX) break;
      const rows = glyph(ch);
      for (let r = 0; r < GLYPH_HEIGHT; r++) {
        const bits = rows[r]!;
        if (!bits) continue;
        for (let c = 0; c < GLYPH_WIDTH; c++) {
          if (bits & (1 << (GLYPH_WIDTH - 1 - c))) this.fill(cx + c * px, y + r * px, cx + (c + 1) * px, y + (r + 1) * px, color);
        }
      }
      cx += Raster.advance(px);
    }
  }
}
