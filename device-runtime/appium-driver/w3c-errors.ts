import { errors } from 'appium/driver.js';
import { DeviceError } from '../client/index.js';

/**
 * Device protocol errors as W3C WebDriver errors (Appium's classes, so the server answers with
 * the right `error` code and HTTP status). Classified by the envelope's code, never its text;
 * the message keeps the code and the runtime's hint so a WebDriver user sees what to do.
 */
export function toW3cError(command: string, e: unknown): Error {
  if (!(e instanceof DeviceError)) {
    if (e instanceof Error && 'w3cStatus' in e) return e; // already a WebDriver error
    return new errors.UnknownError(`${command}: ${(e as Error)?.message ?? String(e)}`);
  }
  const msg = `${command}: ${e.message}`;
  switch (e.code) {
    case 'NODE_NOT_FOUND':
      return new errors.NoSuchElementError(msg);
    case 'SNAPSHOT_STALE':
      return new errors.StaleElementReferenceError(msg);
    case 'INVALID_ARGUMENT':
      return new errors.InvalidArgumentError(msg);
    case 'NOT_SUPPORTED':
    case 'UNKNOWN_TOOL':
      return new errors.UnsupportedOperationError(msg);
    case 'TIMEOUT':
      return new errors.TimeoutError(msg);
    case 'APPROVAL_DENIED':
    case 'APPROVAL_REQUIRED':
    case 'TOOL_DISABLED':
      return new errors.UnsupportedOperationError(`${msg} (refused by the runtime's policy; approve it on the device)`);
    default:
      return new errors.UnknownError(msg);
  }
}

export const staleElement = (command: string, id: string, what: string) =>
  new errors.StaleElementReferenceError(
    `${command}: element ${id} (${what}) is no longer on screen: the screen changed since it was found. Find it again.`,
  );
