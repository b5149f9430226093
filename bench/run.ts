import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { jsonRows, type BenchSection, type JsonRow } from './section.js';

/**
 * `npm run bench [filter]`: runs every `bench/*.bench.ts` (each exports `bench*` functions that
 * return a {@link BenchSection}) and prints one table per section. Medians and ratios, side by
 * side with the comparison measured in the same run. Machines are noisy: read ratios, not ms.
 * The figures are also written to `bench-results.json` (one row per figure: section, name,
 * median_ms, p95_ms, and the comparison's name and ratio) to compare runs between commits.
 */
const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !filter || f.includes(filter))
  .sort();

function print(section: BenchSection): void {
  console.log(`\n## ${section.title}\n`);
  const cols = [...new Set(section.rows.flatMap((r) => Object.keys(r)))];
  const cells = section.rows.map((r) => cols.map((c) => String(r[c] ?? '')));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (vals: string[]) => `| ${vals.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(cols));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of cells) console.log(line(row));
  for (const note of section.notes ?? []) console.log(`\n> ${note}`);
}

const results: JsonRow[] = [];
console.log(
  `# nestwright bench — ${new Date().toISOString()} — node ${process.version}, ${(await import('node:os')).cpus().length} cores`,
);
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as Record<string, unknown>;
  for (const [name, fn] of Object.entries(mod)) {
    if (!name.startsWith('bench') || typeof fn !== 'function') continue;
    try {
      const section = await (fn as () => Promise<BenchSection>)();
      print(section);
      results.push(...jsonRows(section));
    } catch (e) {
      console.log(`\n## ${file} ${name}: FAILED\n\n${(e as Error).stack}`);
      process.exitCode = 1;
    }
  }
}

const out = join(here, '..', 'bench-results.json');
writeFileSync(
  out,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cores: (await import('node:os')).cpus().length,
      filter: filter ?? null,
      rows: results,
    },
    null,
    2,
  ) + '\n',
);
console.log(`\nwrote ${out} (${results.length} figures)`);
