import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestView, type Reply, type StandInRequest } from './stand-in.js';

/**
 * A local stand-in for the Chat Completions API with tools (POST /v1/chat/completions) on
 * 127.0.0.1, port 0, as vLLM, Ollama or a gateway serve it: JSON and SSE (`chat.completion.chunk`
 * deltas with tool calls split into pieces, a usage chunk when `stream_options.include_usage`,
 * `data: [DONE]`), automatic prefix caching reported as `prompt_tokens_details.cached_tokens`,
 * OpenAI error envelopes with `retry-after`, and tool arguments that are not JSON when a script
 * asks for them (`raw-args`).
 *
 * Scripts are the Messages stand-in's (scripted-model.ts): each request is also shown to them in
 * Messages shape (`view`), tool messages as tool_result blocks, so one scripted model drives
 * both providers. Token counts are estimates (4 characters a token).
 */
export type ChatReply = Reply | { kind: 'raw-args'; name: string; arguments: string };
export type ChatScript = (req: StandInRequest & { chat: any }) => ChatReply;

const tokens = (s: string) => Math.ceil(s.length / 4);

/** The chat request as the Messages stand-in's scripts read it. */
export function asMessagesBody(chat: any): any {
  const messages: any[] = [];
  const user = () => {
    const last = messages[messages.length - 1];
    if (last?.role === 'user') return last;
    const m = { role: 'user', content: [] as any[] };
    messages.push(m);
    return m;
  };
  for (const m of chat.messages ?? []) {
    if (m.role === 'system') continue;
    if (m.role === 'assistant') {
      messages.push({
        role: 'assistant',
        content: [
          ...(m.content ? [{ type: 'text', text: m.content }] : []),
          ...(m.tool_calls ?? []).map((t: any) => ({
            type: 'tool_use',
            id: t.id,
            name: t.function.name,
            input: t.function.arguments,
          })),
        ],
      });
    } else if (m.role === 'tool') {
      const text = String(m.content);
      user().content.push({
        type: 'tool_result',
        tool_use_id: m.tool_call_id,
        is_error: text.startsWith('error: '),
        // The adapter joins a result's text blocks with newlines; the screen was a block of its own.
        content: text
          .replace(/^error: /, '')
          .split(/\n(?=<screen )/)
          .map((t) => ({ type: 'text', text: t })),
      });
    } else {
      const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
      for (const p of parts) user().content.push(p.type === 'text' ? { type: 'text', text: p.text } : p);
    }
  }
  return {
    model: chat.model,
    system: chat.messages?.find((m: any) => m.role === 'system')?.content,
    tools: (chat.tools ?? []).map((t: any) => ({ name: t.function.name })),
    messages,
  };
}

export class ChatCompletionsStandIn {
  readonly requests: Array<StandInRequest & { chat: any }> = [];
  readonly faults: Array<{ status: number; retryAfter?: number }> = [];
  script: ChatScript = () => ({ kind: 'error', status: 500, message: 'the stand-in has no script for this request' });
  private readonly prefixes = new Set<string>();
  private constructor(
    private readonly server: Server,
    /** The base URL a client is given (`…/v1`). */
    readonly url: string,
  ) {}

  static async start(script?: ChatScript): Promise<ChatCompletionsStandIn> {
    let self!: ChatCompletionsStandIn;
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          res
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: `${req.method} ${req.url}`, type: 'not_found' } }));
          return;
        }
        let chat: any;
        try {
          chat = JSON.parse(raw);
        } catch {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'body is not JSON', type: 'invalid_request_error' } }));
          return;
        }
        const body = asMessagesBody(chat);
        const request = { body, chat, headers: req.headers, view: new RequestView(body) };
        self.requests.push(request);
        self.serve(request, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    self = new ChatCompletionsStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    if (script) self.script = script;
    return self;
  }

  private serve(request: StandInRequest & { chat: any }, res: ServerResponse): void {
    const fault = this.faults.shift();
    let reply: ChatReply;
    try {
      reply = fault
        ? {
            kind: 'error',
            status: fault.status,
            message: `stand-in fault ${fault.status}`,
            headers: fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {},
          }
        : this.script(request);
    } catch (e) {
      reply = { kind: 'error', status: 500, message: `stand-in script threw: ${(e as Error).message}` };
    }
    if (reply.kind === 'error') {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
      res.end(
        JSON.stringify({ error: { message: reply.message ?? 'error', type: reply.type ?? 'api_error', code: null } }),
      );
      return;
    }
    if (reply.kind === 'raw-stream') throw new Error('raw-stream is a Messages stand-in reply');
    const { chat } = request;
    const text = reply.kind === 'text' ? reply.text : (reply.kind === 'tool' && reply.text) || '';
    const call =
      reply.kind === 'tool'
        ? { name: reply.name, arguments: JSON.stringify(reply.input) }
        : reply.kind === 'raw-args'
          ? { name: reply.name, arguments: reply.arguments }
          : null;
    const toolCall = call && { id: `call_${randomUUID().slice(0, 12)}`, type: 'function', function: call };
    const prefix = JSON.stringify([chat.messages?.[0], chat.tools]);
    const cached = this.prefixes.has(prefix) ? tokens(prefix) : 0;
    this.prefixes.add(prefix);
    const prompt = tokens(JSON.stringify(chat.messages ?? [])) + tokens(JSON.stringify(chat.tools ?? []));
    const usage = {
      prompt_tokens: prompt,
      completion_tokens: tokens(text + JSON.stringify(call ?? '')) + 8,
      total_tokens: 0,
      prompt_tokens_details: { cached_tokens: Math.min(cached, prompt) },
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const finish = toolCall ? 'tool_calls' : 'stop';
    const id = `chatcmpl-${randomUUID().slice(0, 12)}`;
    const created = Math.floor(Date.now() / 1000);
    if (!chat.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: chat.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: text || null, ...(toolCall ? { tool_calls: [toolCall] } : {}) },
              finish_reason: finish,
            },
          ],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: unknown, finish_reason: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: chat.model, choices: [{ index: 0, delta, finish_reason }] })}\n\n`,
      );
    chunk({ role: 'assistant', content: '' });
    for (let i = 0; i < text.length; i += 9) chunk({ content: text.slice(i, i + 9) });
    if (toolCall) {
      chunk({
        tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: call!.name, arguments: '' } }],
      });
      for (let i = 0; i < call!.arguments.length; i += 7)
        chunk({ tool_calls: [{ index: 0, function: { arguments: call!.arguments.slice(i, i + 7) } }] });
    }
    chunk({}, finish);
    if (chat.stream_options?.include_usage)
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: chat.model, choices: [], usage })}\n\n`,
      );
    res.end('data: [DONE]\n\n');
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
