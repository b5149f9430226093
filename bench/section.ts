/** One table of `npm run bench`: rows of figures, with the comparison in the same table. */
export interface BenchSection {
  title: string;
  rows: Array<Record<string, string | number>>;
  notes?: string[];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export const round = (x: number, digits = 2) => Number(x.toFixed(digits));

/** Time `fn` `n` times after `warmup` runs; milliseconds per run. */
export async function sample(n: number, fn: () => Promise<unknown> | unknown, warmup = Math.min(20, n)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}
