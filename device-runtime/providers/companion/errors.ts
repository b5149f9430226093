import { toolError, type ToolError } from '../../protocol/index.js';

/** A tool call the companion provider answers with the protocol's error envelope. */
export class CompanionError extends Error {
  constructor(readonly envelope: ToolError) {
    super(envelope.message);
  }
}

export function fail(...args: Parameters<typeof toolError>): CompanionError {
  return new CompanionError(toolError(...args));
}

export function disconnected(message: string): CompanionError {
  return fail('DEVICE_DISCONNECTED', message, {
    hint: 'The phone dropped its connection; it is taken up again when it reconnects (the companion retries with backoff).',
    retryable: false,
  });
}

/** Any error as the envelope a tool call answers with. */
export function envelopeOf(tool: string, e: unknown): ToolError {
  if (e instanceof CompanionError) return e.envelope;
  return toolError('INTERNAL', `${tool}: ${(e as Error)?.message ?? String(e)}`);
}
