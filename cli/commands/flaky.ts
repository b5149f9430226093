/**
 * `nestwright flaky <reports…> [--last N] [--json] [--suggest-quarantine [--out F]] [--threshold R] [--days D]`
 *
 * Reads the results of the last N runs (Playwright JSON reports, folders of blob reports from CI
 * shards, Allure results folders) and prints, per test, its pass rate, the classes of its
 * failures, when it first and last failed, which step fails, and a verdict: stable, flaky,
 * broken (the same step the same way each time: fix it) or failing. `--suggest-quarantine`
 * writes quarantine entries for the flaky tests under the threshold, to review and copy into
 * `nestwright.quarantine.json`. Exit code: 0 done, 1 nothing to read, 2 usage.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { today, type QuarantineEntry } from '../../framework/quarantine/quarantine.js';
import { analyze, type TestTrend } from '../flaky/analyze.js';
import { readRuns } from '../flaky/runs.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage: nestwright flaky <report.json | blob-report folder | allure-results folder | folder of them>… [options]

  --last N                  only the N most recent runs (default: every run found)
  --json                    print the trends as JSON
  --suggest-quarantine      write quarantine entries for the flaky tests under the threshold, to
                            review and copy into nestwright.quarantine.json
  --out F                   where --suggest-quarantine writes (default nestwright.quarantine.proposed.json)
  --threshold R             the pass rate under which a flaky test is proposed (default 0.95)
  --days D                  how long a proposed entry holds (default 14)

Exit code: 0 done, 1 no run could be read, 2 usage error.
`;

export async function flakyCommand(argv: string[], io: Io = stdio): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        last: { type: 'string' },
        json: { type: 'boolean' },
        'suggest-quarantine': { type: 'boolean' },
        out: { type: 'string' },
        threshold: { type: 'string' },
        days: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    io.err(`flaky: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    io.out(USAGE);
    return 0;
  }
  let suggestFile: string | null = v['suggest-quarantine'] ? 'nestwright.quarantine.proposed.json' : null;
  const inputs = positionals;
  if (v.out) {
    if (!suggestFile) {
      io.err('flaky: --out names the file of --suggest-quarantine; give both\n');
      return 2;
    }
    suggestFile = v.out;
  }
  const number = (name: string, raw: string | undefined, dflt: number, ok: (n: number) => boolean) => {
    if (raw === undefined) return dflt;
    const n = Number(raw);
    if (!ok(n))
      throw new Error(
        `--${name} ${raw}: expected ${name === 'threshold' ? 'a rate from 0 to 1' : 'a whole number above 0'}`,
      );
    return n;
  };
  let last: number, threshold: number, days: number;
  try {
    last = number('last', v.last, Infinity, (n) => Number.isInteger(n) && n > 0);
    threshold = number('threshold', v.threshold, 0.95, (n) => n >= 0 && n <= 1);
    days = number('days', v.days, 14, (n) => Number.isInteger(n) && n > 0);
  } catch (e) {
    io.err(`flaky: ${(e as Error).message}\n`);
    return 2;
  }
  if (inputs.length === 0) {
    io.err(`flaky: name the reports to read\n\n${USAGE}`);
    return 2;
  }
  const { runs: all, problems } = readRuns(inputs);
  for (const p of problems) io.err(`flaky: skipped ${p}\n`);
  const runs = all.slice(-last);
  if (runs.length === 0) {
    io.err(
      `flaky: no run found in ${inputs.join(', ')}: give Playwright JSON reports, blob report folders or allure-results folders\n`,
    );
    return 1;
  }
  const trends = analyze(runs);
  if (v.json) io.out(`${JSON.stringify({ runs: runs.length, tests: trends }, null, 2)}\n`);
  else print(trends, runs.length, io);
  if (suggestFile) {
    const until = today(new Date(Date.now() + days * 86_400_000));
    const tests: QuarantineEntry[] = trends
      .filter((t) => t.verdict === 'flaky' && t.passRate < threshold && !t.quarantined)
      .map((t) => ({ title: t.title, reason: reasonOf(t), expires: until }));
    writeFileSync(suggestFile, `${JSON.stringify({ tests }, null, 2)}\n`);
    io.out(
      `\n${tests.length} quarantine ${tests.length === 1 ? 'entry' : 'entries'} proposed in ${suggestFile} (flaky, pass rate < ${threshold}); review them and copy them into nestwright.quarantine.json.\n`,
    );
  }
  return 0;
}

const pct = (r: number) => `${Math.round(r * 100)}%`;
const tally = (m: Record<string, number>) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');

function reasonOf(t: TestTrend): string {
  return `flaky: passed first time in ${t.passedFirstTry} of ${t.runs} runs (${pct(t.passRate)}); fails as ${tally(t.classes)}${t.failingStep ? ` at "${t.failingStep.title}"` : ''}`;
}

function print(trends: TestTrend[], runs: number, io: Io): void {
  const counts = { stable: 0, flaky: 0, broken: 0, failing: 0 };
  for (const t of trends) counts[t.verdict]++;
  io.out(
    `${trends.length} tests over ${runs} runs: ${counts.stable} stable, ${counts.flaky} flaky, ${counts.broken} broken, ${counts.failing} failing\n`,
  );
  for (const t of trends.filter((x) => x.verdict !== 'stable')) {
    io.out(
      `\n  ${t.verdict.toUpperCase()}${t.quarantined ? ' (quarantined)' : ''}  ${t.key}\n` +
        `    pass rate ${pct(t.passRate)} (${t.passedFirstTry}/${t.runs} first try, ${t.passedOnRetry} on retry, ${t.failed} failed)\n` +
        `    failures: ${tally(t.classes)}${Object.keys(t.codes).length ? ` — ${tally(t.codes)}` : ''}\n` +
        (t.failingStep ? `    failing step: ${t.failingStep.title} (${t.failingStep.count}×)\n` : '') +
        `    first failure ${t.firstFailure?.at ?? '-'}, last ${t.lastFailure?.at ?? '-'}\n`,
    );
  }
}
