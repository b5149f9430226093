import type { BiometricOutcome } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { WorldPort } from './world-port.js';

/**
 * The instance's fingerprint sensor (`app.biometrics`): enrol a fingerprint, then say how the next
 * authentication ends. A prompt already on screen takes the outcome at once; otherwise it is kept
 * for the next one. Without an outcome the prompt waits, as it waits for a finger.
 */
export class AppBiometrics {
  /** @internal Made by `app.biometrics`. */
  constructor(private readonly port: WorldPort) {}

  /**
   * Enrol a fingerprint (or, with `false`, remove it): apps then offer fingerprint sign-in.
   *
   * @example
   * ```ts
   * await app.biometrics.enroll();
   * await expect(app.getByRole('button', { name: 'Sign in with fingerprint' })).toBeVisible();
   * ```
   */
  async enroll(enrolled = true): Promise<void> {
    await this.port.step('app.biometrics.enroll', enrolled ? 'Enrol a fingerprint' : 'Remove the fingerprint', (call) =>
      this.set(call, { enrolled }),
    );
  }

  /**
   * The next authentication matches.
   *
   * @example
   * ```ts
   * await app.biometrics.succeedNext();
   * await app.getByRole('button', { name: 'Sign in with fingerprint' }).tap();
   * ```
   */
  async succeedNext(): Promise<void> {
    await this.port.step('app.biometrics.succeedNext', nextTitle('match'), (call) => this.set(call, { next: 'match' }));
  }

  /**
   * The next authentication fails: the finger is not recognised.
   *
   * @example
   * ```ts
   * await app.biometrics.failNext();
   * ```
   */
  async failNext(): Promise<void> {
    await this.port.step('app.biometrics.failNext', nextTitle('fail'), (call) => this.set(call, { next: 'fail' }));
  }

  /**
   * The next authentication is cancelled by the user.
   *
   * @example
   * ```ts
   * await app.biometrics.cancelNext();
   * ```
   */
  async cancelNext(): Promise<void> {
    await this.port.step('app.biometrics.cancelNext', nextTitle('cancel'), (call) =>
      this.set(call, { next: 'cancel' }),
    );
  }

  private async set(call: ApiCall, input: { enrolled?: boolean; next?: BiometricOutcome }): Promise<void> {
    await this.port.call(call, 'world_biometrics_set', input);
  }
}

/** The step title of a `*Next()`: what the next fingerprint does. */
function nextTitle(outcome: BiometricOutcome): string {
  return `The next fingerprint ${{ match: 'matches', fail: 'fails', cancel: 'is cancelled' }[outcome]}`;
}
