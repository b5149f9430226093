import { toolError, type ToolError } from '../../protocol/index.js';
import { WebDriverError } from './webdriver.js';

/** A tool call the appium provider answers with the protocol's error envelope. */
export class ProviderError extends Error {
  constructor(readonly envelope: ToolError) {
    super(envelope.message);
  }
}

/** W3C error codes as protocol error codes (by code, never by message). */
const CODES: Record<string, ToolError['code']> = {
  'no such element': 'NODE_NOT_FOUND',
  'stale element reference': 'SNAPSHOT_STALE',
  'invalid argument': 'INVALID_ARGUMENT',
  'invalid selector': 'INVALID_ARGUMENT',
  'session not created': 'INVALID_ARGUMENT',
  'unsupported operation': 'NOT_SUPPORTED',
  'unknown command': 'NOT_SUPPORTED',
  'unknown method': 'NOT_SUPPORTED',
  'not implemented': 'NOT_SUPPORTED',
  timeout: 'TIMEOUT',
  'invalid session id': 'DEVICE_DISCONNECTED',
  unreachable: 'DEVICE_DISCONNECTED',
};

export function fromWebDriver(tool: string, e: unknown): ToolError {
  if (e instanceof ProviderError) return e.envelope;
  if (!(e instanceof WebDriverError)) return toolError('INTERNAL', `${tool}: ${(e as Error)?.message ?? String(e)}`);
  const code = CODES[e.error] ?? 'INTERNAL';
  const hint =
    e.error === 'session not created'
      ? 'Check use.deviceOptions.capabilities: the Appium server could not start a session with them.'
      : e.error === 'unreachable'
        ? 'Is the Appium server running at use.deviceOptions.url?'
        : e.error === 'invalid session id'
          ? 'The Appium server ended the session (newCommandTimeout, or it restarted).'
          : undefined;
  return toolError(code, `${tool}: appium: ${e.error}: ${e.message}`, { ...(hint ? { hint } : {}), retryable: false });
}
