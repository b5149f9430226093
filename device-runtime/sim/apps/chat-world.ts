import type { ServiceContext } from './define-app.js';
import type { AppWorld } from '../world/app-world.js';

/** The room everyone joins; messages of other rooms arrive only as push messages. */
export const GENERAL = 'General';

/** A message the instance received as a push message (world_push), kept with its data. */
export interface PushedMessage {
  room: string;
  from: string;
  text: string;
  /** Simulated clock ms when it arrived (orders it among the server's messages). */
  deliverAt: number;
}

/**
 * What Chat takes from the instance's world (docs/app-world.md). The chat server tells the
 * other instances of a new message through the messaging service, as FCM would; a push message
 * `{ room, from, text }` from a test arrives the same way. Each is handled here: a message from
 * a test is kept, and while Chat is not in front it posts "New message from {sender}", whose
 * tap opens that conversation.
 */
export function onChatPush<D extends { name: string | null; pushed?: PushedMessage[] }>(
  data: Record<string, string>,
  ctx: ServiceContext<D>,
): void {
  const room = data.room || GENERAL;
  const { from, text } = data;
  if (!from || !text)
    return ctx.log('ChatPush', `ignored a push without from and text: ${Object.keys(data).join(', ')}`);
  if (!ctx.data.name || from === ctx.data.name) return;
  // The server's own fan-out carries its message id: the message is on the server already.
  if (data.message_id === undefined)
    ctx.update((d) => void (d.pushed = [...(d.pushed ?? []), { room, from, text, deliverAt: ctx.now() }]));
  if (ctx.foreground) return;
  ctx.world.notify({
    title: `New message from ${from}`,
    text,
    channel: 'messages',
    actions: [{ id: 'mark_read', title: 'Mark as read' }],
    // The launcher's redirect opens General without extras: the same screen, not a second copy.
    tap: { activity: '.ConversationActivity', extras: room === GENERAL ? {} : { room }, singleTop: true },
  });
}

/** The text of a message with a photo from the camera: "Photo 640×480". */
export function photoMessage(world: AppWorld): string {
  const photo = world.capture();
  return `Photo ${photo.width}×${photo.height}`;
}
