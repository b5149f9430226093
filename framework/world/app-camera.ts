import { readFile } from 'node:fs/promises';
import { NestwrightError } from '../core/errors.js';
import type { WorldPort } from './world-port.js';

/** The instance's camera (`app.camera`): the picture its captures return. */
export class AppCamera {
  /** @internal Made by `app.camera`. */
  constructor(private readonly port: WorldPort) {}

  /**
   * The image the app's next captures return: a PNG or JPEG file, or its bytes. The device
   * decodes it and refuses one that is not an image, naming the file.
   *
   * @example
   * ```ts
   * await app.camera.setImage('fixtures/images/receipt.png');
   * await app.getByDesc('Attach photo').tap();
   * ```
   */
  async setImage(image: string | Buffer): Promise<void> {
    const api = 'app.camera.setImage';
    const name = typeof image === 'string' ? image : `a Buffer of ${image.length} bytes`;
    await this.port.step(api, `Set the camera image to ${name}`, async (call) => {
      let bytes: Buffer;
      try {
        bytes = typeof image === 'string' ? await readFile(image) : image;
      } catch (e) {
        throw new NestwrightError(api, `cannot read ${image}: ${(e as Error).message}`, { code: 'USAGE', cause: e });
      }
      try {
        await this.port.call(call, 'world_camera_set', { image: bytes.toString('base64') });
      } catch (e) {
        if (e instanceof NestwrightError && e.code === 'INVALID_ARGUMENT')
          throw new NestwrightError(
            api,
            `${name} is not an image the camera can return: ${e.message.replace(`${api}: `, '')}`,
            { cause: e, code: 'INVALID_ARGUMENT' },
          );
        throw e;
      }
    });
  }
}
