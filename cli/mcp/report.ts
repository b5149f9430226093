import path from 'node:path';

/** The parts of Playwright's JSON report that `nestwright mcp` reads. */
export interface JsonAttachment {
  name: string;
  contentType: string;
  body?: string;
  path?: string;
}
interface JsonResult {
  status: string;
  duration: number;
  errors: Array<{ message?: string; value?: string }>;
  attachments: JsonAttachment[];
  /** This attempt's annotations (the failure fixture's `failure`, a `quarantine`…). */
  annotations?: Array<{ type: string; description?: string }>;
}
interface JsonTest {
  expectedStatus: string;
  status: 'expected' | 'unexpected' | 'flaky' | 'skipped';
  projectName: string;
  results: JsonResult[];
}
interface JsonSpec {
  title: string;
  file: string;
  line: number;
  tags?: string[];
  tests: JsonTest[];
}
interface JsonSuite {
  title: string;
  file?: string;
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}
export interface JsonReport {
  config: { rootDir: string };
  suites: JsonSuite[];
  errors?: Array<{ message?: string }>;
  stats?: { expected: number; unexpected: number; flaky: number; skipped: number; duration: number };
}

export interface ReportedTest {
  title: string;
  file: string;
  line: number;
  tags: string[];
  project: string;
  outcome: JsonTest['status'];
  result: JsonResult | undefined;
}

/** Every test of a report, with its describe titles joined by ` > ` and its file relative to `root`. */
export function testsOf(report: JsonReport, root: string): ReportedTest[] {
  const out: ReportedTest[] = [];
  // Top-level suites are files (their title is the path); nested ones are describe blocks.
  const walk = (suite: JsonSuite, prefix: string[]) => {
    for (const s of suite.suites ?? []) walk(s, s.title ? [...prefix, s.title] : prefix);
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        out.push({
          title: [...prefix, spec.title].join(' > '),
          file: path.relative(root, path.resolve(report.config.rootDir, spec.file)),
          line: spec.line,
          tags: spec.tags ?? [],
          project: t.projectName,
          outcome: t.status,
          result: t.results[t.results.length - 1],
        });
      }
    }
  };
  for (const s of report.suites) walk(s, []);
  return out;
}

/** ANSI colour codes out: messages go to agents as plain text. */
export function plain(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}
