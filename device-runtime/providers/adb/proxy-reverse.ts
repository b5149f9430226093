import { DeviceError, type CallResult, type ToolTransport } from '../../client/index.js';
import { encodeResult, toolError, TOOLS } from '../../protocol/index.js';
import type { Adb } from './adb.js';

/** The names of the test machine's loopback, as a proxy address on it is given. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * The `net_proxy` extension over adb: the framework's proxy listens on the test machine's
 * loopback and asks the runtime to route an instance through `127.0.0.1:<port>`, which on the
 * phone is the phone's own loopback. Before `net_proxy_set` reaches the phone, this transport
 * makes an address there lead back to the test machine — `adb reverse tcp:0 tcp:<port>`, once per
 * port: the device picks a free port of its own and adb prints it — and hands the runtime that
 * port instead. The reverses go with `close()`. A proxy on another host is passed on untouched.
 * (tcp:0 rather than the same port on both sides: a device may have that port taken, and a
 * simulated one shares this machine's loopback, where the proxy itself holds it.) `net_state_get`
 * answers with the address as it was given: a device port this transport made reads back as the
 * test machine's port it leads to.
 */
export class ProxyReverse implements ToolTransport {
  private readonly reverses = new Map<number, Promise<number>>();
  /** Device port → the test machine's port it leads to, for the reverses made. */
  private readonly hostPorts = new Map<number, number>();

  constructor(
    private readonly inner: ToolTransport,
    private readonly adb: Adb,
    private readonly serial: string,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
    const port = args.port;
    if (
      name === 'net_proxy_set' &&
      typeof args.host === 'string' &&
      LOOPBACK.has(args.host) &&
      typeof port === 'number'
    ) {
      const made = await this.reverse(port).then(
        (devicePort) => ({ devicePort }),
        (e: unknown) => ({ e }),
      );
      if ('devicePort' in made) return this.inner.callTool(name, { ...args, port: made.devicePort }, signal);
      const done = made.e;
      throw new DeviceError(
        name,
        toolError(
          'CHANNEL_UNAVAILABLE',
          `adb reverse tcp:0 tcp:${port} failed, so the phone cannot reach the test machine's proxy: ${(done as Error).message}`,
          {
            hint: `Check \`adb -s ${this.serial} reverse --list\`; adb reverse needs platform-tools 1.0.36 or later.`,
          },
        ),
        { cause: done },
      );
    }
    if (name === 'net_state_get') return this.asGiven(await this.inner.callTool(name, args, signal));
    return this.inner.callTool(name, args, signal);
  }

  /** A net_state_get result with a reversed device port read back as the port net_proxy_set was given. */
  private asGiven(result: CallResult): CallResult {
    const proxy = (result.structuredContent as { proxy?: { host?: unknown; port?: unknown } | null } | undefined)
      ?.proxy;
    if (result.isError || !proxy || typeof proxy.host !== 'string' || !LOOPBACK.has(proxy.host)) return result;
    const hostPort = typeof proxy.port === 'number' ? this.hostPorts.get(proxy.port) : undefined;
    if (hostPort === undefined) return result;
    const structuredContent = { ...result.structuredContent, proxy: { ...proxy, port: hostPort } };
    return { ...result, ...encodeResult(TOOLS.net_state_get, structuredContent) };
  }

  /** The device port that leads to this machine's `port`, made on first use. */
  private reverse(port: number): Promise<number> {
    let made = this.reverses.get(port);
    if (!made) {
      made = this.adb.run(this.serial, ['reverse', 'tcp:0', `tcp:${port}`]).then((r) => {
        const devicePort = Number(r.stdout.trim().split(/\s+/).pop());
        if (!Number.isInteger(devicePort) || devicePort <= 0)
          throw new Error(`adb reverse did not print the device port it chose (${JSON.stringify(r.stdout)})`);
        this.hostPorts.set(devicePort, port);
        return devicePort;
      });
      this.reverses.set(port, made);
      made.catch(() => this.reverses.delete(port));
    }
    return made;
  }

  async close(): Promise<void> {
    const made = await Promise.allSettled(this.reverses.values());
    this.reverses.clear();
    this.hostPorts.clear();
    const ports = made.flatMap((m) => (m.status === 'fulfilled' ? [m.value] : []));
    await Promise.all(
      ports.map((p) =>
        this.adb.run(this.serial, ['reverse', '--remove', `tcp:${p}`], { timeoutMs: 5_000 }).catch(() => {}),
      ),
    );
    await this.inner.close();
  }
}
