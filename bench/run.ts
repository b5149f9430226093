import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchSection } from './section.js';

/**
 * `npm run bench [filter]`: runs every `bench/*.bench.ts` (each exports `bench*` functions that
 * return a {@link BenchSection}) and prints one table per section. Medians and ratios, side by
 * side with the comparison measured in the same run. Machines are noisy: read ratios, not ms.
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

console.log(`# nestwright bench — ${new Date().toISOString()} — node ${process.version}, ${(await import('node:os')).cpus().length} cores`);
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as Record<string, unknown>;
  for (const [name, fn] of Object.entries(mod)) {
    if (!name.startsWith('bench') || typeof fn !== 'function') continue;
    try {
      print(await (fn as () => Promise<BenchSection>)());
    } catch (e) {
      console.log(`\n## ${file} ${name}: FAILED\n\n${(e as Error).stack}`);
      process.exitCode = 1;
    }
  }
}
