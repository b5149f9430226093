import { classifyTransportFailure, DeviceError, type CallResult, type ToolTransport } from '../../client/index.js';
import { toolError } from '../../protocol/index.js';

/** How long a broken connection waits for the device monitor to say whether the device is gone. */
const LOST_GRACE_MS = 1_000;

/**
 * A transport that fails every call in flight, and every later call, with DEVICE_DISCONNECTED as
 * soon as the provider learns that its device is gone — instead of each call waiting for a TCP
 * timeout through a forward that no longer leads anywhere.
 */
export class GuardedTransport implements ToolTransport {
  private lost: string | null = null;
  private readonly waiters = new Set<(reason: string) => void>();

  constructor(
    private readonly inner: ToolTransport,
    private readonly serial: string,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Called by the device monitor. */
  lose(reason: string): void {
    if (this.lost) return;
    this.lost = reason;
    for (const w of this.waiters) w(reason);
    this.waiters.clear();
  }

  private error(tool: string, reason: string): DeviceError {
    return new DeviceError(
      tool,
      toolError('DEVICE_DISCONNECTED', `device ${this.serial} went away: ${reason}`, {
        hint: 'Check the device or emulator (`adb devices -l`); tests on other devices go on.',
        retryable: false,
        details: { serial: this.serial },
      }),
    );
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
    if (this.lost) throw this.error(name, this.lost);
    let onLost!: (reason: string) => void;
    const gone = new Promise<never>((_, reject) => {
      onLost = (reason) => reject(this.error(name, reason));
      this.waiters.add(onLost);
    });
    try {
      return await Promise.race([this.inner.callTool(name, args, signal), gone]);
    } catch (e) {
      // The connection broke: when the device went with it, adb says so a moment later (the
      // forward dies with the device, often before track-devices reports it). Wait that moment,
      // so the error names the device rather than a socket's errno.
      if (!this.lost && !(e instanceof DeviceError) && classifyTransportFailure(e).kind === 'disconnected') {
        await Promise.race([gone.catch(() => {}), new Promise((r) => setTimeout(r, LOST_GRACE_MS))]);
      }
      if (this.lost) throw this.error(name, this.lost);
      throw e;
    } finally {
      this.waiters.delete(onLost);
      gone.catch(() => {});
    }
  }

  async close(): Promise<void> {
    // A dead device's session cannot be ended politely; do not wait on it.
    if (this.lost) return;
    await this.inner.close();
  }
}
