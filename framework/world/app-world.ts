import { NestwrightError } from '../core/errors.js';
import type { InstancePort } from '../core/port.js';
import { AppBiometrics } from './app-biometrics.js';
import { AppCamera } from './app-camera.js';
import { AppClipboard } from './app-clipboard.js';
import { AppClock } from './app-clock.js';
import { AppNotifications } from './app-notifications.js';
import { worldPort, type WorldPort } from './world-port.js';

/** A location as Playwright's `geolocation` option and `setGeolocation` take it. */
export interface Geolocation {
  latitude: number;
  longitude: number;
  /** Metres; default 10. */
  accuracy?: number;
}

/**
 * Everything of the app's world one app object controls (docs/app-world.md), made on first use:
 * App's `clock`, `notifications`, `biometrics`, `camera`, `clipboard`, `setGeolocation` and `push`
 * are this object's.
 *
 * @internal App's members are the public API.
 */
export class AppWorldControls {
  readonly port: WorldPort;
  readonly clock: AppClock;
  readonly notifications: AppNotifications;
  readonly biometrics: AppBiometrics;
  readonly camera: AppCamera;
  readonly clipboard: AppClipboard;

  constructor(driver: InstancePort) {
    this.port = worldPort(driver);
    this.clock = new AppClock(this.port);
    this.notifications = new AppNotifications(this.port);
    this.biometrics = new AppBiometrics(this.port);
    this.camera = new AppCamera(this.port);
    this.clipboard = new AppClipboard(driver);
  }

  async setGeolocation(location: Geolocation | null): Promise<void> {
    const api = 'app.setGeolocation';
    const title = location ? `Set the location to ${location.latitude}, ${location.longitude}` : 'Clear the location';
    await this.port.step(api, title, async (call) => {
      await this.port.call(call, 'world_location_set', { location });
    });
  }

  async push(message: Record<string, string | number | boolean>): Promise<void> {
    const api = 'app.push';
    const data = Object.fromEntries(Object.entries(message).map(([k, v]) => [k, String(v)]));
    await this.port.step(api, `Push ${JSON.stringify(data)}`, async (call) => {
      const { handled } = await this.port.call(call, 'world_push', { data });
      if (!handled)
        throw new NestwrightError(
          api,
          `${this.port.who()} has no push handler (no messaging service): the message was dropped, as on a phone.`,
          { code: 'USAGE' },
        );
    });
  }
}
