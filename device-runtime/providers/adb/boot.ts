import type { Adb } from './adb.js';
import { listDevices } from './devices.js';
import { ProviderError } from './errors.js';

export interface BootProgress {
  serial: string;
  elapsedMs: number;
  /** `waiting for adb` (not listed yet), `offline`, `booting` (adb up, boot animation), `booted`. */
  stage: 'waiting for adb' | 'offline' | 'booting' | 'booted';
}

/**
 * Wait until `serial` is listed as `device` and `sys.boot_completed` is 1, polling every
 * `intervalMs`; `onProgress` hears each stage change and a heartbeat every few seconds.
 */
export async function waitForBoot(
  adb: Adb,
  serial: string,
  opts: { timeoutMs: number; intervalMs?: number; onProgress?: (p: BootProgress) => void; alive?: () => string | null },
): Promise<void> {
  const t0 = Date.now();
  const interval = opts.intervalMs ?? 250;
  let last = '';
  let lastBeat = 0;
  const report = (stage: BootProgress['stage']) => {
    const elapsedMs = Date.now() - t0;
    if (stage !== last || elapsedMs - lastBeat >= 5_000) {
      last = stage;
      lastBeat = elapsedMs;
      opts.onProgress?.({ serial, elapsedMs, stage });
    }
  };
  for (;;) {
    const dead = opts.alive?.();
    if (dead)
      throw new ProviderError(adb.api, 'EMULATOR_EXITED', `${serial} went away while booting: ${dead}`, { serial });
    const d = (await listDevices(adb)).find((x) => x.serial === serial);
    let stage: BootProgress['stage'] = !d ? 'waiting for adb' : d.state === 'device' ? 'booting' : 'offline';
    if (stage === 'booting') {
      const r = await adb
        .shell(serial, ['getprop', 'sys.boot_completed'], { timeoutMs: 5_000, okExitCodes: [1] })
        .catch(() => null);
      if (r?.stdout.trim() === '1') stage = 'booted';
    }
    report(stage);
    if (stage === 'booted') return;
    if (Date.now() - t0 > opts.timeoutMs) {
      throw new ProviderError(
        adb.api,
        'BOOT_TIMEOUT',
        `${serial} did not finish booting within ${Math.round(opts.timeoutMs / 1000)} s (last stage: ${stage})`,
        {
          hint: 'Emulators without KVM boot very slowly: check /dev/kvm (`npx nestwright doctor`), use a snapshot, or raise bootTimeout.',
          serial,
        },
      );
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
