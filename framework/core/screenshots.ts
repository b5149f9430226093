import { DeviceError } from '../../device-runtime/client/index.js';
import type { ApiCall } from './api-call.js';
import type { DeviceCalls } from './device-calls.js';

/**
 * Screenshots of one space, for an app and its steps. Whether the runtime can take them is
 * learned from the first try: NOT_SUPPORTED (or no `ui_screenshot` tool, or no channel for it)
 * is remembered, so a runtime without screenshots is asked once, not at every step.
 */
export class Screenshots {
  /** Null until the first try; false when the runtime said it cannot. */
  private supported: boolean | null = null;

  constructor(
    private readonly calls: DeviceCalls,
    private readonly spaceId: string,
  ) {}

  /**
   * A PNG of the space's screen, or null when the runtime cannot take one. Costs one render and
   * encode on the device: not per poll.
   */
  async take(call: ApiCall, scale = 1): Promise<Buffer | null> {
    if (this.supported === false) return null;
    try {
      const shot = await this.calls.raw('ui_screenshot', { space_id: this.spaceId, scale });
      this.supported = true;
      return Buffer.from(shot.data, 'base64');
    } catch (e) {
      if (
        e instanceof DeviceError &&
        (e.code === 'NOT_SUPPORTED' || e.code === 'UNKNOWN_TOOL' || e.code === 'CHANNEL_UNAVAILABLE')
      ) {
        this.supported = false;
        return null;
      }
      throw await this.calls.translate(call, e);
    }
  }
}
