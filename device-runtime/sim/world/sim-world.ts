import type { BiometricOutcome, ColorScheme, Geolocation, Notification, WorldState } from '../../protocol/index.js';
import type { CameraImage } from './camera-image.js';

/** What a tap on a notification (or one of its actions) does: start an activity of the app, and/or run app code. */
export interface NotificationIntent {
  activity?: string;
  extras?: Record<string, unknown>;
  /** Bring the activity up without starting another copy when it is already on top with the same extras (singleTop). */
  singleTop?: boolean;
  run?: () => void;
}

/** A notification as an app posts it (NotificationCompat.Builder): its text, channel, actions and what a tap does. */
export interface NotificationSpec {
  title: string;
  text: string;
  channel: string;
  actions?: Array<{ id: string; title: string } & NotificationIntent>;
  tap?: NotificationIntent;
}

export interface PostedNotification extends NotificationSpec {
  id: string;
  postedAt: number;
}

/** An AlarmManager alarm at a wall time (RTC): it posts its notification when the instance's clock reaches it. */
interface Alarm {
  at: number;
  notification: NotificationSpec;
}

/** A push message waiting in the messaging service until its delivery time (the device clock, ms). */
interface Pending {
  due: number;
  data: Record<string, string>;
}

export const DEFAULT_LOCALE = 'en-US';
export const DEFAULT_TIME_ZONE = 'UTC';

/**
 * One instance's world (docs/app-world.md): what its system services report to the app — location,
 * clock, locale, time zone, colour scheme, biometrics, camera — and what the app posted through
 * them (notifications, alarms) or receives (push messages). It lives on the instance and goes with
 * it: a fresh instance, or one whose data is cleared, starts from the defaults.
 *
 * The clock is the device clock (the fault profile's, `deviceNow`) plus an offset, or a fixed
 * time: the app's wall time. The app's timers (`ctx.after`) run on the device clock; only an
 * advance moves them (see SimInstance.advanceTimers).
 */
export class SimWorld {
  location: Geolocation | null = null;
  locale = DEFAULT_LOCALE;
  timeZone = DEFAULT_TIME_ZONE;
  colorScheme: ColorScheme = 'light';
  enrolled = false;
  /** Outcomes of the next authentications, oldest first. */
  nextAuth: BiometricOutcome[] = [];
  /** The biometric prompt showing now: answer it with an outcome. */
  prompt: ((outcome: BiometricOutcome) => void) | null = null;
  camera: CameraImage | null = null;
  notifications: PostedNotification[] = [];
  alarms: Alarm[] = [];
  inbox: Pending[] = [];
  private seq = 0;
  private baseWall: number;
  private baseDevice: number;
  private running = true;

  constructor(private readonly deviceNow: () => number) {
    this.baseDevice = deviceNow();
    this.baseWall = this.baseDevice;
  }

  /** The wall time the app reads, epoch ms. */
  now(): number {
    return this.running ? this.baseWall + (this.deviceNow() - this.baseDevice) : this.baseWall;
  }

  isRunning(): boolean {
    return this.running;
  }

  /** Jump to wall time `ms`; the clock keeps running or standing as it was. */
  setTime(ms: number): void {
    this.baseWall = ms;
    this.baseDevice = this.deviceNow();
  }

  setRunning(running: boolean): void {
    this.setTime(this.now());
    this.running = running;
  }

  /** Move the wall time forward by `ms` (timers are moved by the instance). */
  advance(ms: number): void {
    this.setTime(this.now() + ms);
  }

  post(spec: NotificationSpec): PostedNotification {
    const posted = { ...spec, id: `n${++this.seq}`, postedAt: this.now() };
    this.notifications.push(posted);
    return posted;
  }

  setAlarm(at: number, notification: NotificationSpec): void {
    this.alarms.push({ at, notification });
  }

  /** Post the notifications of the alarms the wall clock has reached, in time order; how many fired. */
  fireAlarms(): number {
    const now = this.now();
    const due = this.alarms.filter((a) => a.at <= now).sort((a, b) => a.at - b.at);
    if (due.length === 0) return 0;
    this.alarms = this.alarms.filter((a) => a.at > now);
    for (const a of due) this.post(a.notification);
    return due.length;
  }

  /** Push messages due by device time `deviceNow`, taken out of the inbox. */
  takeDue(deviceNow: number): Array<Record<string, string>> {
    const due = this.inbox.filter((p) => p.due <= deviceNow).sort((a, b) => a.due - b.due);
    if (due.length) this.inbox = this.inbox.filter((p) => p.due > deviceNow);
    return due.map((p) => p.data);
  }

  /** Whether anything waits to happen without an activity's timer: an alarm or a push message. */
  pending(): boolean {
    return this.alarms.length > 0 || this.inbox.length > 0;
  }

  /** The outcome for an authentication starting now: the next queued one, or null (the prompt waits for one). */
  takeOutcome(): BiometricOutcome | null {
    return this.nextAuth.shift() ?? null;
  }

  state(): WorldState {
    return {
      location: this.location,
      clock: { now: Math.round(this.now()), running: this.running },
      locale: this.locale,
      timezone: this.timeZone,
      color_scheme: this.colorScheme,
      biometrics: { enrolled: this.enrolled, next: [...this.nextAuth] },
      camera: this.camera,
    };
  }

  /** The posted notifications as the protocol lists them. */
  listed(): Notification[] {
    return this.notifications.map((n) => ({
      id: n.id,
      title: n.title,
      text: n.text,
      channel: n.channel,
      actions: (n.actions ?? []).map((a) => ({ id: a.id, title: a.title })),
      posted_at: Math.round(n.postedAt),
    }));
  }
}
