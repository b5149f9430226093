import type { Notification } from '../../device-runtime/protocol/index.js';
import type { WorldPort } from './world-port.js';

/**
 * One notification the instance posted, as the shade shows it: `title`, `text`, `channel`,
 * `actions`; `tap()` runs what it opens (and it goes, as with autoCancel), `dismiss()` swipes it away.
 */
export interface AppNotification {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  /** The notification channel id, e.g. `messages`. */
  readonly channel: string;
  readonly actions: ReadonlyArray<{ id: string; title: string }>;
  /** The instance's wall time when it was posted, epoch ms. */
  readonly postedAt: number;
  /** Tap it, or one of its actions (by id or title). Fails with NOTIFICATION_NOT_FOUND once it is gone. */
  tap(opts?: { action?: string }): Promise<void>;
  /** Swipe it away. Fails with NOTIFICATION_NOT_FOUND once it is gone. */
  dismiss(): Promise<void>;
}

/** What a test looks for: each given field equal to (or matching) the notification's. */
export interface NotificationMatch {
  title?: string | RegExp;
  text?: string | RegExp;
  channel?: string;
}

export function matchesNotification(
  n: { title: string; text: string; channel: string },
  want: NotificationMatch,
): boolean {
  const ok = (value: string, w: string | RegExp | undefined) =>
    w === undefined || (typeof w === 'string' ? value === w : w.test(value));
  return ok(n.title, want.title) && ok(n.text, want.text) && ok(n.channel, want.channel);
}

/** `"Reminder" — "Buy milk" (reminders)`: a notification in messages. */
export function showNotification(n: { title: string; text: string; channel: string }): string {
  return `${JSON.stringify(n.title)} — ${JSON.stringify(n.text)} (${n.channel})`;
}

/**
 * The instance's notifications (`app.notifications`): the ones it posted and that are still
 * showing. The assertion form, retrying, is `expect(app).toHaveNotification({ title, text })`.
 */
export class AppNotifications {
  /** @internal Made by `app.notifications`. */
  constructor(private readonly port: WorldPort) {}

  /**
   * The notifications showing now, oldest first.
   *
   * @example
   * ```ts
   * const [first] = await app.notifications.list();
   * await first?.tap();
   * ```
   */
  async list(): Promise<AppNotification[]> {
    const { notifications } = await this.port.wrap('app.notifications.list', {}, (call) =>
      this.port.call(call, 'world_notifications_list', {}),
    );
    return notifications.map((n) => this.notification(n));
  }

  private notification(n: Notification): AppNotification {
    const port = this.port;
    return {
      id: n.id,
      title: n.title,
      text: n.text,
      channel: n.channel,
      actions: n.actions,
      postedAt: n.posted_at,
      async tap(opts = {}) {
        const api = 'notification.tap';
        const action =
          opts.action === undefined
            ? undefined
            : (n.actions.find((a) => a.id === opts.action || a.title === opts.action)?.id ?? opts.action);
        await port.step(
          api,
          `Tap notification ${JSON.stringify(n.title)}${opts.action ? ` action ${JSON.stringify(opts.action)}` : ''}`,
          async (call) => {
            await port.call(call, 'world_notification_tap', { notification_id: n.id, ...(action ? { action } : {}) });
          },
        );
      },
      async dismiss() {
        const api = 'notification.dismiss';
        await port.step(api, `Dismiss notification ${JSON.stringify(n.title)}`, async (call) => {
          await port.call(call, 'world_notification_dismiss', { notification_id: n.id });
        });
      },
    };
  }
}
