import type { ApiRequest, ApiResponse, ApiRoute } from './api.js';

/** Server time before a posted message is stored (scaled by the fault profile). */
export const POST_MS = 400;

interface StoredMessage {
  id: number;
  from: string;
  text: string;
}

/**
 * The Chat API (`https://api.chat.nestwright.test`): `GET /rooms/{room}/messages?since=ID` →
 * `{ messages: [{ id, from, text }] }` with the messages after `since` (polled by the app), and
 * `POST /rooms/{room}/messages` `{ text, from }` → 201 `{ id }`. Rooms are per workspace, named by
 * the `x-chat-workspace` header (the simulator's Chat sends its space's id: two spaces do not
 * share a conversation, two instances in one space do).
 */
export function chatRoutes(): ApiRoute {
  const rooms = new Map<string, StoredMessage[]>();
  let nextId = 1;
  const roomOf = (req: ApiRequest, room: string) => {
    const key = `${String(req.headers['x-chat-workspace'] ?? '')}/${room}`;
    let list = rooms.get(key);
    if (!list) rooms.set(key, (list = []));
    return list;
  };
  return (req: ApiRequest): ApiResponse | null => {
    const m = /^\/rooms\/([^/]+)\/messages$/.exec(req.path);
    if (!m) return null;
    const room = decodeURIComponent(m[1]!);
    if (req.method === 'GET') {
      const since = Number(req.query.get('since') ?? '0');
      if (!Number.isFinite(since)) return { status: 400, json: { error: 'since must be a message id' } };
      return { status: 200, json: { messages: roomOf(req, room).filter((x) => x.id > since) } };
    }
    if (req.method === 'POST') {
      const body = req.body as { text?: unknown; from?: unknown } | undefined;
      if (typeof body?.text !== 'string' || !body.text) return { status: 400, json: { error: 'text is required' } };
      const from = typeof body.from === 'string' ? body.from : 'anonymous';
      const text = body.text;
      // Stored when the server is done with it: the others see it from then on.
      const later = () => {
        const msg = { id: nextId++, from, text };
        roomOf(req, room).push(msg);
        return { id: msg.id };
      };
      return { status: 201, delayMs: POST_MS, later };
    }
    return null;
  };
}
