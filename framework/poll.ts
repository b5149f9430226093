/**
 * Retry cadence for auto-waiting, as Playwright's: quick first retries, then capped. Milliseconds.
 */
const BACKOFF = [0, 20, 50, 100, 100, 250, 500];

/**
 * Call `attempt` until it is done or `timeoutMs` passes. An attempt that changed the screen
 * itself (a scroll) answers `{ done: false, again: true }`: look again at once, and start the
 * backoff over, since what it waits for may now be there.
 */
export async function poll<T>(
  timeoutMs: number,
  attempt: (n: number) => Promise<{ done: true; value: T } | { done: false; again?: boolean }>,
): Promise<{ value: T } | { timedOut: true }> {
  const deadline = Date.now() + timeoutMs;
  let waits = 0;
  for (let n = 0; ; n++) {
    const r = await attempt(n);
    if (r.done) return { value: r.value };
    if (r.again && Date.now() < deadline) {
      waits = 0;
      continue;
    }
    const wait = BACKOFF[Math.min(waits++, BACKOFF.length - 1)]!;
    if (Date.now() + wait >= deadline) {
      // One last try at the deadline so slow screens get a fair final look.
      if (Date.now() < deadline) {
        await new Promise((r2) => setTimeout(r2, Math.max(0, deadline - Date.now())));
        const last = await attempt(n + 1);
        if (last.done) return { value: last.value };
      }
      return { timedOut: true };
    }
    await new Promise((r2) => setTimeout(r2, wait));
  }
}
