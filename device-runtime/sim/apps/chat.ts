import { defineActivity, defineApp, type ActivityContext } from './define-app.js';
import { GENERAL, onChatPush, photoMessage, type PushedMessage } from './chat-world.js';
import { button, column, editText, iconButton, list, row, text, toolbar, type View } from './view.js';

interface ChatData {
  name: string | null;
  /** Messages received as push messages (world_push), per room. */
  pushed?: PushedMessage[];
}
type Ctx<S> = ActivityContext<ChatData, S>;

interface Message {
  id: number;
  from: string;
  text: string;
  /** When the backend delivers it to the other instances (clock ms). */
  deliverAt: number;
  room?: string;
}

/** The simulated chat server: one per space, shared by every Chat instance in it. */
interface ChatBackend {
  messages: Message[];
  nextId: number;
}

/** Server round trip before a message reaches the others (scaled by the fault profile). */
const DELIVERY_MS = 400;

const backend = (ctx: Ctx<unknown>) =>
  ctx.shared<ChatBackend>('com.nestwright.chat/backend', () => ({ messages: [], nextId: 1 }));

function messageRow(ctx: Ctx<unknown>, m: Pick<Message, 'from' | 'text' | 'deliverAt'>, me: string, now: number): View {
  const mine = m.from === me;
  const status = mine ? (now >= m.deliverAt ? 'Sent' : 'Sending…') : m.from;
  return column(
    [
      text(m.text, { id: 'message_text', height: 96 }),
      text(status, { id: mine ? 'message_status' : 'message_sender', height: 72, tone: 'muted' }),
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

/**
 * Chat (`com.nestwright.chat`): pick a name, then talk in one room. Two instances in one space
 * exchange messages through a backend shared per space; a message shows up for the others only
 * after the server delivered it, so a multi-user test must wait for it.
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
    '.ConversationActivity': defineActivity<ChatData, { draft: string; seen: number }>({
      softInput: 'resize',
      initialState: () => ({ draft: '', seen: 0 }),
      render: (ctx) => {
        const me = ctx.data.name ?? 'me';
        const room = String(ctx.extras.room ?? GENERAL);
        const now = ctx.now();
        const server = backend(ctx);
        const fromServer = server.messages.filter(
          (m) => (m.room ?? GENERAL) === room && (m.from === me || now >= m.deliverAt),
        );
        const pushed = (ctx.data.pushed ?? []).filter((m) => m.room === room);
        const visible = pushed.length
          ? [...fromServer, ...pushed].sort((a, b) => a.deliverAt - b.deliverAt)
          : fromServer;
        if (visible.length !== ctx.state.seen) {
          // New messages scroll the conversation to the end, as chat apps do.
          ctx.state.seen = visible.length;
          ctx.scrollTo('messages', Infinity);
        }
        const post = (body: string) => {
          const id = server.nextId++;
          server.messages.push({
            id,
            from: me,
            text: body,
            deliverAt: ctx.now() + ctx.scaled(DELIVERY_MS),
            ...(room === GENERAL ? {} : { room }),
          });
          ctx.world.pushToOthers({ room, from: me, text: body, message_id: String(id) }, ctx.scaled(DELIVERY_MS));
          ctx.log('I', 'ChatClient', `${me} sent message ${id}`);
        };
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
          visible.length === 0
            ? text('No messages yet', { id: 'empty' })
            : list(
                visible.map((m) => messageRow(ctx, m, me, now)),
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
