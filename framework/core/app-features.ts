import type { Page } from '@playwright/test';
import { AppAi } from '../ai/app-ai.js';
import { AppFunctions } from '../functions/index.js';
import { auditOf, type AccessibilityAuditOptions, type AccessibilityAuditResult } from './accessibility.js';
import type { AppDriver } from './driver.js';
import { AppNetworkMembers } from './app-network-members.js';
import { FEATURE_PORT, type PortSubject } from './port.js';
import { AppWebViews, type WebView, type WebViewOptions } from '../webview/index.js';
import {
  AppWorldControls,
  type AppBiometrics,
  type AppCamera,
  type AppClipboard,
  type AppClock,
  type AppNotifications,
  type Geolocation,
} from '../world/index.js';

/**
 * The features an `App` attaches (AI steps, WebViews, the instance's world), each a thin
 * delegate to its feature folder over the app's port. Kept apart from `app.ts` so that the app's
 * own surface — locators, keys, lifecycle — reads on one page; `App` is the only subclass.
 */
export abstract class AppFeatures extends AppNetworkMembers {
  /** @internal */
  abstract readonly driver: AppDriver;
  /** @internal */
  abstract get [FEATURE_PORT](): PortSubject;

  private aiVerbs: AppAi | undefined;
  /**
   * Plain-language steps driven by a model: `app.ai.act`, `assert`, `extract`, `waitFor`
   * (configured under `use.ai`; see the README's AI steps).
   *
   * @example
   * ```ts
   * await app.ai.act('add a note titled Milk');
   * await app.ai.assert('a note titled Milk is in the list');
   * ```
   */
  get ai(): AppAi {
    return (this.aiVerbs ??= new AppAi(this.port));
  }

  private fns: AppFunctions | undefined;

  /**
   * The functions the app declares for agents (Android's AppFunctions, docs/functions.md): list
   * them, call one; each call is a step of the test.
   *
   * @example
   * ```ts
   * await app.functions.call('createNote', { title: 'Milk' });
   * await expect(app.getByText('Milk')).toBeVisible();
   * ```
   */
  get functions(): AppFunctions {
    return (this.fns ??= new AppFunctions(this.driver));
  }

  private webViews: AppWebViews | undefined;

  /**
   * The page of a WebView of this instance as Playwright's own `Page` (docs/webviews.md): the only
   * WebView on screen, or the one whose `url` or `title` matches, waiting for it to appear (the
   * action timeout). Its actions are steps of the test; it closes with the instance.
   *
   * @example
   * ```ts
   * await app.getByRole('button', { name: 'Help' }).tap();
   * const help = await app.webview();
   * await help.getByPlaceholder('Search help').fill('refund');
   * await expect(help.getByRole('button', { name: 'How do I get a refund?' })).toBeVisible();
   * ```
   */
  webview(options?: WebViewOptions): Promise<Page> {
    return (this.webViews ??= new AppWebViews(this.port)).webview(options);
  }

  /**
   * This instance's WebViews now (those on screen first), each with its URL, title, bounds and
   * `page()` (docs/webviews.md).
   *
   * @example
   * ```ts
   * const [help] = await app.webviews();
   * console.log(help?.url, help?.onScreen);
   * ```
   */
  webviews(): Promise<WebView[]> {
    return (this.webViews ??= new AppWebViews(this.port)).list();
  }

  private worldControls: AppWorldControls | undefined;
  private get world(): AppWorldControls {
    return (this.worldControls ??= new AppWorldControls(this.port));
  }

  /**
   * This instance's clock (Playwright's `page.clock` methods): the wall time its app, timers and
   * alarms see, for this instance only (docs/app-world.md).
   *
   * @example
   * ```ts
   * await app.clock.setFixedTime('2026-01-15T09:00:00+09:00');
   * await app.clock.fastForward('01:00:00');
   * ```
   */
  get clock(): AppClock {
    return this.world.clock;
  }

  /**
   * The notifications this instance posted: `list()`, each with `tap()` and `dismiss()`.
   *
   * @example
   * ```ts
   * const [reminder] = await app.notifications.list();
   * await reminder?.tap();
   * ```
   */
  get notifications(): AppNotifications {
    return this.world.notifications;
  }

  /**
   * This instance's fingerprint sensor: `enroll()`, then `succeedNext()`, `failNext()` or `cancelNext()`.
   *
   * @example
   * ```ts
   * await app.biometrics.enroll();
   * await app.biometrics.succeedNext();
   * ```
   */
  get biometrics(): AppBiometrics {
    return this.world.biometrics;
  }

  /**
   * This instance's camera: `setImage(path | Buffer)` is what its next captures return.
   *
   * @example
   * ```ts
   * await app.camera.setImage('fixtures/images/receipt.png');
   * ```
   */
  get camera(): AppCamera {
    return this.world.camera;
  }

  /**
   * The clipboard the app sees (its space's): `read()` and `write(text)`.
   *
   * @example
   * ```ts
   * await app.clipboard.write('SAVE10');
   * ```
   */
  get clipboard(): AppClipboard {
    return this.world.clipboard;
  }

  /**
   * Where this instance's location services say the device is (Playwright's `setGeolocation`);
   * null: no location. The `geolocation` option sets it for every instance of a test.
   *
   * @example
   * ```ts
   * await app.setGeolocation({ latitude: 52.52, longitude: 13.405 }); // Berlin
   * ```
   */
  setGeolocation(location: Geolocation | null): Promise<void> {
    return this.world.setGeolocation(location);
  }

  /**
   * Deliver a push message to this instance, as its messaging service (FCM) would hand the data
   * payload to the app. Throws when the app has no push handler.
   *
   * @example
   * ```ts
   * await app.push({ room: 'Support', from: 'Ben', text: 'Your order shipped' });
   * ```
   */
  push(message: Record<string, string | number | boolean>): Promise<void> {
    return this.world.push(message);
  }

  /**
   * Audit this screen with the checks of Android's Accessibility Test Framework (docs/accessibility.md):
   * every finding with its rule, severity, a locator for its node and the measured figure. It does
   * not fail; `expect(app).toPassAccessibilityAudit()` is the assertion form.
   *
   * @example
   * ```ts
   * const { findings } = await app.accessibilityAudit({ rules: { only: ['TouchTargetSizeCheck'] } });
   * for (const f of findings) console.log(f.rule, f.selector, f.measured);
   * ```
   */
  accessibilityAudit(opts?: AccessibilityAuditOptions): Promise<AccessibilityAuditResult> {
    return auditOf('app.accessibilityAudit', this[FEATURE_PORT], opts);
  }
}
