import { execa, type ResultPromise } from 'execa';
import type { Adb } from './adb.js';

/**
 * Watch one device with `adb track-devices`: adb pushes the whole device list (4 hex digits of
 * length, then `serial\tstate` lines) whenever it changes, so a device that is unplugged, killed
 * or goes offline is noticed at once rather than at the next poll. `onLost` runs once.
 */
export class DeviceMonitor {
  private child: ResultPromise | null = null;
  private lost: string | null = null;
  private stopped = false;

  constructor(
    private readonly adb: Adb,
    readonly serial: string,
    private readonly onLost: (reason: string) => void,
  ) {}

  /** Resolves once adb has sent the first list (the device is in it). */
  start(): Promise<void> {
    const child = execa(this.adb.bin, ['track-devices'], {
      buffer: false,
      stdin: 'ignore',
      stderr: 'ignore',
      reject: false,
    });
    this.child = child;
    let buf = '';
    let first: () => void;
    const ready = new Promise<void>((r) => (first = r));
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      buf += d;
      for (;;) {
        if (buf.length < 4) break;
        const len = parseInt(buf.slice(0, 4), 16);
        if (Number.isNaN(len)) {
          buf = '';
          break;
        }
        if (Buffer.byteLength(buf.slice(4)) < len) break;
        const body = Buffer.from(buf.slice(4)).subarray(0, len).toString();
        buf = buf.slice(4 + body.length);
        this.check(body);
        first();
      }
    });
    void child.then(() => {
      first();
      if (!this.stopped)
        this.lose('adb track-devices ended (the adb server stopped or restarted; its forwards are gone)');
    });
    // Once the first list is in, the watcher must not keep a worker alive on its own.
    return ready.then(() => {
      child.unref?.();
      (child.stdout as unknown as { unref?: () => void }).unref?.();
    });
  }

  private check(list: string): void {
    const line = list.split('\n').find((l) => l.split(/\s+/)[0] === this.serial);
    const state = line?.split(/\s+/)[1];
    if (!line) this.lose(`${this.serial} is no longer listed by adb (unplugged, or its emulator stopped)`);
    else if (state !== 'device') this.lose(`${this.serial} is now ${state}`);
  }

  private lose(reason: string): void {
    if (this.lost) return;
    this.lost = reason;
    this.onLost(reason);
  }

  get lostReason(): string | null {
    return this.lost;
  }

  stop(): void {
    this.stopped = true;
    this.child?.kill();
  }
}
