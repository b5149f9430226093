import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { z } from 'zod';
import { toolError, type CameraImageSchema } from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';

export type CameraImage = z.infer<typeof CameraImageSchema>;

/** The picture a capture returns when the test set none: a VGA frame, as an emulator's virtual scene camera gives. */
export const DEFAULT_CAMERA: CameraImage = { width: 640, height: 480, mime: 'image/png' };

/** Decoding a camera frame bigger than this is refused rather than run out of memory (a 48 MP sensor's frame). */
const MAX_PIXELS = 50_000_000;

/**
 * The size and type of a camera image given as base64: the whole image is decoded (pngjs checks
 * every chunk's CRC, jpeg-js every segment), so a truncated or mislabelled file is refused here,
 * as the camera HAL would refuse it, rather than reaching the app.
 */
export function decodeCameraImage(api: string, base64: string): CameraImage {
  const bytes = Buffer.from(base64, 'base64');
  const head = bytes.subarray(0, 8).toString('hex');
  const refuse = (why: string) =>
    new SimError(
      toolError('INVALID_ARGUMENT', `${api}: the camera image is not a valid PNG or JPEG (${why})`, {
        hint: 'Pass the bytes of a .png or .jpg file, base64-encoded.',
        details: { bytes: bytes.length, starts_with: head },
      }),
    );
  if (bytes.length === 0) throw refuse('it is empty');
  if (head === '89504e470d0a1a0a') {
    try {
      const png = PNG.sync.read(bytes);
      return { width: png.width, height: png.height, mime: 'image/png' };
    } catch (e) {
      throw refuse(`PNG: ${(e as Error).message}`);
    }
  }
  if (head.startsWith('ffd8ff')) {
    try {
      const img = jpeg.decode(bytes, {
        useTArray: true,
        maxResolutionInMP: MAX_PIXELS / 1e6,
        maxMemoryUsageInMB: 1024,
      });
      return { width: img.width, height: img.height, mime: 'image/jpeg' };
    } catch (e) {
      throw refuse(`JPEG: ${(e as Error).message}`);
    }
  }
  throw refuse(`it starts with bytes ${head}, neither PNG's 89504e47 nor JPEG's ffd8ff`);
}
