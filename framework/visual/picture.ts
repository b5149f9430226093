import { createRequire } from 'node:module';
import type SharpFn from 'sharp';
import type { Bounds } from '../../device-runtime/protocol/index.js';

/** Decoded pixels: 8 bits per channel, RGB (3) or RGBA (4), rows top to bottom. */
export interface Pixels {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Buffer;
}

/**
 * One picture of the screen (or part of it), as PNG bytes, as decoded pixels, or both: each is
 * made from the other only when asked for, so a picture that is only compared byte for byte
 * (the usual pass) is never decoded, and one that is only compared is never encoded.
 *
 * Codec: sharp (libvips and libspng), a kept library that decodes a phone-sized PNG several
 * times faster than a JavaScript codec; pixels stay RGB when the PNG has no alpha, so nothing
 * is widened to RGBA except the rows a comparison looks at (compare.ts).
 */
export class Picture {
  private decoded: Promise<Pixels> | null = null;
  private encoded: Promise<Buffer> | null = null;

  private constructor(
    private readonly bytes: Buffer | null,
    private readonly image: Pixels | null,
  ) {
    if (image) this.decoded = Promise.resolve(image);
    if (bytes) this.encoded = Promise.resolve(bytes);
  }

  static fromPng(png: Buffer): Picture {
    return new Picture(png, null);
  }

  static fromPixels(image: Pixels): Picture {
    return new Picture(null, image);
  }

  /** The PNG bytes (encoded on first use when the picture was made from pixels). */
  png(): Promise<Buffer> {
    if (this.encoded) return this.encoded;
    const { width, height, channels, data } = this.image!;
    return (this.encoded = sharp(data, { raw: { width, height, channels } }).png().toBuffer());
  }

  /** The decoded pixels (decoded on first use). Callers must not change them. */
  pixels(): Promise<Pixels> {
    return (this.decoded ??= decode(this.bytes!));
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
  async edit(paint: Bounds[], color: [number, number, number, number], crop: Bounds | null): Promise<Picture> {
    const src = await this.pixels();
    const [l, t, r, b] = crop ? clamp(crop, src.width, src.height) : [0, 0, src.width, src.height];
    const out = blank(Math.max(1, r - l), Math.max(1, b - t), 4);
    const rows = rgba(src, t, b);
    for (let y = 0; y < b - t; y++)
      rows.copy(out.data, y * out.width * 4, (y * src.width + l) * 4, (y * src.width + r) * 4);
    for (const box of paint) {
      const [pl, pt, pr, pb] = clamp([box[0] - l, box[1] - t, box[2] - l, box[3] - t], out.width, out.height);
      for (let y = pt; y < pb; y++) {
        for (let x = pl; x < pr; x++) out.data.set(color, (y * out.width + x) * 4);
      }
    }
    return Picture.fromPixels(out);
  }
}

// sharp (libvips) loads with the first picture that is encoded or decoded, not with the framework.
const requireHere = createRequire(import.meta.url);
let sharpFn: typeof SharpFn | undefined;
function sharp(...args: Parameters<typeof SharpFn>): ReturnType<typeof SharpFn> {
  sharpFn ??= requireHere('sharp') as typeof SharpFn;
  return sharpFn(...args);
}

async function decode(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels === 3 || info.channels === 4)
    return { width: info.width, height: info.height, channels: info.channels, data };
  // Grey or grey with alpha: widened to RGBA.
  const wide = await sharp(png)
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { width: wide.info.width, height: wide.info.height, channels: 4, data: wide.data };
}

/** A width × height picture, every byte 0. */
export function blank(width: number, height: number, channels: 3 | 4): Pixels {
  return { width, height, channels, data: Buffer.alloc(width * height * channels) };
}

/** Rows [top, bottom) of `p` as RGBA (a view when `p` is RGBA already, a widened copy otherwise). */
export function rgba(p: Pixels, top: number, bottom: number): Buffer {
  const rowBytes = p.width * p.channels;
  if (p.channels === 4) return p.data.subarray(top * rowBytes, bottom * rowBytes);
  const n = p.width * (bottom - top);
  const out = Buffer.alloc(n * 4);
  for (let i = 0, s = top * rowBytes, d = 0; i < n; i++, s += 3, d += 4) {
    out[d] = p.data[s]!;
    out[d + 1] = p.data[s + 1]!;
    out[d + 2] = p.data[s + 2]!;
    out[d + 3] = 255;
  }
  return out;
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
