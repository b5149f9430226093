import { defineActivity, defineApp, type ActivityContext } from './define-app.js';
import { GENERAL, onChatPush, photoMessage, type PushedMessage } from './chat-world.js';
import {
  conversation,
  initialChatNet,
  pollMessages,
  sendMessage,
  type ChatNetState,
  type Outgoing,
} from './chat-net.js';
import { button, column, editText, iconButton, list, row, text, toolbar, type View } from './view.js';

interface ChatData {
  name: string | null;
  /** Messages received as push messages (world_push), per room. */
  pushed?: PushedMessage[];
}
type Ctx<S> = ActivityContext<ChatData, S>;

interface Shown {
  from: string;
  text: string;
  /** Sent by this instance: how it went. */
  outgoing?: Outgoing;
}

function messageRow(ctx: Ctx<unknown>, m: Shown, me: string, retry: (o: Outgoing) => void): View {
  const mine = m.outgoing !== undefined || m.from === me;
  const o = m.outgoing;
  const status = !mine ? m.from : o?.status === 'sending' ? 'Sending…' : o?.status === 'failed' ? 'Not sent' : 'Sent';
  return column(
    [
      text(m.text, { id: 'message_text', height: 96 }),
      o?.status === 'failed'
        ? row(
            [
              text(status, { id: 'message_status', tone: 'muted' }),
              button('Retry', () => retry(o), { id: 'retry_send', width: 300 }),
            ],
            { height: 132 },
          )
        : text(status, { id: mine ? 'message_status' : 'message_sender', height: 72, tone: 'muted' }),
    ],
    {
      id: mine ? 'outgoing' : 'incoming',
      onLongClick: () =>
        ctx.showDialog({
          cancelable: true,
          items: [{ label: 'Copy', onClick: () => (ctx.setClipboard(m.text), ctx.toast('Copied')) }],
        }),
    },
  );
}

let outgoingSeq = 0;

/**
 * Chat (`com.nestwright.chat`): pick a name, then talk in one room. Messages go to the chat
 * server (POST https://api.chat.nestwright.test/rooms/{room}/messages) and an open conversation
 * polls it (GET …?since=ID); two instances in one space share a workspace, so each sees the
 * other's messages once the server has them and its next poll ran: a multi-user test must wait
 * for it. A message the server did not take is marked "Not sent" with Retry.
 */
export const chatApp = defineApp<ChatData>({
  package: 'com.nestwright.chat',
  label: 'Chat',
  launcher: '.ConversationListActivity',
  initialData: () => ({ name: null }),
  onPush: onChatPush,
  activities: {
    '.ConversationListActivity': defineActivity<ChatData, { name: string; redirecting: boolean }>({
      initialState: () => ({ name: '', redirecting: false }),
      render: (ctx) => {
        if (ctx.data.name && !ctx.state.redirecting) {
          // Already named: straight into the room (render runs per frame, so schedule it once).
          ctx.state.redirecting = true;
          ctx.after(0, () => (ctx.start('.ConversationActivity'), ctx.finish()), { fixed: true });
        }
        const join = () => {
          const name = ctx.state.name.trim();
          if (!name) return ctx.toast('Enter your name');
          ctx.update((d) => void (d.name = name));
          ctx.start('.ConversationActivity');
          ctx.finish();
        };
        return column([
          toolbar('Chat'),
          text('Choose a display name', { id: 'prompt' }),
          editText(ctx.state.name, (name) => ctx.set({ name }), { id: 'name', hint: 'Your name', onSubmit: join }),
          button('Join', join, { id: 'join' }),
        ]);
      },
    }),
    '.ConversationActivity': defineActivity<ChatData, { draft: string; seen: number } & ChatNetState>({
      softInput: 'resize',
      initialState: () => ({ draft: '', seen: 0, ...initialChatNet() }),
      render: (ctx) => {
        const me = ctx.data.name ?? 'me';
        const room = String(ctx.extras.room ?? GENERAL);
        pollMessages(ctx, room);
        const pushed = (ctx.data.pushed ?? []).filter((m) => m.room === room);
        const visible: Shown[] = [...conversation(ctx.state), ...pushed];
        if (visible.length !== ctx.state.seen) {
          // New messages scroll the conversation to the end, as chat apps do.
          ctx.state.seen = visible.length;
          ctx.scrollTo('messages', Infinity);
        }
        const deliver = (o: Outgoing) =>
          sendMessage(ctx, room, o, (id) => {
            ctx.world.pushToOthers({ room, from: me, text: o.text, message_id: String(id) }, 0);
            ctx.log('I', 'ChatClient', `${me} sent message ${id}`);
          });
        const post = (body: string) => deliver({ key: ++outgoingSeq, text: body, status: 'sending' });
        const send = () => {
          const body = ctx.state.draft.trim();
          if (!body) return;
          post(body);
          ctx.set({ draft: '' });
        };
        return column([
          toolbar(`${room} (${me})`, [
            iconButton('Leave room', () => (ctx.update((d) => void (d.name = null)), ctx.finish()), { id: 'leave' }),
          ]),
          ...(ctx.online() ? [] : [text("You're offline", { id: 'offline', tone: 'muted', height: 96 })]),
          visible.length === 0
            ? text('No messages yet', { id: 'empty' })
            : list(
                visible.map((m) => messageRow(ctx, m, me, deliver)),
                { id: 'messages' },
              ),
          row(
            [
              editText(ctx.state.draft, (draft) => ctx.set({ draft }), {
                id: 'message_input',
                hint: 'Message',
                onSubmit: send,
                onLongClick: () =>
                  ctx.showDialog({
                    cancelable: true,
                    items: [
                      { label: 'Paste', onClick: () => ctx.set({ draft: ctx.state.draft + (ctx.clipboard() ?? '') }) },
                    ],
                  }),
              }),
              iconButton('Attach photo', () => (post(photoMessage(ctx.world)), ctx.set({})), { id: 'attach' }),
              iconButton('Send', send, { id: 'send' }),
            ],
            { height: 160 },
          ),
        ]);
      },
    }),
  },
});
