import type OpenAI from 'openai';
import type { ContentBlock, ModelAdapter, ModelMessage, ModelRequest, ModelResponse } from './adapter.js';
import { ModelError } from './model-error.js';

export interface OpenAiCompatibleAdapterOptions {
  /** The server's base URL up to `/v1` (`http://localhost:11434/v1` for Ollama, `http://host:8000/v1` for vLLM). */
  baseURL: string;
  /** Sent as `Authorization: Bearer …`; none at all when absent (local servers need none). */
  apiKey?: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  stream: boolean;
}

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ToolCallAcc = { id: string; name: string; args: string };

/**
 * The Chat Completions API with tools (`POST {baseURL}/chat/completions`), the protocol vLLM,
 * Ollama, llama.cpp's server and most gateways speak, through the `openai` package (v6: no
 * dependencies, Node 20; v7 needs Node 22): its retries (408/409/429/5xx, honouring
 * `retry-after` and `retry-after-ms`), its SSE parser and its error classes are used as they
 * are. A counting `fetch` gives the number of HTTP requests, retries included.
 *
 * The streamed deltas are assembled here rather than by the SDK's stream helper, so that tool
 * arguments that are not JSON (small local models send them) reach the caller as such —
 * `inputError` with the raw text — and are refused back to the model as a repair turn, instead of
 * failing the request. Usage: `prompt_tokens` minus `prompt_tokens_details.cached_tokens` is
 * input, the cached part is a cache read (no cache writes are reported by this API).
 */
export class OpenAiCompatibleAdapter implements ModelAdapter {
  readonly provider = 'openai-compatible';
  private sdk: Promise<{ client: OpenAI; Sdk: typeof OpenAI }> | null = null;
  private requests = 0;

  constructor(private readonly opts: OpenAiCompatibleAdapterOptions) {}

  private load(): Promise<{ client: OpenAI; Sdk: typeof OpenAI }> {
    this.sdk ??= import('openai').then(({ default: Sdk }) => ({ Sdk, client: this.create(Sdk) }));
    return this.sdk;
  }

  private create(Sdk: typeof OpenAI): OpenAI {
    const o = this.opts;
    return new Sdk({
      apiKey: o.apiKey ?? 'none',
      ...(o.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      baseURL: o.baseURL,
      maxRetries: o.maxRetries,
      timeout: o.timeoutMs,
      organization: null,
      project: null,
      fetch: (url: string | URL | Request, init?: RequestInit) => {
        this.requests++;
        return fetch(url, init);
      },
    });
  }

  async complete(req: ModelRequest): Promise<ModelResponse> {
    const params = {
      model: req.model,
      max_tokens: req.maxTokens,
      messages: [{ role: 'system', content: req.system } as ChatMessage, ...req.messages.flatMap(toChatMessages)],
      tools: req.tools.map((t) => ({
        type: 'function' as const,
        function: { name: t.name, description: t.description, parameters: t.inputSchema },
      })),
      tool_choice:
        req.toolChoice.type === 'tool'
          ? { type: 'function' as const, function: { name: req.toolChoice.name } }
          : ('required' as const),
      parallel_tool_calls: false,
    };
    const { client, Sdk } = await this.load();
    const before = this.requests;
    const started = performance.now();
    let text = '';
    const calls: ToolCallAcc[] = [];
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    try {
      if (this.opts.stream) {
        const stream = await client.chat.completions.create({
          ...params,
          stream: true,
          stream_options: { include_usage: true },
        });
        for await (const chunk of stream) {
          if (chunk.usage) usage = chunk.usage;
          for (const choice of chunk.choices ?? []) {
            if (choice.delta?.content) text += choice.delta.content;
            for (const d of choice.delta?.tool_calls ?? []) {
              const acc = (calls[d.index] ??= { id: '', name: '', args: '' });
              if (d.id) acc.id = d.id;
              if (d.function?.name) acc.name += d.function.name;
              if (d.function?.arguments) acc.args += d.function.arguments;
            }
            if (choice.finish_reason) finish = choice.finish_reason;
          }
        }
      } else {
        const res = await client.chat.completions.create({ ...params, stream: false });
        usage = res.usage;
        const choice = res.choices[0];
        finish = choice?.finish_reason ?? null;
        text = choice?.message?.content ?? '';
        for (const tc of choice?.message?.tool_calls ?? [])
          if (tc.type === 'function') calls.push({ id: tc.id, name: tc.function.name, args: tc.function.arguments });
      }
    } catch (e) {
      throw modelError(Sdk, e, this.requests - before);
    }
    const content: ContentBlock[] = text ? [{ type: 'text', text }] : [];
    const toolCalls: ModelResponse['toolCalls'] = [];
    calls.filter(Boolean).forEach((c, i) => {
      const id = c.id || `call_${i}`;
      const parsed = parseArguments(c.args);
      content.push({ type: 'tool_use', id, name: c.name, input: parsed.input });
      toolCalls.push({ id, name: c.name, input: parsed.input, ...(parsed.error ? { inputError: parsed.error } : {}) });
    });
    const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
    return {
      content,
      toolCalls,
      stopReason: finish,
      latencyMs: Math.round(performance.now() - started),
      usage: {
        input: Math.max(0, (usage?.prompt_tokens ?? 0) - cached),
        output: usage?.completion_tokens ?? 0,
        cacheRead: cached,
        cacheWrite: 0,
        requests: this.requests - before,
      },
    };
  }
}

/** `""` is no arguments; anything else must be a JSON object, or it is returned raw with the parse error. */
function parseArguments(raw: string): { input: unknown; error?: string } {
  if (raw.trim() === '') return { input: {} };
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return { input: v };
    return { input: raw, error: `expected a JSON object, got ${JSON.stringify(raw).slice(0, 200)}` };
  } catch (e) {
    return { input: raw, error: `${(e as Error).message} in ${JSON.stringify(raw).slice(0, 200)}` };
  }
}

