import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';

/** The marker `nestwright mcp` looks for in the run's output, one JSON event a line. */
export const PROGRESS_MARKER = '@@nestwright-progress ';

/**
 * A Playwright reporter that prints one line per finished test for `nestwright mcp run_tests`,
 * which turns them into MCP progress notifications. Prints nothing else.
 */
export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;

  onBegin(_config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().length;
    this.emit({ type: 'begin', total: this.total });
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.done++;
    this.emit({
      type: 'test',
      done: this.done,
      total: this.total,
      title: test.titlePath().slice(2).join(' > '),
      status: result.status,
      outcome: test.outcome(),
    });
  }

  printsToStdio(): boolean {
    return true;
  }

  private emit(event: Record<string, unknown>): void {
    process.stdout.write(`${PROGRESS_MARKER}${JSON.stringify(event)}\n`);
  }
}
