import { toolError } from '../../protocol/index.js';
import type { SimInstance } from './instance.js';
import { SimError } from './sim-error.js';

/**
 * The host-declared :c1..:cN process slots of §2.2/§3.8, shared by every space of the device.
 * Each running package@instance is pinned to one slot. When none is free, the least recently used
 * instance that is not in the foreground of its space is evicted (its data stays); when every slot
 * runs a foreground instance, launching fails with NO_PROCESS_SLOT.
 */
export class ProcessPool {
  private slots: Array<{ inst: SimInstance | null; used: number }>;
  private clock = 0;
  private nextPid = 10_000;

  constructor(readonly size: number) {
    this.slots = Array.from({ length: size }, () => ({ inst: null, used: 0 }));
  }

  /** Pin `inst` to a slot; returns the slot and whatever was evicted to make room. */
  assign(inst: SimInstance): { slot: number; pid: number; evicted: SimInstance | null } {
    const tick = ++this.clock;
    const own = this.slots.findIndex((s) => s.inst === inst);
    if (own >= 0) {
      this.slots[own]!.used = tick;
      return { slot: own + 1, pid: inst.pid, evicted: null };
    }
    let index = this.slots.findIndex((s) => s.inst === null);
    let evicted: SimInstance | null = null;
    if (index < 0) {
      const candidates = this.slots
        .map((s, i) => ({ ...s, i }))
        .filter((s) => s.inst && s.inst.status !== 'foreground')
        .sort((a, b) => a.used - b.used);
      const victim = candidates[0];
      if (!victim) {
        throw new SimError(
          toolError('NO_PROCESS_SLOT', `all ${this.size} process slots run foreground instances`, {
            hint: 'Stop an instance, or wait: slots free up when other spaces stop their apps.',
            details: { slots: this.slots.map((s) => s.inst?.key ?? null) },
          }),
        );
      }
      evicted = victim.inst;
      evicted!.stop();
      index = victim.i;
    }
    this.slots[index] = { inst, used: tick };
    inst.slot = index + 1;
    return { slot: index + 1, pid: ++this.nextPid, evicted };
  }

  release(inst: SimInstance): void {
    const i = this.slots.findIndex((s) => s.inst === inst);
    if (i >= 0) this.slots[i] = { inst: null, used: 0 };
    inst.slot = null;
  }

  occupants(): Array<string | null> {
    return this.slots.map((s) => s.inst?.key ?? null);
  }
}
