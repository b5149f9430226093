import { glyph, GLYPH_HEIGHT, GLYPH_WIDTH } from './font.js';

export type Rgb = readonly [number, number, number];

export const hex = (s: string): Rgb => [
  parseInt(s.slice(1, 3), 16),
  parseInt(s.slice(3, 5), 16),
  parseInt(s.slice(5, 7), 16),
];

/**
 * An RGB pixel buffer drawn in screen coordinates (1080×2400) and stored at `scale`, so a 0.25
 * screenshot costs 1/16 of the pixels. Rows are stored as PNG scanlines (a filter byte, then
 * RGB), so encoding is one deflate with no copy. Text uses the embedded 5×7 font.
 */
export class Raster {
  readonly width: number;
  readonly height: number;
  /** PNG scanlines: per row one filter byte (0 = None) then width × RGB. */
  readonly scanlines: Buffer;
  private readonly stride: number;

  constructor(
    screenWidth: number,
    screenHeight: number,
    readonly scale: number,
  ) {
    this.width = Math.max(1, Math.round(screenWidth * scale));
    this.height = Math.max(1, Math.round(screenHeight * scale));
    this.stride = this.width * 3 + 1;
    this.scanlines = Buffer.alloc(this.stride * this.height, 255);
    for (let y = 0; y < this.height; y++) this.scanlines[y * this.stride] = 0;
  }

  /** RGB of the pixel at storage coordinates (x, y). */
  pixel(x: number, y: number): Rgb {
    const i = y * this.stride + 1 + x * 3;
    return [this.scanlines[i]!, this.scanlines[i + 1]!, this.scanlines[i + 2]!];
  }

  /** Fill [x0, y0, x1, y1) in screen px; `alpha` < 1 blends over what is there (a dim layer). */
  fill(x0: number, y0: number, x1: number, y1: number, color: Rgb, alpha = 1): void {
    const s = this.scale;
    const l = Math.max(0, Math.round(x0 * s));
    const t = Math.max(0, Math.round(y0 * s));
    const r = Math.min(this.width, Math.round(x1 * s));
    const b = Math.min(this.height, Math.round(y1 * s));
    if (r <= l || b <= t) return;
    const d = this.scanlines;
    const [cr, cg, cb] = color;
    if (alpha >= 1) {
      // Paint the first row, then copy it down: fills are most of a screenshot's pixels.
      const start = t * this.stride + 1 + l * 3;
      for (let i = start, end = start + (r - l) * 3; i < end; i += 3) {
        d[i] = cr;
        d[i + 1] = cg;
        d[i + 2] = cb;
      }
      const len = (r - l) * 3;
      for (let y = t + 1; y < b; y++) d.copy(d, y * this.stride + 1 + l * 3, start, start + len);
      return;
    }
    for (let y = t; y < b; y++) {
      for (let i = y * this.stride + 1 + l * 3, end = i + (r - l) * 3; i < end; i += 3) {
        d[i] = d[i]! + (cr - d[i]!) * alpha;
        d[i + 1] = d[i + 1]! + (cg - d[i + 1]!) * alpha;
        d[i + 2] = d[i + 2]! + (cb - d[i + 2]!) * alpha;
      }
    }
  }

  /**
   * Draw an RGBA picture scaled into the screen box `b` (nearest pixel), only inside `clip`:
   * a WebView's page, whose picture is at the device's pixels already (a scale of 1 copies it).
   */
  image(b: readonly number[], clip: readonly number[], pic: { width: number; height: number; rgba: Buffer }): void {
    const s = this.scale;
    const l = Math.max(0, Math.round(Math.max(b[0]!, clip[0]!) * s));
    const t = Math.max(0, Math.round(Math.max(b[1]!, clip[1]!) * s));
    const r = Math.min(this.width, Math.round(Math.min(b[2]!, clip[2]!) * s));
    const bt = Math.min(this.height, Math.round(Math.min(b[3]!, clip[3]!) * s));
    const fx = pic.width / ((b[2]! - b[0]!) * s);
    const fy = pic.height / ((b[3]! - b[1]!) * s);
    const d = this.scanlines;
    const src = pic.rgba;
    for (let y = t; y < bt; y++) {
      const sy = Math.min(pic.height - 1, Math.floor((y - b[1]! * s) * fy));
      if (sy < 0) continue;
      let o = y * this.stride + 1 + l * 3;
      for (let x = l; x < r; x++, o += 3) {
        const sx = Math.min(pic.width - 1, Math.floor((x - b[0]! * s) * fx));
        const i = (sy * pic.width + Math.max(0, sx)) * 4;
        d[o] = src[i]!;
        d[o + 1] = src[i + 1]!;
        d[o + 2] = src[i + 2]!;
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
          if (bits & (1 << (GLYPH_WIDTH - 1 - c)))
            this.fill(cx + c * px, y + r * px, cx + (c + 1) * px, y + (r + 1) * px, color);
        }
      }
      cx += Raster.advance(px);
    }
  }
}
