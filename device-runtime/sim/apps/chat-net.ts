import type { ActivityContext } from './define-app.js';

/** The chat server (sim/net/chat-api.ts), as the app calls it. */
export const CHAT_API = 'https://api.chat.nestwright.test';
/** How often an open conversation asks the server for new messages (scaled by the fault profile). */
const POLL_MS = 300;

/** A message as the server keeps it. */
export interface ServerMessage {
  id: number;
  from: string;
  text: string;
}

/** A message this instance sent: on its way, on the server (with its id), or not sent (Retry). */
export interface Outgoing {
  key: number;
  text: string;
  status: 'sending' | 'sent' | 'failed';
  id?: number;
}

/** What the conversation screen keeps of the server: the messages so far, polling, the outbox. */
export interface ChatNetState {
  messages: ServerMessage[];
  since: number;
  polling: boolean;
  lastPoll: number;
  outbox: Outgoing[];
}

export const initialChatNet = (): ChatNetState => ({
  messages: [],
  since: 0,
  polling: false,
  lastPoll: -Infinity,
  outbox: [],
});

type Ctx = ActivityContext<{ name: string | null }, ChatNetState>;

/**
 * The workspace the app's account belongs to: two instances in one space talk in the same
 * rooms, two spaces do not (the space's own id, made on first use and shared by its instances).
 */
function headers(ctx: Ctx): Record<string, string> {
  const workspace = ctx.shared('com.nestwright.chat/workspace', () => `ws-${Math.random().toString(36).slice(2, 12)}`);
  return { 'x-chat-workspace': workspace };
}

const roomUrl = (room: string) => `${CHAT_API}/rooms/${encodeURIComponent(room)}/messages`;

/**
 * Called on each render: asks for the messages after the last one seen (GET …/messages?since=ID)
 * when no poll is in flight and the last was long enough ago. Polls are background work: they do
 * not keep the UI busy.
 */
export function pollMessages(ctx: Ctx, room: string): void {
  const s = ctx.state;
  if (s.polling || ctx.now() - s.lastPoll < ctx.scaled(POLL_MS)) return;
  // Render must not invalidate: the flags are set in place.
  s.polling = true;
  s.lastPoll = ctx.now();
  ctx.fetch({ url: `${roomUrl(room)}?since=${s.since}`, headers: headers(ctx), background: true }, (res) => {
    const got = (res.json as { messages?: unknown } | null)?.messages;
    if (res.status !== 200 || !Array.isArray(got)) return ctx.set({ polling: false });
    const fresh = (got as ServerMessage[]).filter(
      (m) => typeof m?.id === 'number' && m.id > ctx.state.since && typeof m.text === 'string',
    );
    const since = fresh.reduce((a, m) => Math.max(a, m.id), ctx.state.since);
    ctx.set({ polling: false, since, messages: fresh.length ? [...ctx.state.messages, ...fresh] : ctx.state.messages });
  });
}

/** POST the message; the outbox entry says how it went ("Sent", or "Not sent" with Retry). */
export function sendMessage(ctx: Ctx, room: string, entry: Outgoing, onSent: (id: number) => void): void {
  const me = ctx.data.name ?? 'me';
  const patch = (p: Partial<Outgoing>) =>
    ctx.set({ outbox: ctx.state.outbox.map((o) => (o.key === entry.key ? { ...o, ...p } : o)) });
  if (ctx.state.outbox.some((o) => o.key === entry.key)) patch({ status: 'sending' });
  else ctx.set({ outbox: [...ctx.state.outbox, { ...entry, status: 'sending' }] });
  ctx.fetch(
    { method: 'POST', url: roomUrl(room), json: { text: entry.text, from: me }, headers: headers(ctx) },
    (res) => {
      const id = (res.json as { id?: unknown } | null)?.id;
      if (res.status === 201 && typeof id === 'number') {
        patch({ status: 'sent', id });
        onSent(id);
      } else {
        ctx.log(
          'W',
          'ChatClient',
          `message ${entry.key} not sent: ${res.error ? res.error.message : `HTTP ${res.status}`}`,
        );
        patch({ status: 'failed' });
      }
    },
  );
}

/** The conversation as it shows: the server's messages in order, then what is still on its way or not sent. */
export function conversation(s: ChatNetState): Array<ServerMessage & { outgoing?: Outgoing }> {
  const mine = new Map(s.outbox.filter((o) => o.id !== undefined).map((o) => [o.id!, o]));
  const known = s.messages.map((m) => ({ ...m, ...(mine.has(m.id) ? { outgoing: mine.get(m.id)! } : {}) }));
  const seen = new Set(s.messages.map((m) => m.id));
  const pending = s.outbox
    .filter((o) => o.id === undefined || !seen.has(o.id))
    .map((o) => ({ id: o.id ?? -o.key, from: '', text: o.text, outgoing: o }));
  return [...known, ...pending];
}