const dataUrl = (png: string) => ({ type: 'image_url' as const, image_url: { url: `data:image/png;base64,${png}` } });

/**
 * One shared message as Chat Completions messages: an assistant turn carries its tool calls; a
 * user turn's tool results become `role: "tool"` messages (text only, as most servers take
 * them), and its other blocks (and any screenshot of a result) a user message after them.
 */
function toChatMessages(m: ModelMessage): ChatMessage[] {
  if (m.role === 'assistant') {
    const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    const toolCalls = m.content.flatMap((b) =>
      b.type === 'tool_use'
        ? [
            {
              id: b.id,
              type: 'function' as const,
              function: { name: b.name, arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input) },
            },
          ]
        : [],
    );
    return [{ role: 'assistant', content: text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }];
  }
  const out: ChatMessage[] = [];
  const parts: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [];
  for (const b of m.content) {
    if (b.type === 'tool_result') {
      const text = b.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
      out.push({ role: 'tool', tool_call_id: b.toolUseId, content: b.isError ? `error: ${text}` : text });
      for (const c of b.content) if (c.type === 'image') parts.push(dataUrl(c.pngBase64));
    } else if (b.type === 'text') parts.push({ type: 'text', text: b.text });
    else if (b.type === 'image') parts.push(dataUrl(b.pngBase64));
  }
  if (parts.length) out.push({ role: 'user', content: parts });
  return out;
}

/** Classified by the SDK's error classes and HTTP status, never by message text. */
function modelError(Sdk: typeof OpenAI, e: unknown, requests: number): ModelError {
  if (e instanceof Sdk.APIError) {
    const what =
      e instanceof Sdk.AuthenticationError
        ? 'the API key was refused (401): check the key configured for the openai-compatible provider (use.ai.apiKey or OPENAI_API_KEY)'
        : e instanceof Sdk.RateLimitError
          ? `still rate limited (429) after ${requests} requests with backoff: lower the number of workers or raise maxRetries`
          : e instanceof Sdk.APIConnectionError
            ? `cannot reach the model API (${e.message}): check the baseURL of the openai-compatible provider`
            : `the model API answered ${e.status ?? 'no status'} after ${requests} request(s): ${e.message}`;
    return new ModelError('AI_MODEL_ERROR', what, { status: e.status, requests, cause: e });
  }
  return new ModelError('AI_MODEL_ERROR', `the model request failed: ${(e as Error)?.message ?? e}`, {
    requests,
    cause: e,
  });
}
