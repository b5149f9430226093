/**
 * A request the app made and the response it got, as Playwright's `Request` and `Response` show
 * them (the same method names), read from the instance's proxy. Headers are lower-cased, as
 * Playwright's `headers()` are.
 */

/** Headers as an object of lower-cased names; repeated ones joined with `, ` (`set-cookie` with newlines). */
export type Headers = Record<string, string>;

/** Flatten Node-style headers (arrays for repeats) to Playwright's object. */
export function flatHeaders(h: Record<string, string | string[] | undefined>): Headers {
  const out: Headers = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const name = k.toLowerCase();
    out[name] = Array.isArray(v) ? v.join(name === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

/** A request the app made (Playwright's `Request`). */
export class Request {
  /** @internal Set when the response arrives; `response()` waits for it. */
  _response: Response | null = null;
  /** @internal Set when it failed: the error text (`net::ERR_FAILED`, the abort code). */
  _failure: string | null = null;
  private settled!: () => void;
  /** A route set the body (then an empty one is `''`, not null, as Playwright's). */
  private bodySet = false;
  private readonly done = new Promise<void>((r) => (this.settled = r));

  /** @internal Made by the instance's proxy. */
  constructor(
    private urlValue: string,
    private methodValue: string,
    private headersValue: Headers,
    private bodyValue: Buffer,
    /** @internal When the proxy saw it, epoch ms. */
    readonly _startedAt: number,
    /** @internal The instance that made it. */
    readonly _instance: string | null,
  ) {}

  /** The URL, e.g. `https://api.shop.nestwright.test/products?page=1`. */
  url(): string {
    return this.urlValue;
  }
  /** `GET`, `POST`, … */
  method(): string {
    return this.methodValue;
  }
  /** The request's headers, names lower-cased. */
  headers(): Headers {
    return { ...this.headersValue };
  }
  /** One header's value, or null. */
  headerValue(name: string): string | null {
    return this.headersValue[name.toLowerCase()] ?? null;
  }
  /** All the request's headers (Playwright's `allHeaders()`; the proxy sees them all, so `headers()` too). */
  async allHeaders(): Promise<Headers> {
    return this.headers();
  }
  /** The body as text, or null when there is none (`''` when a route set it so). */
  postData(): string | null {
    return this.bodyValue.length || this.bodySet ? this.bodyValue.toString('utf8') : null;
  }
  /** The body as bytes, or null. */
  postDataBuffer(): Buffer | null {
    return this.bodyValue.length || this.bodySet ? Buffer.from(this.bodyValue) : null;
  }
  /** The body parsed: JSON, or a form (`application/x-www-form-urlencoded`) as an object; null without a body. */
  postDataJSON(): unknown {
    const text = this.postData();
    if (text === null) return null;
    if (/application\/x-www-form-urlencoded/.test(this.headersValue['content-type'] ?? ''))
      return Object.fromEntries(new URLSearchParams(text));
    return JSON.parse(text);
  }
  /** The response, once it came (null if the request failed). */
  async response(): Promise<Response | null> {
    await this.done;
    return this._response;
  }
  /** Why it failed, or null: `{ errorText }` as Playwright's `failure()`. */
  failure(): { errorText: string } | null {
    return this._failure === null ? null : { errorText: this._failure };
  }

  /** @internal `route.fallback()`/`continue()` overrides: later handlers and the network see them. */
  _override(o: { url?: string; method?: string; headers?: Headers; body?: Buffer }): void {
    if (o.url !== undefined) this.urlValue = o.url;
    if (o.method !== undefined) this.methodValue = o.method.toUpperCase();
    if (o.headers !== undefined) this.headersValue = flatHeaders(o.headers);
    if (o.body !== undefined) {
      this.bodyValue = o.body;
      this.bodySet = true;
    }
  }
  /** @internal The body as sent, for the network and the HAR. */
  get _body(): Buffer {
    return this.bodyValue;
  }
  /** @internal The request has its answer (or failed). */
  _settle(): void {
    this.settled();
  }
}

/** A response (Playwright's `Response`, and what `route.fetch()` answers: its `APIResponse` methods). */
export class Response {
  /** @internal Made by the proxy or by `route.fetch()`. */
  constructor(
    private readonly requestValue: Request,
    private readonly urlValue: string,
    private readonly statusValue: number,
    private readonly statusTextValue: string,
    private readonly headersValue: Headers,
    private readonly bodyValue: Buffer,
  ) {}

  /** The request it answers. */
  request(): Request {
    return this.requestValue;
  }
  /** The URL it answers. */
  url(): string {
    return this.urlValue;
  }
  /** The HTTP status, e.g. 200. */
  status(): number {
    return this.statusValue;
  }
  /** The status line's text, e.g. `OK`; a route's response has the status's standard phrase (`Unknown` for one without). */
  statusText(): string {
    return this.statusTextValue;
  }
  /** Status 200–299. */
  ok(): boolean {
    return this.statusValue >= 200 && this.statusValue <= 299;
  }
  /** Its headers, names lower-cased. */
  headers(): Headers {
    return { ...this.headersValue };
  }
  /** All the response's headers (Playwright's `allHeaders()`; the proxy sees them all, so `headers()` too). */
  async allHeaders(): Promise<Headers> {
    return this.headers();
  }
  /** One header's value, or null. */
  headerValue(name: string): string | null {
    return this.headersValue[name.toLowerCase()] ?? null;
  }
  /** The body, decoded (no content-encoding). */
  async body(): Promise<Buffer> {
    return Buffer.from(this.bodyValue);
  }
  /** The body as UTF-8 text. */
  async text(): Promise<string> {
    return this.bodyValue.toString('utf8');
  }
  /** The body parsed as JSON. */
  async json(): Promise<unknown> {
    return JSON.parse(this.bodyValue.toString('utf8'));
  }
  /** @internal The body without a copy. */
  get _body(): Buffer {
    return this.bodyValue;
  }
}
