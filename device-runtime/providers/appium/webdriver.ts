/**
 * The W3C WebDriver wire protocol, as much of it as the appium provider uses: new/delete
 * session and commands on a session, JSON over HTTP with `fetch`. Written here rather than
 * taken from the `webdriver` package: that one would bring its retry, logging and ~40
 * dependencies into the framework's runtime for a dozen endpoints, and its errors are
 * classified by message; here they carry the W3C `error` code.
 */
export class WebDriverError extends Error {
  constructor(
    /** The W3C error code (`no such element`, `invalid session id`, …), or `unreachable`. */
    readonly error: string,
    message: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WebDriverError';
  }
}

export const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

async function request(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 300_000,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    throw new WebDriverError('unreachable', `${method} ${base}${path}: ${(e as Error).message}`, 0, { cause: e });
  }
  const text = await res.text();
  let json: { value?: unknown } = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw new WebDriverError(
      'unknown error',
      `${method} ${path}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`,
      res.status,
    );
  }
  const value = json.value as { error?: string; message?: string } | undefined;
  if (!res.ok || (value && typeof value === 'object' && typeof value.error === 'string')) {
    throw new WebDriverError(value?.error ?? 'unknown error', value?.message ?? `HTTP ${res.status}`, res.status);
  }
  return json.value;
}

export class WebDriverSession {
  constructor(
    readonly base: string,
    readonly id: string,
    /** What the server answered to new session. */
    readonly capabilities: Record<string, unknown>,
  ) {}

  static async create(base: string, alwaysMatch: Record<string, unknown>): Promise<WebDriverSession> {
    const v = (await request(base, 'POST', '/session', { capabilities: { alwaysMatch, firstMatch: [{}] } })) as {
      sessionId: string;
      capabilities: Record<string, unknown>;
    };
    return new WebDriverSession(base, v.sessionId, v.capabilities ?? {});
  }

  cmd<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return request(
      this.base,
      method,
      `/session/${this.id}${path}`,
      method === 'POST' ? (body ?? {}) : undefined,
    ) as Promise<T>;
  }

  async find(using: string, value: string): Promise<string> {
    const el = await this.cmd<Record<string, string>>('POST', '/element', { using, value });
    return el[ELEMENT_KEY] ?? el.ELEMENT;
  }

  execute<T = unknown>(script: string, args: Record<string, unknown> = {}): Promise<T> {
    return this.cmd<T>('POST', '/execute/sync', { script, args: [args] });
  }

  /** One finger: the W3C pointer actions given, then released. */
  async pointer(actions: Array<Record<string, unknown>>): Promise<void> {
    await this.cmd('POST', '/actions', {
      actions: [{ type: 'pointer', id: 'finger1', parameters: { pointerType: 'touch' }, actions }],
    });
    await this.cmd('DELETE', '/actions');
  }

  async delete(): Promise<void> {
    await request(this.base, 'DELETE', `/session/${this.id}`);
  }
}

export async function serverStatus(base: string): Promise<{ build?: { version?: string } }> {
  return (await request(base, 'GET', '/status', undefined, 10_000)) as { build?: { version?: string } };
}
