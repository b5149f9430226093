import type { Usage } from './models.js';

/**
 * The one interface between an agent loop (the framework's AI steps, the device's own agent) and
 * a model provider. Small on purpose: each adapter maps these blocks to its own messages and
 * tools, with nothing above it changing. Blocks follow the Messages API's shapes,
 * the richest of the common formats.
 */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input. */
  inputSchema: Record<string, unknown>;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; pngBase64: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | {
      type: 'tool_result';
      toolUseId: string;
      content: Array<{ type: 'text'; text: string } | { type: 'image'; pngBase64: string }>;
      isError?: boolean;
    };

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export interface ModelRequest {
  model: string;
  /** Sent with prompt caching, together with the tools. */
  system: string;
  tools: ToolSpec[];
  /** `tool`: that one tool must be called; `any`: some tool must be called. */
  toolChoice: { type: 'tool'; name: string } | { type: 'any' };
  messages: ModelMessage[];
  maxTokens: number;
}

export interface ModelResponse {
  /** The assistant turn as sent back (tool calls included), to append to the conversation. */
  content: ContentBlock[];
  /**
   * `inputError`: the provider sent arguments that are not JSON (an OpenAI-compatible server
   * can); `input` is then the raw text, and the caller refuses the call back to the model.
   */
  toolCalls: Array<{ id: string; name: string; input: unknown; inputError?: string }>;
  usage: Usage;
  stopReason: string | null;
  latencyMs: number;
}

/**
 * The one thing AI steps and the device's agent need from a model: a completion with tools.
 * `AnthropicAdapter` (the Messages API, `provider: 'anthropic'`) and `OpenAiCompatibleAdapter`
 * (Chat Completions, `provider: 'openai-compatible'`) are the two nestwright ships.
 */
export interface ModelAdapter {
  /** Who serves the model, for reports (`anthropic`, `openai-compatible`). */
  readonly provider: string;
  /** One completion (the adapter's own retries included; `usage.requests` counts them). */
  complete(request: ModelRequest): Promise<ModelResponse>;
}
