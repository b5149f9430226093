import {
  decodeErrorBody,
  decodeResultBody,
  describeIssues,
  getTool,
  toolError,
  ToolErrorSchema,
  type RuntimeInfo,
  type ToolError,
  type ToolInput,
  type ToolName,
  type ToolResult,
} from '../protocol/index.js';
import { DeviceError } from './errors.js';
import type { ToolTransport } from './transport.js';
import { classifyTransportFailure } from './transport-failure.js';

/** The envelope for a call that failed on the wire, by what {@link classifyTransportFailure} finds. */
function transportEnvelope(e: unknown): ToolError {
  const failure = classifyTransportFailure(e);
  const message = (e as Error)?.message ?? String(e);
  switch (failure.kind) {
    case 'session-gone':
      return toolError('DEVICE_DISCONNECTED', 'the device runtime no longer knows this session: it restarted, or reclaimed the session after 30 idle minutes (its leases are gone too)', {
        hint: 'Connect again (a new DeviceClient) and re-acquire leases.',
        retryable: false,
      });
    case 'disconnected':
      return toolError('DEVICE_DISCONNECTED', `the device runtime did not answer (${failure.evidence}): ${message}`, {
        hint: 'Check that the device (or `npx nestwright sim`) is still running and reachable.',
        retryable: false,
      });
    case 'unauthorized':
      return toolError('UNAUTHORIZED', `the device runtime refused the token (${failure.evidence}): ${message}`, {
        hint: 'Check use.deviceOptions.token: it must be the runtime\'s bearer token.',
        retryable: false,
      });
    case 'protocol':
      return toolError('PROTOCOL_ERROR', message);
  }
}

/**
 * A typed client of the device protocol. Every call is validated on the way out (arguments,
 * against the tool's input schema) and on the way back (result, against its result schema);
 * error envelopes become {@link DeviceError}s, lost connections DEVICE_DISCONNECTED.
 */
export class DeviceClient {
  private infoCache: RuntimeInfo | null = null;

  constructor(readonly transport: ToolTransport) {}

  /** The transport's session id (MCP's `Mcp-Session-Id`), when it has one. */
  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  /**
   * Call a protocol tool: the arguments are checked against its input schema before anything is
   * sent, the result against its result schema; an error envelope, or an argument or result
   * that does not fit, throws a `DeviceError` with its `code` and the path that failed.
   *
   * @example
   * ```ts
   * const { spaces } = await device.client.call('space_list', {});
   * ```
   */
  async call<N extends ToolName>(name: N, input: ToolInput<N>, opts: { signal?: AbortSignal } = {}): Promise<ToolResult<N>> {
    const tool = getTool(name);
    if (!tool) throw new DeviceError(name, toolError('UNKNOWN_TOOL', `no tool ${name} in the protocol`));
    const args = tool.input.safeParse(input);
    if (!args.success) {
      throw new DeviceError(name, toolError('INVALID_ARGUMENT', describeIssues(args.error, 'params'), {
        hint: `Check the arguments of ${name} against its input schema.`,
      }));
    }
    let raw;
    try {
      raw = await this.transport.callTool(name, input as Record<string, unknown>, opts.signal);
    } catch (e) {
      if (e instanceof DeviceError) throw e;
      throw new DeviceError(name, transportEnvelope(e), { cause: e });
    }
    if (raw.isError) {
      const env = ToolErrorSchema.safeParse(decodeErrorBody(raw));
      const first = raw.content?.[0];
      throw new DeviceError(
        name,
        env.success ? env.data : toolError('PROTOCOL_ERROR', `error without a valid envelope: ${first?.type === 'text' ? String(first.text) : JSON.stringify(first ?? null)}`),
      );
    }
    const body = decodeResultBody(tool, raw);
    const result = tool.result.safeParse(body);
    if (!result.success) {
      throw new DeviceError(name, toolError('PROTOCOL_ERROR', `the runtime answered with an invalid result: ${describeIssues(result.error, 'result')}`, {
        hint: 'The device speaks a different protocol version; compare runtime_info.protocol_version.',
      }));
    }
    return result.data as ToolResult<N>;
  }

  /** runtime_info, cached; runtimes without it count as offering no extensions. */
  async info(): Promise<RuntimeInfo | null> {
    if (this.infoCache) return this.infoCache;
    try {
      this.infoCache = await this.call('runtime_info', {});
    } catch (e) {
      if (e instanceof DeviceError && (e.code === 'UNKNOWN_TOOL' || e.code === 'NOT_SUPPORTED')) return null;
      throw e;
    }
    return this.infoCache;
  }

  /** Whether the runtime lists extension `name` in `runtime_info` (false when it has no runtime_info). */
  async hasExtension(name: string): Promise<boolean> {
    return (await this.info())?.extensions.includes(name) ?? false;
  }

  /** Close the connection (the transport's). */
  close(): Promise<void> {
    return this.transport.close();
  }
}
