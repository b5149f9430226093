import { randomUUID } from 'node:crypto';
import type { Caller, Lease, LeaseMode } from '../../protocol/index.js';
import { toolError } from '../../protocol/index.js';
import { SimError } from './sim-error.js';

export type LeaseChange = 'acquire' | 'release' | 'expire' | 'reclaim' | 'session_end' | 'space_deleted';

interface Held extends Lease {
  ttl: number;
}

interface Waiter {
  sessionId: string;
  mode: LeaseMode;
  ttl: number;
  owner: Caller;
  resolve(lease: Lease): void;
  reject(e: SimError): void;
  timer: NodeJS.Timeout;
}

/**
 * Leases of docs/protocol.md#leases: one EXCLUSIVE holder per space, any number of OBSERVE holders. A lease expires
 * after `ttl` ms without a call from its session (every call renews it). `acquire` with `waitMs`
 * queues first-come first-served: a newcomer never overtakes a waiter. Every change is reported
 * to `onChange` (the audit log).
 */
export class LeaseManager {
  private leases = new Map<string, Held>();
  private queues = new Map<string, Waiter[]>();
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    /** `at`: when it happened, for expiries noticed later than they occurred. */
    private readonly onChange: (change: LeaseChange, lease: Lease, by?: string, at?: number) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  holders(spaceId: string): Lease[] {
    this.sweep();
    return [...this.leases.values()].filter((l) => l.space_id === spaceId).map(strip);
  }

  exclusiveHolder(spaceId: string): Lease | undefined {
    return this.holders(spaceId).find((l) => l.mode === 'EXCLUSIVE');
  }

  waiting(spaceId: string): number {
    return this.queues.get(spaceId)?.length ?? 0;
  }

