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
import { keepUnknown } from './keep-unknown.js';
import { protocolMismatch } from './version.js';
import { MissingBase, ObservationCopies } from './observe-diff.js';
import { DiffMismatch } from '../protocol/index.js';

/** The selector actions whose observation after may come as a diff (extension observe_diff). */
const DIFFED_ACTIONS = ['ui_tap', 'ui_long_press', 'ui_set_text'] as const;
type DiffedAction = (typeof DIFFED_ACTIONS)[number];

/** The envelope for a call that failed on the wire, by what {@link classifyTransportFailure} finds. */
function transportEnvelope(e: unknown): ToolError {
  const failure = classifyTransportFailure(e);
  const message = (e as Error)?.message ?? String(e);
  switch (failure.kind) {
    case 'session-gone':
      return toolError(
        'DEVICE_DISCONNECTED',
        'the device runtime no longer knows this session: it restarted, or reclaimed the session after 30 idle minutes (its leases are gone too)',
        {
          hint: 'Connect again (a new DeviceClient) and re-acquire leases.',
          retryable: false,
        },
      );
    case 'disconnected':
      return toolError('DEVICE_DISCONNECTED', `the device runtime did not answer (${failure.evidence}): ${message}`, {
        hint: 'Check that the device (or `npx nestwright sim`) is still running and reachable.',
        retryable: false,
      });
    case 'unauthorized':
      return toolError('UNAUTHORIZED', `the device runtime refused the token (${failure.evidence}): ${message}`, {
        hint: "Check use.deviceOptions.token: it must be the runtime's bearer token.",
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
  private readonly copies = new ObservationCopies();
  /**
   * Extension `observe_diff`: with a runtime that offers it (known from {@link info}), ui_observe
   * sends `since` and the runtime answers with what changed; the client applies it to its copy,
   * checks the hash of the whole and returns whole observations all the same. False: always in full.
   */
  observeDiff = true;

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
  async call<N extends ToolName>(
    name: N,
    input: ToolInput<N>,
    opts: { signal?: AbortSignal } = {},
  ): Promise<ToolResult<N>> {
    if (
      name === 'ui_observe' &&
      this.observeDiff &&
      (input as ToolInput<'ui_observe'>).since === undefined &&
      this.infoCache?.extensions.includes('observe_diff')
    )
      return (await this.observeWithDiff(input as ToolInput<'ui_observe'>, opts)) as ToolResult<N>;
    if (
      (DIFFED_ACTIONS as readonly string[]).includes(name) &&
      this.observeDiff &&
      (input as { selector?: unknown; since?: unknown }).selector !== undefined &&
      (input as { since?: unknown }).since === undefined &&
      this.infoCache?.extensions.includes('observe_diff')
    )
      return (await this.actWithDiff(name as DiffedAction, input as ToolInput<DiffedAction>, opts)) as ToolResult<N>;
    return this.send(name, input, opts);
  }

  /**
   * A selector action whose observation after (extension observe_diff) comes as what changed
   * since this client's copy of the space, taken with the action's max_nodes: applied to the copy
   * and returned whole, as ui_observe's. A diff that does not apply to the copy is not refused
   * (the action is done): the screen is then observed once more in full.
   */
  private async actWithDiff(
    name: DiffedAction,
    input: ToolInput<DiffedAction>,
    opts: { signal?: AbortSignal },
  ): Promise<ToolResult<DiffedAction>> {
    const as = { space_id: input.space_id, detail: 'compact' as const, max_nodes: input.max_nodes ?? 400 };
    const r = await this.send(name, { ...input, since: this.copies.since(as) } as ToolInput<DiffedAction>, opts);
    if (!r.observation) return r;
    try {
      return { ...r, observation: this.copies.receive(as, r.observation) };
    } catch (e) {
      if (!(e instanceof DiffMismatch || e instanceof MissingBase)) throw e;
      this.copies.drop(input.space_id);
      const whole = await this.send('ui_observe', { ...as, include_screenshot: false, since: null }, opts);
      return { ...r, observation: this.copies.receive(as, whole) };
    }
  }

  /**
   * ui_observe with `since` (extension observe_diff): the diff applied to this client's copy of
   * the space's last observation. A refused base (DIFF_BASE_MISMATCH), or a diff that does not
   * apply to the copy or whose hash differs, drops the copy and asks once more in full.
   */
  private async observeWithDiff(
    input: ToolInput<'ui_observe'>,
    opts: { signal?: AbortSignal },
  ): Promise<ToolResult<'ui_observe'>> {
    const ask = (since: ToolInput<'ui_observe'>['since']) => this.send('ui_observe', { ...input, since }, opts);
    let obs;
    try {
      obs = await ask(this.copies.since(input));
    } catch (e) {
      if (!(e instanceof DeviceError && e.code === 'DIFF_BASE_MISMATCH')) throw e;
      this.copies.drop(input.space_id);
      obs = await ask(null);
    }
    try {
      return this.copies.receive(input, obs);
    } catch (e) {
      if (!(e instanceof DiffMismatch || e instanceof MissingBase)) throw e;
      this.copies.drop(input.space_id);
      return this.copies.receive(input, await ask(null));
    }
  }

  private async send<N extends ToolName>(
    name: N,
    input: ToolInput<N>,
    opts: { signal?: AbortSignal },
  ): Promise<ToolResult<N>> {
    const tool = getTool(name);
    if (!tool) throw new DeviceError(name, toolError('UNKNOWN_TOOL', `no tool ${name} in the protocol`));
    const args = tool.input.safeParse(input);
    if (!args.success) {
      throw new DeviceError(
        name,
        toolError('INVALID_ARGUMENT', describeIssues(args.error, 'params'), {
          hint: `Check the arguments of ${name} against its input schema.`,
        }),
      );
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
        env.success
          ? env.data
          : toolError(
              'PROTOCOL_ERROR',
              `error without a valid envelope: ${first?.type === 'text' ? String(first.text) : JSON.stringify(first ?? null)}`,
            ),
      );
    }
    const body = decodeResultBody(tool, raw);
    const result = tool.result.safeParse(body);
    if (!result.success) throw new DeviceError(name, this.invalidResult(name, body, result.error));
    // Fields this package does not know (a newer runtime's) are kept, not stripped: keep-unknown.ts.
    return keepUnknown(body, result.data) as ToolResult<N>;
  }

  /**
   * The PROTOCOL_ERROR for a result its schema refuses: a missing required field named as such,
   * with the tool, the field's path and the runtime's version, and the conformance kit as the
   * way to find every such difference at once.
   */
  private invalidResult(name: string, body: unknown, error: import('zod').ZodError): ToolError {
    const info = name === 'runtime_info' ? (body as Partial<RuntimeInfo> | null) : this.infoCache;
    const who = info?.runtime?.name
      ? `${info.runtime.name} ${info.runtime.version ?? '?'}, protocol ${info.protocol_version ?? '?'}`
      : `protocol ${info?.protocol_version ?? 'unknown (no runtime_info yet)'}`;
    const missing = error.issues.filter((i) => i.code === 'invalid_type' && /received undefined/.test(i.message));
    const what =
      missing.length > 0
        ? `is missing required field${missing.length > 1 ? 's' : ''} ${missing
            .slice(0, 5)
            .map((i) => `result.${i.path.map(String).join('.')}`)
            .join(', ')}`
        : `is invalid: ${describeIssues(error, 'result')}`;
    return toolError('PROTOCOL_ERROR', `the result of ${name} from the runtime (${who}) ${what}`, {
      hint: `Run \`npx nestwright conformance --device <url> --token <token>\` against this runtime: it lists every difference from the protocol this client speaks, with the design section and the fix.`,
      retryable: false,
    });
  }

  /**
   * runtime_info, cached; runtimes without it count as offering no extensions. A runtime whose
   * protocol version this client cannot serve (another major version, or an older minor one)
   * is refused here with both versions named: connectDevice calls this when it connects.
   */
  async info(): Promise<RuntimeInfo | null> {
    if (this.infoCache) return this.infoCache;
    let info: RuntimeInfo;
    try {
      info = await this.call('runtime_info', {});
    } catch (e) {
      if (e instanceof DeviceError && (e.code === 'UNKNOWN_TOOL' || e.code === 'NOT_SUPPORTED')) return null;
      throw e;
    }
    const mismatch = protocolMismatch(info.protocol_version);
    if (mismatch) {
      throw new DeviceError(
        'runtime_info',
        toolError('PROTOCOL_ERROR', `${info.runtime.name} ${info.runtime.version}: ${mismatch}`, {
          hint: "Use a nestwright release that speaks this runtime's protocol version, or update the runtime; `npx nestwright conformance` checks a runtime against this client.",
          retryable: false,
        }),
      );
    }
    this.infoCache = info;
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
