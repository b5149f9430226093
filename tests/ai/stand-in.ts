import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScreenView } from './screen-view.js';

/**
 * A local stand-in for the Anthropic Messages API (POST /v1/messages) on 127.0.0.1, port 0:
 * non-streaming JSON and SSE streaming (message_start, content_block_* with input_json_delta,
 * message_delta with usage, message_stop), tool use, usage fields including prompt-cache reads
 * and writes, error envelopes with status and `retry-after` (429, 529, 500), and tool inputs as
 * malformed as a test asks for. Replies come from a script the test sets, which reads the request
 * (the instruction, the latest screen) the way a model would.
 *
 * Token counts are estimates (4 characters a token), not a tokenizer's: they are the figures the
 * bench reports, labelled as such. Prompt caching is modelled as the API does it: the system
 * prompt and tools marked with cache_control are written on first sight and read afterwards.
 */
export interface StandInRequest {
  body: any;
  headers: IncomingHttpHeaders;
  /** Helpers over the request: instruction, latest screen, turn. */
  view: RequestView;
}

export type Reply =
  | { kind: 'tool'; name: string; input: unknown; text?: string }
  | { kind: 'text'; text: string }
  | { kind: 'error'; status: number; type?: string; message?: string; headers?: Record<string, string> }
  | { kind: 'raw-stream'; events: Array<{ event: string; data: string }> };

export type Script = (req: StandInRequest) => Reply;

export class RequestView {
  constructor(readonly body: any) {}
  /** Which step: 'act' (act tools), 'verdict' or 'answer' (forced tool). */
  get verb(): 'act' | 'verdict' | 'answer' {
    const names = (this.body.tools ?? []).map((t: { name: string }) => t.name);
    return names.includes('verdict') ? 'verdict' : names.includes('answer') ? 'answer' : 'act';
  }
  /** The text of the <instruction>, <statement> or <question> block. */
  get instruction(): string {
    const all = JSON.stringify(this.body.messages ?? []);
    const m = /<(instruction|statement|question)>\\n([\s\S]*?)\\n<\/\1>/.exec(all);
    return m ? JSON.parse(`"${m[2]}"`) : '';
  }
  /** Assistant turns so far (0 on the first request of a step). */
  get turn(): number {
    return (this.body.messages ?? []).filter((m: { role: string }) => m.role === 'assistant').length;
  }
  /** Every text the request carries, in order (messages only). */
  texts(): string[] {
    const out: string[] = [];
    const walk = (c: any) => {
      if (typeof c === 'string') out.push(c);
      else if (Array.isArray(c)) c.forEach(walk);
      else if (c && typeof c === 'object') {
        if (typeof c.text === 'string') out.push(c.text);
        if (c.content) walk(c.content);
      }
    };
    for (const m of this.body.messages ?? []) walk(m.content);
    return out;
  }
  /** The latest <screen> block, parsed. */
  screen(): ScreenView {
    const blocks = this.texts().filter((t) => t.startsWith('<screen '));
    return new ScreenView(blocks[blocks.length - 1] ?? '');
  }
  /** The last tool_result text (what the framework said about the last call). */
  lastResult(): { text: string; isError: boolean } | null {
    const msgs = this.body.messages ?? [];
    for (let i = msgs.length - 1; i >= 0; i--) {
      const c = Array.isArray(msgs[i].content) ? msgs[i].content : [];
      const r = c.filter((b: any) => b.type === 'tool_result').pop();
      if (r) return { text: (r.content ?? []).map((x: any) => x.text ?? '').join('\n'), isError: !!r.is_error };
    }
    return null;
  }
}

const tokens = (s: string) => Math.ceil(s.length / 4);

