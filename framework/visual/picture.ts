import { PNG } from 'pngjs';
import type { Bounds } from '../../device-runtime/protocol/index.js';

/**
 * One picture of the screen (or part of it), as PNG bytes, as RGBA pixels, or both: each is made
 * from the other only when asked for. Decoding a phone-sized PNG costs tens of ms and encoding
 * one more, so a picture that is only compared byte for byte (the usual pass) is never decoded,
 * and one that is only compared is never encoded.
 *
 * Codec: pngjs, a kept PNG library (the simulator's own encoder is not reachable from here).
 */
export class Picture {
  private constructor(
    private bytes: Buffer | null,
    private image: PNG | null,
  ) {}

  static fromPng(png: Buffer): Picture {
    return new Picture(png, null);
  }

  static fromImage(image: PNG): Picture {
    return new Picture(null, image);
  }

  /** The PNG bytes (encoded on first use when the picture was made from pixels). */
  png(): Buffer {
    return (this.bytes ??= PNG.sync.write(this.image!));
  }

  /** The decoded RGBA pixels (decoded on first use). Callers must not change them. */
  pixels(): PNG {
    return (this.image ??= PNG.sync.read(this.bytes!));
  }

  get width(): number {
    return this.image ? this.image.width : this.bytes!.readUInt32BE(16);
  }

  get height(): number {
    return this.image ? this.image.height : this.bytes!.readUInt32BE(20);
  }

  /** Whether both pictures are the same PNG bytes (without decoding either). */
  sameBytes(other: Picture): boolean {
    return !!this.bytes && !!other.bytes && this.bytes.equals(other.bytes);
  }

  /**
   * A new picture: `paint` boxes filled with `color` (Playwright's masks), then cut to `crop`
   * (screen px, clamped to the picture). Boxes are in this picture's pixels.
   */
  edit(paint: Bounds[], color: [number, number, number, number], crop: Bounds | null): Picture {
    const src = this.pixels();
    const [l, t, r, b] = crop ? clamp(crop, src.width, src.height) : [0, 0, src.width, src.height];
    const out = new PNG({ width: Math.max(1, r - l), height: Math.max(1, b - t) });
    for (let y = t; y < b; y++)
      src.data.copy(out.data, (y - t) * out.width * 4, (y * src.width + l) * 4, (y * src.width + r) * 4);
    for (const box of paint) {
      const [pl, pt, pr, pb] = clamp([box[0] - l, box[1] - t, box[2] - l, box[3] - t], out.width, out.height);
      for (let y = pt; y < pb; y++) {
        for (let x = pl; x < pr; x++) {
          const i = (y * out.width + x) * 4;
          out.data[i] = color[0];
          out.data[i + 1] = color[1];
          out.data[i + 2] = color[2];
          out.data[i + 3] = color[3];
        }
      }
    }
    return Picture.fromImage(out);
  }
}

/** Bounds cut to [0, 0, width, height], whole pixels. */
export function clamp(b: Bounds, width: number, height: number): Bounds {
  const l = Math.max(0, Math.min(width, Math.floor(b[0])));
  const t = Math.max(0, Math.min(height, Math.floor(b[1])));
  return [l, t, Math.max(l, Math.min(width, Math.ceil(b[2]))), Math.max(t, Math.min(height, Math.ceil(b[3])))];
}

/** `#rrggbb` or `#rrggbbaa` (Playwright's maskColor is a CSS colour; these are the forms taken here). */
export function parseColor(color: string): [number, number, number, number] | Error {
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(color.trim());
  if (!m)
    return new Error(
      `maskColor ${JSON.stringify(color)} is not a colour: give #rrggbb or #rrggbbaa (default #FF00FF, Playwright's pink)`,
    );
  const n = parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255, m[2] ? parseInt(m[2], 16) : 255];
}
