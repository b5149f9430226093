import { toolError } from '../../protocol/index.js';
import { SimError } from './sim-error.js';

interface Entry {
  fingerprint: string;
  /** Settled result, or the call still running (a concurrent retry waits for the same one). */
  result: unknown;
  running?: Promise<unknown>;
}

/**
 * Idempotency keys (docs/protocol.md#tools: "Install/launch are idempotent; idempotency_key prevents duplicates").
 * The same key with the same arguments returns the first call's result without doing it again;
 * the same key with other arguments is refused. Only successes are remembered, so a failed call
 * may be retried with its key. Bounded: the oldest keys are forgotten first.
 */
export class IdempotencyCache {
  private entries = new Map<string, Entry>();

  constructor(private readonly capacity = 2000) {}

  async run<T>(tool: string, key: string, args: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
    const id = `${tool}\u0000${key}`;
    const { idempotency_key: _, ...rest } = args;
    const fingerprint = JSON.stringify(rest);
    const hit = this.entries.get(id);
    if (hit) {
      if (hit.fingerprint !== fingerprint) {
        throw new SimError(
          toolError(
            'INVALID_ARGUMENT',
            `${tool}: idempotency_key ${JSON.stringify(key)} was already used for a call with other arguments`,
            {
              hint: 'Use a new idempotency_key for a different call.',
              details: { first: hit.fingerprint },
            },
          ),
        );
      }
      return (hit.running ?? hit.result) as T;
    }
    const running = fn();
    const entry: Entry = { fingerprint, result: undefined, running };
    this.entries.set(id, entry);
    try {
      entry.result = await running;
      delete entry.running;
    } catch (e) {
      this.entries.delete(id);
      throw e;
    }
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return entry.result as T;
  }

  toJSON(): Array<[string, { fingerprint: string; result: unknown }]> {
    return [...this.entries]
      .filter(([, e]) => !e.running)
      .map(([k, e]) => [k, { fingerprint: e.fingerprint, result: e.result }]);
  }

  restore(entries: Array<[string, { fingerprint: string; result: unknown }]>): void {
    for (const [k, e] of entries) this.entries.set(k, { ...e });
  }
}