export class MessagesStandIn {
  readonly requests: StandInRequest[] = [];
  /** Failures served before the script, in order: `{ status: 429, retryAfter: 1 }`. */
  readonly faults: Array<{ status: number; retryAfter?: number; type?: string }> = [];
  script: Script = () => ({
    kind: 'error',
    status: 500,
    type: 'api_error',
    message: 'the stand-in has no script for this request',
  });
  private readonly cachedPrefixes = new Set<string>();
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(script?: Script): Promise<MessagesStandIn> {
    let self!: MessagesStandIn;
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              type: 'error',
              error: { type: 'not_found_error', message: `${req.method} ${req.url}` },
            }),
          );
          return;
        }
        let body: any;
        try {
          body = JSON.parse(raw);
        } catch {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(
              JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'body is not JSON' } }),
            );
          return;
        }
        const request: StandInRequest = { body, headers: req.headers, view: new RequestView(body) };
        self.requests.push(request);
        self.serve(request, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    self = new MessagesStandIn(server, `http://127.0.0.1:${port}`);
    if (script) self.script = script;
    return self;
  }

  private serve(request: StandInRequest, res: import('node:http').ServerResponse): void {
    const fault = this.faults.shift();
    let reply: Reply;
    try {
      reply = fault
        ? {
            kind: 'error',
            status: fault.status,
            type: fault.type ?? errorType(fault.status),
            message: `stand-in fault ${fault.status}`,
            headers: fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {},
          }
        : this.script(request);
    } catch (e) {
      reply = {
        kind: 'error',
        status: 500,
        type: 'api_error',
        message: `stand-in script threw: ${(e as Error).message}`,
      };
    }
    if (reply.kind === 'error') {
      res.writeHead(reply.status, {
        'content-type': 'application/json',
        'request-id': `req_${randomUUID()}`,
        ...(reply.headers ?? {}),
      });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: reply.type ?? errorType(reply.status), message: reply.message ?? 'error' },
        }),
      );
      return;
    }
    const { body } = request;
    const prefix = JSON.stringify([body.system, body.tools]);
    const marked =
      JSON.stringify(body.system ?? '').includes('cache_control') ||
      JSON.stringify(body.tools ?? '').includes('cache_control');
    const prefixTokens = tokens(prefix);
    const seen = this.cachedPrefixes.has(prefix);
    if (marked) this.cachedPrefixes.add(prefix);
    const content =
      reply.kind === 'raw-stream'
        ? []
        : reply.kind === 'text'
          ? [{ type: 'text', text: reply.text }]
          : [
              ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
              {
                type: 'tool_use',
                id: `toolu_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
                name: reply.name,
                input: reply.input,
              },
            ];
    const usage = {
      input_tokens: tokens(JSON.stringify(body.messages ?? [])) + (marked ? 0 : prefixTokens),
      output_tokens: tokens(JSON.stringify(content)) + 8,
      cache_creation_input_tokens: marked && !seen ? prefixTokens : 0,
      cache_read_input_tokens: marked && seen ? prefixTokens : 0,
    };
    const message = {
      id: `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage,
    };
    if (!body.stream) {
      res
        .writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${randomUUID()}` })
        .end(JSON.stringify(message));
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': `req_${randomUUID()}`,
    });
    const send = (event: string, data: unknown) =>
      res.write(`event: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    if (reply.kind === 'raw-stream') {
      for (const e of reply.events) send(e.event, e.data);
      res.end();
      return;
    }
    send('message_start', {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
    });
    content.forEach((block: any, index) => {
      if (block.type === 'text') {
        send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: block.text },
        });
      } else {
        send('content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } });
        const json = JSON.stringify(block.input);
        // Split the input into small pieces, as the API streams it.
        for (let i = 0; i < json.length; i += 7)
          send('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: json.slice(i, i + 7) },
          });
      }
      send('content_block_stop', { type: 'content_block_stop', index });
    });
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    });
    send('message_stop', { type: 'message_stop' });
    res.end();
  }

  /** Requests whose body mentions `text` anywhere (messages, system, tools). */
  mentioning(text: string): StandInRequest[] {
    return this.requests.filter((r) => JSON.stringify(r.body).includes(text));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

function errorType(status: number): string {
  return status === 429
    ? 'rate_limit_error'
    : status === 529
      ? 'overloaded_error'
      : status === 401
        ? 'authentication_error'
        : status === 400
          ? 'invalid_request_error'
          : 'api_error';
}
