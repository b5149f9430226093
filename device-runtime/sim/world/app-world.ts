import type { BiometricOutcome, Geolocation } from '../../protocol/index.js';
import { DEFAULT_CAMERA, type CameraImage } from './camera-image.js';
import { formatClock, formatDay, formatMoney } from './locale.js';
import type { NotificationSpec, SimWorld } from './sim-world.js';

/**
 * The system services an app model reaches through `ctx.world`: the location, clock, locale and
 * camera of its instance, notifications, alarms, the messaging service and the biometric prompt.
 * The simulator's apps use only these, so whatever a test sets with the world tools is what they see.
 */
export interface AppWorld {
  /** The last known location (FusedLocationProvider.getLastLocation), or null when there is none. */
  location(): Geolocation | null;
  /** The instance's wall time, epoch ms (System.currentTimeMillis). */
  now(): number;
  readonly locale: string;
  readonly timeZone: string;
  readonly colorScheme: 'light' | 'dark';
  /** Money in the instance's locale: `$6.36` (en-US), `6,36 $` (de-DE). */
  money(cents: number, currency?: string): string;
  /** `HH:mm` of wall time `ms` in the instance's time zone. */
  clockTime(ms: number): string;
  /** "Today", "Yesterday" or the date of wall time `ms`, in the instance's time zone and locale. */
  day(ms: number): string;
  /** Post a notification (NotificationManager.notify); its id. */
  notify(notification: NotificationSpec): string;
  /** Post `notification` when the instance's wall clock reaches `at` (AlarmManager.setExact, RTC_WAKEUP). */
  setAlarm(at: number, notification: NotificationSpec): void;
  /** The app's server sends `data` to its other instances in the space through the messaging service, arriving after `delayMs` of device time. */
  pushToOthers(data: Record<string, string>, delayMs: number): void;
  /** A picture from the camera (ACTION_IMAGE_CAPTURE): the image the test set, or the default one. */
  capture(): CameraImage;
  /** Whether a fingerprint is enrolled (BiometricManager.canAuthenticate). */
  biometricsEnrolled(): boolean;
  /**
   * Show the biometric prompt (BiometricPrompt.authenticate) and call `then` with its outcome:
   * `unavailable` at once when no fingerprint is enrolled, a queued outcome at once, otherwise
   * when the test queues one or the user taps Cancel. Needs an activity (null context: unavailable).
   */
  authenticate(title: string, then: (outcome: BiometricOutcome | 'unavailable') => void): void;
}

/** What app code running outside an activity (a messaging service) may do (define-app.ts re-exports it for app models). */
export interface ServiceContext<D> {
  readonly data: D;
  update(fn: (data: D) => void): void;
  readonly world: AppWorld;
  /** Whether the instance is in front now (a chat app does not notify about the screen the user is looking at). */
  readonly foreground: boolean;
  /** The simulated clock, ms (as ActivityContext.now). */
  now(): number;
  log(tag: string, message: string): void;
}

/** The biometric prompt as a dialog window (a DialogSpec of apps/define-app.ts, declared here so that this file does not import it). */
interface PromptDialog {
  title: string;
  message: string;
  cancelable: boolean;
  onCancel: () => void;
  buttons: Array<{ label: string; id: string; onClick: () => void }>;
  package: string;
  activity: string;
}

/** What the world of a context reaches in its instance (SimInstance implements it). */
export interface WorldOwner {
  readonly world: SimWorld;
  readonly model: { readonly package: string };
  readonly env: { readonly clock: { now(): number } };
  readonly host: { invalidate(): void; readonly instances?: ReadonlyMap<string, WorldOwner> };
  log(line: { level: 'I'; tag: string; message: string }): void;
}

/** The prompt is System UI's window over the app, as on Android. */
const PROMPT_PACKAGE = 'com.android.systemui';

/** `ctx.world` for an instance; `dialog` shows and hides a window over its activity (absent in a service context). */
export function bindWorld(owner: WorldOwner, dialog?: { show(d: PromptDialog): void; dismiss(): void }): AppWorld {
  const w = () => owner.world;
  return {
    location: () => w().location,
    now: () => w().now(),
    get locale() {
      return w().locale;
    },
    get timeZone() {
      return w().timeZone;
    },
    get colorScheme() {
      return w().colorScheme;
    },
    money: (cents, currency) => formatMoney(cents, w().locale, currency),
    clockTime: (ms) => formatClock(ms, w().timeZone),
    day: (ms) => formatDay(ms, w().now(), w().locale, w().timeZone),
    notify(spec) {
      const posted = w().post(spec);
      owner.log({
        level: 'I',
        tag: 'NotificationManager',
        message: `notify ${posted.id} on ${spec.channel}: ${spec.title}`,
      });
      return posted.id;
    },
    setAlarm(at, spec) {
      w().setAlarm(at, spec);
    },
    pushToOthers(data, delayMs) {
      const due = owner.env.clock.now() + Math.max(0, delayMs);
      for (const other of owner.host.instances?.values() ?? []) {
        if (other !== owner && other.model.package === owner.model.package) other.world.inbox.push({ due, data });
      }
    },
    capture: () => w().camera ?? DEFAULT_CAMERA,
    biometricsEnrolled: () => w().enrolled,
    authenticate(title, then) {
      const world = w();
      if (!world.enrolled || !dialog) return then('unavailable');
      const queued = world.takeOutcome();
      if (queued) return then(queued);
      const answer = (outcome: BiometricOutcome) => {
        world.prompt = null;
        then(outcome);
      };
      world.prompt = (outcome) => {
        dialog.dismiss();
        answer(outcome);
      };
      dialog.show({
        title,
        message: 'Touch the fingerprint sensor',
        cancelable: true,
        onCancel: () => answer('cancel'),
        buttons: [{ label: 'Cancel', id: 'biometric_cancel', onClick: () => answer('cancel') }],
        package: PROMPT_PACKAGE,
        activity: '.biometrics.BiometricPromptActivity',
      });
    },
  };
}

/** What a service context reaches in its instance (SimInstance implements it). */
export interface ServiceOwner extends WorldOwner {
  data: unknown;
  readonly status: string;
  readonly model: {
    readonly package: string;
    readonly onPush?: (data: Record<string, string>, ctx: ServiceContext<any>) => void;
  };
  runApp(fn: () => void): void;
}

/**
 * Deliver a push message to the app's handler (FirebaseMessagingService.onMessageReceived), in
 * the app's process as any app code runs; false when the app has no handler.
 */
export function deliverPush(owner: ServiceOwner, data: Record<string, string>): boolean {
  const onPush = owner.model.onPush;
  if (!onPush) return false;
  const ctx = serviceContext(owner);
  owner.runApp(() => onPush(data, ctx));
  owner.host.invalidate();
  return true;
}

/** The context app code outside an activity runs with (a messaging service, an AppFunction). */
export function serviceContext(owner: ServiceOwner): ServiceContext<any> {
  return {
    get data() {
      return owner.data;
    },
    update(fn) {
      fn(owner.data);
      owner.host.invalidate();
    },
    world: bindWorld(owner),
    foreground: owner.status === 'foreground',
    now: () => owner.env.clock.now(),
    log: (tag, message) => owner.log({ level: 'I', tag, message }),
  };
}

/** Work of the world that falls due without an activity: alarms the wall clock reached, push messages whose delivery time came. */
export function tickWorld(owner: ServiceOwner, deviceNow: number): number {
  let fired = owner.world.fireAlarms();
  for (const data of owner.world.takeDue(deviceNow)) if (deliverPush(owner, data)) fired++;
  return fired;
}
