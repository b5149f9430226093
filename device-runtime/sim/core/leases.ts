import { randomUUID } from 'node:crypto';
import type { Caller, Lease, LeaseMode } from '../../protocol/index.js';
import { toolError } from '../../protocol/index.js';
import { SimError } from './sim-error.js';

/**
 * Leases of §5.5: one EXCLUSIVE holder per space, any number of OBSERVE holders. Idle leases
 * expire after their ttl; every call by the holder renews it.
 */
export class LeaseManager {
  private leases = new Map<string, Lease & { ttl: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  private sweep(): void {
    const t = this.now();
    for (const [id, l] of this.leases) if (l.expires_at <= t) this.leases.delete(id);
  }

  holders(spaceId: string): Lease[] {
    this.sweep();
    return [...this.leases.values()].filter((l) => l.space_id === spaceId).map(({ ttl: _, ...l }) => l);
  }

  exclusiveHolder(spaceId: string): Lease | undefined {
    return this.holders(spaceId).find((l) => l.mode === 'EXCLUSIVE');
  }

  acquire(spaceId: string, sessionId: string, mode: LeaseMode, ttl: number, owner: Caller): Lease {
    const holder = this.exclusiveHolder(spaceId);
    if (holder && holder.session_id !== sessionId && mode === 'EXCLUSIVE') throw busy(holder);
    const mine = this.holders(spaceId).find((l) => l.session_id === sessionId && l.mode === mode);
    const lease = {
      lease_id: mine?.lease_id ?? `l_${randomUUID().slice(0, 8)}`,
      space_id: spaceId,
      owner,
      session_id: sessionId,
      mode,
      expires_at: this.now() + ttl,
      ttl,
    };
    this.leases.set(lease.lease_id, lease);
    const { ttl: _, ...out } = lease;
    return out;
  }

  /** Throws unless `sessionId` holds the EXCLUSIVE lease of the space; renews it. */
  requireExclusive(spaceId: string, sessionId: string, tool: string): void {
    const holder = this.exclusiveHolder(spaceId);
    if (!holder) {
      throw new SimError(
        toolError('LEASE_REQUIRED', `${tool} changes space ${spaceId} and needs an EXCLUSIVE lease`, {
          hint: `Call session_acquire {space_id: "${spaceId}", mode: "EXCLUSIVE"} first.`,
        }),
      );
    }
    if (holder.session_id !== sessionId) throw busy(holder);
    const l = this.leases.get(holder.lease_id)!;
    l.expires_at = this.now() + l.ttl;
  }

  release(spaceId: string, sessionId: string, leaseId?: string, force = false): string[] {
    const released: string[] = [];
    for (const [id, l] of this.leases) {
      if (l.space_id !== spaceId) continue;
      if (leaseId && id !== leaseId) continue;
      if (!force && l.session_id !== sessionId) continue;
      this.leases.delete(id);
      released.push(id);
    }
    return released;
  }

  releaseSession(sessionId: string): void {
    for (const [id, l] of this.leases) if (l.session_id === sessionId) this.leases.delete(id);
  }

  dropSpace(spaceId: string): void {
    for (const [id, l] of this.leases) if (l.space_id === spaceId) this.leases.delete(id);
  }
}

function busy(holder: Lease): SimError {
  return new SimError(
    toolError('SPACE_BUSY', `space ${holder.space_id} is held by ${holder.owner} session ${holder.session_id}`, {
      hint: 'Wait for the lease (session_acquire with wait_ms), or ask the user to reclaim it.',
      details: { holder },
    }),
  );
}