  async acquire(
    spaceId: string,
    sessionId: string,
    mode: LeaseMode,
    ttl: number,
    owner: Caller,
    waitMs = 0,
    signal?: AbortSignal,
  ): Promise<Lease> {
    this.sweep();
    const queue = this.queues.get(spaceId) ?? [];
    const holder = this.exclusiveHolder(spaceId);
    const renewing = holder?.session_id === sessionId;
    if (this.grantable(spaceId, sessionId, mode) && (renewing || mode === 'OBSERVE' || queue.length === 0)) {
      return this.grant(spaceId, sessionId, mode, ttl, owner);
    }
    if (waitMs <= 0) throw busy(spaceId, holder ?? queueHead(spaceId, queue), queue.length);
    return new Promise<Lease>((resolve, reject) => {
      const waiter: Waiter = {
        sessionId,
        mode,
        ttl,
        owner,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.removeWaiter(spaceId, waiter);
          const h = this.exclusiveHolder(spaceId);
          reject(busy(spaceId, h ?? queueHead(spaceId, this.queues.get(spaceId) ?? []), this.waiting(spaceId), waitMs));
        }, waitMs),
      };
      this.queues.set(spaceId, [...queue, waiter]);
      this.scheduleSweep();
      // A caller that gave up must not be handed the space later (it would sit on it until expiry).
      signal?.addEventListener(
        'abort',
        () => {
          if (!this.queues.get(spaceId)?.includes(waiter)) return;
          this.removeWaiter(spaceId, waiter);
          reject(
            new SimError(
              toolError('CANCELLED', `session_acquire: the wait for space ${spaceId} was cancelled by the caller`),
            ),
          );
          this.pump(spaceId);
        },
        { once: true },
      );
    });
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
    if (holder.session_id !== sessionId) throw busy(spaceId, holder, this.waiting(spaceId));
  }

  /** A call by `sessionId` in the space: its leases there stay alive for another ttl. */
  touch(spaceId: string, sessionId: string): void {
    const t = this.now();
    for (const l of this.leases.values())
      if (l.space_id === spaceId && l.session_id === sessionId) l.expires_at = t + l.ttl;
  }

  release(spaceId: string, sessionId: string, leaseId?: string, force = false): string[] {
    const released: string[] = [];
    for (const [id, l] of this.leases) {
      if (l.space_id !== spaceId || (leaseId && id !== leaseId)) continue;
      if (!force && l.session_id !== sessionId) continue;
      this.leases.delete(id);
      released.push(id);
      this.onChange(l.session_id === sessionId ? 'release' : 'reclaim', strip(l), sessionId);
    }
    this.pump(spaceId);
    return released;
  }

  /** The session ended (MCP DELETE, idle reclaim): its leases are released, its waits cancelled. */
  releaseSession(sessionId: string): void {
    const spaces = new Set<string>();
    for (const [id, l] of this.leases) {
      if (l.session_id !== sessionId) continue;
      this.leases.delete(id);
      spaces.add(l.space_id);
      this.onChange('session_end', strip(l), sessionId);
    }
    for (const [spaceId, queue] of this.queues) {
      for (const w of queue.filter((w) => w.sessionId === sessionId)) {
        this.removeWaiter(spaceId, w);
        w.reject(new SimError(toolError('CANCELLED', `session ${sessionId} ended while waiting for space ${spaceId}`)));
      }
      spaces.add(spaceId);
    }
    for (const s of spaces) this.pump(s);
  }

  dropSpace(spaceId: string): void {
    for (const [id, l] of this.leases) {
      if (l.space_id !== spaceId) continue;
      this.leases.delete(id);
      this.onChange('space_deleted', strip(l));
    }
    for (const w of this.queues.get(spaceId) ?? []) {
      clearTimeout(w.timer);
      w.reject(new SimError(toolError('SPACE_NOT_FOUND', `space ${spaceId} was deleted while waiting for its lease`)));
    }
    this.queues.delete(spaceId);
  }

  close(): void {
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    for (const spaceId of [...this.queues.keys()]) this.dropSpace(spaceId);
  }

  private grantable(spaceId: string, sessionId: string, mode: LeaseMode): boolean {
    if (mode === 'OBSERVE') return true;
    const holder = [...this.leases.values()].find((l) => l.space_id === spaceId && l.mode === 'EXCLUSIVE');
    return !holder || holder.session_id === sessionId;
  }

  private grant(spaceId: string, sessionId: string, mode: LeaseMode, ttl: number, owner: Caller): Lease {
    const mine = [...this.leases.values()].find(
      (l) => l.space_id === spaceId && l.session_id === sessionId && l.mode === mode,
    );
    const lease: Held = {
      lease_id: mine?.lease_id ?? `l_${randomUUID().slice(0, 8)}`,
      space_id: spaceId,
      owner,
      session_id: sessionId,
      mode,
      expires_at: this.now() + ttl,
      ttl,
    };
    this.leases.set(lease.lease_id, lease);
    if (!mine) this.onChange('acquire', strip(lease), sessionId);
    this.scheduleSweep();
    return strip(lease);
  }

  /** Hand the space to waiters, in arrival order, as long as the head can be granted. */
  private pump(spaceId: string): void {
    const queue = this.queues.get(spaceId);
    while (queue?.length && this.grantable(spaceId, queue[0]!.sessionId, queue[0]!.mode)) {
      const w = queue.shift()!;
      clearTimeout(w.timer);
      w.resolve(this.grant(spaceId, w.sessionId, w.mode, w.ttl, w.owner));
    }
    if (queue && queue.length === 0) this.queues.delete(spaceId);
  }

  private removeWaiter(spaceId: string, w: Waiter): void {
    clearTimeout(w.timer);
    const q = this.queues.get(spaceId);
    if (!q) return;
    const rest = q.filter((x) => x !== w);
    if (rest.length) this.queues.set(spaceId, rest);
    else this.queues.delete(spaceId);
  }

  private sweep(): void {
    const t = this.now();
    const touched = new Set<string>();
    for (const [id, l] of this.leases) {
      if (l.expires_at > t) continue;
      this.leases.delete(id);
      touched.add(l.space_id);
      this.onChange('expire', strip(l), undefined, l.expires_at);
    }
    for (const s of touched) this.pump(s);
  }

  /** While someone waits, wake up when the earliest lease expires so the queue moves on its own. */
  private scheduleSweep(): void {
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.sweepTimer = null;
    if (this.queues.size === 0) return;
    const next = Math.min(...[...this.leases.values()].map((l) => l.expires_at));
    if (!Number.isFinite(next)) return;
    this.sweepTimer = setTimeout(
      () => {
        this.sweepTimer = null;
        this.sweep();
        this.scheduleSweep();
      },
      Math.max(1, next - this.now() + 1),
    );
    this.sweepTimer.unref();
  }
}

function strip({ ttl: _, ...l }: Held): Lease {
  return l;
}

function queueHead(spaceId: string, queue: Waiter[]): Lease | undefined {
  const w = queue[0];
  return (
    w && {
      lease_id: '(queued)',
      space_id: spaceId,
      owner: w.owner,
      session_id: w.sessionId,
      mode: w.mode,
      expires_at: 0,
    }
  );
}

function busy(spaceId: string, holder: Lease | undefined, waiting: number, waitedMs?: number): SimError {
  const who = holder ? `${holder.owner} session ${holder.session_id}` : 'another session';
  return new SimError(
    toolError('SPACE_BUSY', `space ${spaceId} is held by ${who}${waitedMs ? ` (waited ${waitedMs} ms)` : ''}`, {
      hint: 'Wait for the lease (session_acquire with wait_ms queues first-come first-served), or ask the user to reclaim it (session_release force=true).',
      details: { holder: holder ?? null, waiting },
    }),
  );
}
