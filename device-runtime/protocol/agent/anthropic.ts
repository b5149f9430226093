import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, ModelAdapter, ModelRequest, ModelResponse } from './adapter.js';
import { ModelError } from './model-error.js';

export interface AnthropicAdapterOptions {
  apiKey: string;
  baseURL?: string;
  maxRetries: number;
  timeoutMs: number;
  stream: boolean;
}

/**
 * The Messages API through `@anthropic-ai/sdk`: its retries (408/409/429/5xx, honouring
 * `retry-after`), its SSE parser and its error classes are used as they are. The system prompt
 * and the tool list carry `cache_control`, so repeated steps read them from the prompt cache.
 * A counting `fetch` gives the number of HTTP requests, retries included. The SDK (a few
 * hundred modules) is loaded at the first request, so a run with no AI step never pays for it.
 */
export class AnthropicAdapter implements ModelAdapter {
  readonly provider = 'anthropic';
  private sdk: Promise<{ client: Anthropic; Sdk: typeof Anthropic }> | null = null;
  private requests = 0;

  constructor(private readonly opts: AnthropicAdapterOptions) {}

  private load(): Promise<{ client: Anthropic; Sdk: typeof Anthropic }> {
    this.sdk ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => ({ Sdk, client: this.create(Sdk) }));
    return this.sdk;
  }

  private create(Sdk: typeof Anthropic): Anthropic {
    const opts = this.opts;
    return new Sdk({
      apiKey: opts.apiKey,
      ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
      maxRetries: opts.maxRetries,
      timeout: opts.timeoutMs,
      fetch: (url: string | URL | Request, init?: RequestInit) => {
        this.requests++;
        return fetch(url, init);
      },
    });
  }

  async complete(req: ModelRequest): Promise<ModelResponse> {
    const tools = req.tools.map((t, i) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
      ...(i === req.tools.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
    }));
    const params = {
      model: req.model,
      max_tokens: req.maxTokens,
      system: [{ type: 'text' as const, text: req.system, cache_control: { type: 'ephemeral' as const } }],
      tools,
      tool_choice:
        req.toolChoice.type === 'tool'
          ? { type: 'tool' as const, name: req.toolChoice.name, disable_parallel_tool_use: true }
          : { type: 'any' as const, disable_parallel_tool_use: true },
      messages: req.messages.map(toApiMessage),
    };
    const { client, Sdk } = await this.load();
    const before = this.requests;
    const started = performance.now();
    let message: Anthropic.Message;
    try {
      message = this.opts.stream
        ? await client.messages.stream(params).finalMessage()
        : await client.messages.create(params);
    } catch (e) {
      throw modelError(Sdk, e, this.requests - before);
    }
    const content: ContentBlock[] = [];
    const toolCalls: ModelResponse['toolCalls'] = [];
    for (const b of message.content) {
      if (b.type === 'text') content.push({ type: 'text', text: b.text });
      if (b.type === 'tool_use') {
        content.push({ type: 'tool_use', id: b.id, name: b.name, input: b.input });
        toolCalls.push({ id: b.id, name: b.name, input: b.input });
      }
    }
    const u = message.usage;
    return {
      content,
      toolCalls,
      stopReason: message.stop_reason ?? null,
      latencyMs: Math.round(performance.now() - started),
      usage: {
        input: u.input_tokens ?? 0,
        output: u.output_tokens ?? 0,
        cacheRead: u.cache_read_input_tokens ?? 0,
        cacheWrite: u.cache_creation_input_tokens ?? 0,
        requests: this.requests - before,
      },
    };
  }
}

function toApiMessage(m: ModelRequest['messages'][number]): Anthropic.MessageParam {
  const image = (pngBase64: string) => ({
    type: 'image' as const,
    source: { type: 'base64' as const, media_type: 'image/png' as const, data: pngBase64 },
  });
  return {
    role: m.role,
    content: m.content.map((b): Anthropic.ContentBlockParam => {
      switch (b.type) {
        case 'text':
          return { type: 'text', text: b.text };
        case 'image':
          return image(b.pngBase64);
        case 'tool_use':
          return { type: 'tool_use', id: b.id, name: b.name, input: b.input as Record<string, unknown> };
        case 'tool_result':
          return {
            type: 'tool_result',
            tool_use_id: b.toolUseId,
            is_error: b.isError ?? false,
            content: b.content.map((c) =>
              c.type === 'text' ? { type: 'text' as const, text: c.text } : image(c.pngBase64),
            ),
          };
        default: {
          const never: never = b;
          throw new Error(`unknown block ${JSON.stringify(never)}`);
        }
      }
    }),
  };
}

/** Classified by the SDK's error classes and HTTP status, never by message text. */
function modelError(Anthropic: typeof import('@anthropic-ai/sdk').default, e: unknown, requests: number): ModelError {
  if (e instanceof Anthropic.APIError) {
    const status = e.status ?? 'no status';
    const what =
      e instanceof Anthropic.AuthenticationError
        ? 'the API key was refused (401): check ANTHROPIC_API_KEY or use.ai.apiKey'
        : e instanceof Anthropic.RateLimitError
          ? `still rate limited (429) after ${requests} requests with backoff: lower the number of workers or raise use.ai.maxRetries`
          : e instanceof Anthropic.APIConnectionError
            ? `cannot reach the model API (${e.message}): check use.ai.baseURL / ANTHROPIC_BASE_URL`
            : `the model API answered ${status} after ${requests} request(s): ${e.message}`;
    return new ModelError('AI_MODEL_ERROR', what, { status: e.status, requests, cause: e });
  }
  return new ModelError('AI_MODEL_ERROR', `the model request failed: ${(e as Error)?.message ?? e}`, {
    requests,
    cause: e,
  });
}
