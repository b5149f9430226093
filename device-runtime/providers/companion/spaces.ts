import { fail } from './errors.js';
import type { CompanionHub } from './hub.js';
import type { Phone } from './phone.js';

/** An app "instance" on a phone: the one copy of the app the phone has (see docs/devices.md#companion). */
export interface Instance {
  id: string;
  pkg: string;
  state: 'foreground' | 'background' | 'stopped';
  /** Launched once in this space (its data was reset then, where the phone can). */
  launched?: boolean;
}

export interface CompanionSpace {
  id: string;
  name: string;
  createdAt: number;
  phone: Phone;
  instances: Map<string, Instance>;
  current: string | null;
}

let counter = 0;

/**
 * A space is one phone, held by one session at a time: the phones that dialled in are spread
 * over the workers. A space waits (up to `waitMs`) for a phone that is free and matches `device`;
 * the phone is free again when the space is deleted or the session ends.
 */
export async function takePhone(
  hub: CompanionHub,
  session: string,
  device: { name?: string; id?: string } | undefined,
  waitMs: number,
): Promise<Phone> {
  const deadline = Date.now() + waitMs;
  const fits = (p: Phone) => (!device?.id || p.id === device.id) && (!device?.name || p.name === device.name);
  for (;;) {
    const free = [...hub.phones.values()].find((p) => p.online && !p.holder && fits(p));
    if (free) {
      free.holder = session;
      return free;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      const all = [...hub.phones.values()];
      const matching = all.filter(fits);
      throw fail(
        all.length === 0 ? 'DEVICE_DISCONNECTED' : 'NO_PROCESS_SLOT',
        all.length === 0
          ? `space_create: no phone has dialled in within ${waitMs} ms`
          : matching.length === 0
            ? `space_create: no phone matches ${JSON.stringify(device)} (connected: ${all.map((p) => `${p.name} (${p.id})`).join(', ')})`
            : `space_create: all ${matching.length} matching phones are busy or offline after ${waitMs} ms`,
        {
          hint:
            all.length === 0
              ? 'Point the companion app at this run (server URL, key) and connect; `npx nestwright devices --companion` lists the phones that dial in.'
              : 'Use fewer workers than phones, or connect more phones.',
          retryable: all.length > 0,
        },
      );
    }
    await Promise.race([hub.whenFreed(), hub.whenOnline(), new Promise((r) => setTimeout(r, Math.min(left, 250)))]);
  }
}

export function newSpace(name: string | undefined, phone: Phone): CompanionSpace {
  const id = `companion_${++counter}_${Date.now().toString(36)}`;
  return { id, name: name ?? id, createdAt: Date.now(), phone, instances: new Map(), current: null };
}

export function currentInstance(space: CompanionSpace, tool: string): Instance {
  const inst = space.current ? space.instances.get(space.current) : undefined;
  if (!inst)
    throw fail('INSTANCE_NOT_FOUND', `${tool}: no app is running in space ${space.id}`, {
      hint: 'Launch an app first (space_launch).',
    });
  return inst;
}
