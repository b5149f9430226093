import { toolError } from '../../protocol/index.js';
import type { SimInstance } from './instance.js';
import { SimError } from './sim-error.js';

interface Slot {
  inst: SimInstance | null;
  spaceId: string | null;
  used: number;
  /** The last process in this slot crashed; it is cleaned before reuse (docs/protocol.md#processes). */
  dirty: boolean;
}

/**
 * The host-declared :c1..:cN process slots (docs/protocol.md#processes), shared by every space of the device.
 * Each running package@instance is pinned to one slot. When none is free, the least recently used
 * background instance is evicted (its data stays; its next launch is cold); a foreground instance
 * is evicted only when its space has no EXCLUSIVE lease (nobody is driving it). When every slot
 * runs a foreground instance of a leased space, launching fails with NO_PROCESS_SLOT.
 */
export class ProcessPool {
  private slots: Slot[];
  private clock = 0;
  private nextPid = 10_000;
  /** Slots cleaned after a crash, for runtime_info and tests. */
  cleaned = 0;

  constructor(readonly size: number) {
    this.slots = Array.from({ length: size }, () => ({ inst: null, spaceId: null, used: 0, dirty: false }));
  }

  /**
   * Pin `inst` (of space `spaceId`) to a slot; returns the slot and whatever was evicted to make
   * room. `leased(spaceId)` says whether a space is being driven, which protects its foreground.
   */
  assign(
    inst: SimInstance,
    spaceId: string,
    leased: (spaceId: string) => boolean,
  ): { slot: number; pid: number; evicted: SimInstance | null; evictedSpace: string | null; cleaned: boolean } {
    const tick = ++this.clock;
    const own = this.slots.findIndex((s) => s.inst === inst);
    if (own >= 0) {
      this.slots[own]!.used = tick;
      return { slot: own + 1, pid: inst.pid, evicted: null, evictedSpace: null, cleaned: false };
    }
    let index = this.slots.findIndex((s) => s.inst === null);
    let evicted: SimInstance | null = null;
    let evictedSpace: string | null = null;
    if (index < 0) {
      const rank = (s: Slot) => (s.inst!.status !== 'foreground' ? 0 : leased(s.spaceId!) ? 2 : 1);
      const victim = this.slots
        .map((s, i) => ({ s, i, r: rank(s) }))
        .filter((c) => c.r < 2)
        .sort((a, b) => a.r - b.r || a.s.used - b.s.used)[0];
      if (!victim) {
        throw new SimError(
          toolError(
            'NO_PROCESS_SLOT',
            `space_launch: all ${this.size} process slots run foreground instances of spaces that are being driven (${this.occupants().join(', ')})`,
            {
              hint: 'Stop an instance (space_stop), release a lease elsewhere, or start the runtime with more slots (--slots N).',
              details: { slots: this.occupants() },
            },
          ),
        );
      }
      evicted = victim.s.inst;
      evictedSpace = victim.s.spaceId;
      evicted!.stop();
      index = victim.i;
    }
    const cleaned = this.slots[index]!.dirty;
    if (cleaned) this.cleaned++;
    this.slots[index] = { inst, spaceId, used: tick, dirty: false };
    inst.slot = index + 1;
    return { slot: index + 1, pid: ++this.nextPid, evicted, evictedSpace, cleaned };
  }

  release(inst: SimInstance, crashed = false): void {
    const i = this.slots.findIndex((s) => s.inst === inst);
    if (i >= 0) this.slots[i] = { inst: null, spaceId: null, used: 0, dirty: crashed };
    inst.slot = null;
  }

  isDirty(slot: number): boolean {
    return this.slots[slot - 1]?.dirty ?? false;
  }

  occupants(): Array<string | null> {
    return this.slots.map((s) => (s.inst ? `${s.inst.key}` : null));
  }
}
