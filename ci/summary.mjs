// Prints one closing line for CI, "N passed, N failed, N skipped", from the JSON reports that
// `npm test` writes (test-reports/*.json, one per Playwright run).
import { readdirSync, readFileSync } from 'node:fs';

let passed = 0,
  failed = 0,
  skipped = 0;
for (const f of readdirSync('test-reports').filter((f) => f.endsWith('.json'))) {
  const { stats } = JSON.parse(readFileSync(`test-reports/${f}`, 'utf8'));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 ? 1 : 0;
