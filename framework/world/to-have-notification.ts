import { NestwrightError } from '../core/errors.js';
import { poll } from '../core/poll.js';
import { portOf } from '../core/port.js';
import type { NotificationMatch } from './app-notifications.js';
import { matchesNotification, showNotification } from './app-notifications.js';
import { worldPort } from './world-port.js';

type MatcherState = { isNot: boolean; timeout?: number };

/**
 * `expect(app).toHaveNotification({ title, text })`: retried until the instance shows a
 * notification with each given field (a string equal, a RegExp matching), or the timeout; `.not`
 * waits until none does. Failing, it lists the notifications seen last.
 */
export async function toHaveNotification(
  this: MatcherState,
  received: unknown,
  want: NotificationMatch,
  opts: { timeout?: number } = {},
) {
  const api = 'expect.toHaveNotification';
  const subject = portOf(received);
  if (!subject || subject.locator)
    throw new NestwrightError(
      api,
      'expect(received).toHaveNotification() takes an app (the `app` fixture, or space.launch())',
      {
        code: 'INVALID_ARGUMENT',
      },
    );
  const port = worldPort(subject.port);
  const ms = port.expectTimeout(opts.timeout ?? this.timeout);
  let seen: Array<{ title: string; text: string; channel: string }> = [];
  const wanted = Object.entries(want)
    .map(([k, v]) => `${k} ${v instanceof RegExp ? String(v) : JSON.stringify(v)}`)
    .join(', ');
  const r = await port.step(
    api,
    `Expect ${port.who()} ${this.isNot ? 'not ' : ''}to have notification ${wanted}`,
    (call) =>
      poll(
        ms,
        async () => {
          seen = (await port.call(call, 'world_notifications_list', {})).notifications;
          return seen.some((n) => matchesNotification(n, want)) !== this.isNot
            ? { done: true, value: true }
            : { done: false };
        },
        port.clock,
      ),
    'assertion',
  );
  const pass = 'value' in r ? !this.isNot : this.isNot;
  return {
    pass,
    name: 'toHaveNotification',
    message: () =>
      `expect(app).${this.isNot ? 'not.' : ''}toHaveNotification() failed\n\nApp: ${port.who()}\nExpected: ${this.isNot ? 'no ' : ''}notification with ${wanted}\nReceived: ${seen.length ? seen.map(showNotification).join('\n          ') : 'no notifications'}\nTimeout: ${port.describeTimeout(ms)}`,
  };
}
