import type { ConformanceReport } from './run.js';

const MARK = { pass: 'PASS', fail: 'FAIL', warn: 'WARN', skip: 'SKIP' } as const;

/** The report as a table for people: one line per check, then the details of every one not passed. */
export function renderConformance(report: ConformanceReport): string {
  const rt = report.runtime
    ? `${report.runtime.name} ${report.runtime.version} (protocol ${report.runtime.protocol_version})`
    : 'a runtime without runtime_info';
  const width = Math.max(...report.checks.map((c) => c.id.length));
  const lines = report.checks.map(
    (c) => `${MARK[c.status]}  ${c.id.padEnd(width)}  ${c.title}${c.ms !== undefined ? ` — ${c.ms} ms` : ''}`,
  );
  const details = report.checks
    .filter((c) => c.status === 'fail' || c.status === 'warn')
    .map((c) =>
      [
        `${MARK[c.status]} ${c.id}${c.required ? '' : ' (reported, not failed)'}`,
        `  sent:     ${c.sent.slice(-4).join('\n            ') || '-'}`,
        `  received: ${c.received}`,
        `  design:   ${c.section}: ${c.expects}`,
        `  fix:      ${c.fix}`,
      ].join('\n'),
    );
  const count = (s: string) => report.checks.filter((c) => c.status === s).length;
  const summary = `${report.checks.length} checks: ${count('pass')} passed, ${report.failed} failed, ${count('warn')} reported, ${count('skip')} skipped in ${report.ms} ms`;
  return [
    `Conformance of ${rt}`,
    '',
    ...lines,
    '',
    ...(details.length ? [details.join('\n\n'), ''] : []),
    summary,
    '',
  ].join('\n');
}
