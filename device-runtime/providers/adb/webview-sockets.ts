import type { CallResult, ToolTransport } from '../../client/index.js';
import { encodeResult, TOOLS } from '../../protocol/index.js';
import type { Adb } from './adb.js';
import { forwardTo, removeForward } from './forward.js';

/** An abstract socket name a WebView's DevTools may have: `webview_devtools_remote_<pid>` (or Chrome's). */
const DEVTOOLS_SOCKET = /^[A-Za-z0-9_.-]+_devtools_remote(_\d+)?$/;

/**
 * The `webview` extension over adb: a runtime on the phone names each WebView's DevTools socket
 * (`webview_devtools_remote_<pid>`, an abstract socket of the app's process) but cannot hand the
 * host an endpoint; this transport forwards the socket (`adb forward tcp:0 localabstract:<name>`,
 * once per socket) and fills in `devtools.endpoint` as `http://127.0.0.1:<port>`, which
 * Playwright's `connectOverCDP` takes. The forwards go with `close()` (and with the process).
 */
export class WebViewSockets implements ToolTransport {
  private readonly forwards = new Map<string, Promise<number>>();

  constructor(
    private readonly inner: ToolTransport,
    private readonly adb: Adb,
    private readonly serial: string,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
    const result = await this.inner.callTool(name, args, signal);
    if (name !== 'webview_list' || result.isError) return result;
    const webviews = (result.structuredContent as { webviews?: unknown } | undefined)?.webviews;
    if (!Array.isArray(webviews)) return result;
    const filled = await Promise.all(
      webviews.map(async (w: { devtools?: { endpoint?: unknown; socket?: unknown } | null }) => {
        const socket = w?.devtools?.socket;
        if (typeof socket !== 'string' || w.devtools?.endpoint || !DEVTOOLS_SOCKET.test(socket)) return w;
        const port = await this.forward(socket);
        return { ...w, devtools: { ...w.devtools, endpoint: `http://127.0.0.1:${port}` } };
      }),
    );
    const structuredContent = { ...result.structuredContent, webviews: filled };
    return { ...result, ...encodeResult(TOOLS.webview_list, structuredContent) };
  }

  /** The local port forwarded to `socket` on the device, made on first use. */
  forward(socket: string): Promise<number> {
    let port = this.forwards.get(socket);
    if (!port) {
      port = forwardTo(this.adb, this.serial, `localabstract:${socket}`);
      this.forwards.set(socket, port);
      port.catch(() => this.forwards.delete(socket));
    }
    return port;
  }

  async close(): Promise<void> {
    const ports = await Promise.allSettled(this.forwards.values());
    this.forwards.clear();
    const made = ports.flatMap((p) => (p.status === 'fulfilled' ? [p.value] : []));
    await Promise.all(made.map((port) => removeForward(this.adb, this.serial, port)));
    await this.inner.close();
  }
}
