/**
 * The app's world (docs/app-world.md): the instance's location, clock, locale and time zone, dark
 * mode, notifications, push messages, biometrics, camera and clipboard, set per instance through
 * the device protocol's `world` extension. App attaches it; nothing in the core imports further.
 */
/** @internal App's world members are the public API. */
export { AppWorldControls } from './app-world.js';
export type { Geolocation } from './app-world.js';
export { AppClock } from './app-clock.js';
export { AppNotifications, type AppNotification, type NotificationMatch } from './app-notifications.js';
export { AppBiometrics } from './app-biometrics.js';
export { AppCamera } from './app-camera.js';
export { AppClipboard } from './app-clipboard.js';
export { applyWorldOptions, type WorldOptions } from './world-options.js';
export { toHaveNotification } from './to-have-notification.js';
export type { TimeInput } from './time-input.js';
