/**
 * One table of `npm run bench`: rows of figures, with the comparison in the same table. A row
 * names its figure in `measure` (or `name`), its times in `median_ms`/`p95_ms`, and may name what
 * it is compared with in `vs` and the ratio (its median over the other's) in `ratio`.
 */
export interface BenchSection {
  title: string;
  rows: Array<Record<string, string | number>>;
  notes?: string[];
}

/** A figure of bench-results.json. */
export interface JsonRow {
  section: string;
  name: string;
  median_ms: number | null;
  p95_ms: number | null;
  vs: string | null;
  ratio: number | null;
  /** The row's other columns (counts, notes), as printed. */
  extra: Record<string, string | number>;
}

/** The rows of a section as bench-results.json figures. */
export function jsonRows(section: BenchSection): JsonRow[] {
  return section.rows.map((r) => {
    const { measure, name, median_ms, p95_ms, vs, ratio, ...extra } = r;
    const num = (v: unknown) =>
      typeof v === 'number'
        ? v
        : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v.replace(/x$/, '')))
          ? Number(v.replace(/x$/, ''))
          : null;
    return {
      section: section.title,
      name: String(measure ?? name ?? Object.values(r)[0]),
      median_ms: num(median_ms),
      p95_ms: num(p95_ms),
      vs: vs === undefined ? null : String(vs),
      ratio: num(ratio),
      extra,
    };
  });
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
export async function sample(
  n: number,
  fn: () => Promise<unknown> | unknown,
  warmup = Math.min(20, n),
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}
