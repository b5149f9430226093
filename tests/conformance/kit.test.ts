import { test, expect } from '@playwright/test';
import { McpToolTransport } from '../../device-runtime/client/index.js';
import { inMemoryTransport } from '../../device-runtime/sim/mcp.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import {
  runConformance,
  renderConformance,
  ALL_CHECKS,
  type ConformanceReport,
} from '../../framework/conformance/index.js';
import { FAULTS } from './faults.js';
import { wrapTransport, type Rewrite } from './wrap.js';

let n = 0;
async function conformance(rw: Rewrite = {}): Promise<ConformanceReport> {
  const rt = new SimRuntime();
  try {
    return await runConformance({
      connect: async () => wrapTransport(await McpToolTransport.connect(await inMemoryTransport(rt, `kit-${++n}`)), rw),
    });
  } finally {
    rt.close();
  }
}

// extensions.not_advertised has nothing to check on the simulator, which advertises every extension.
const notPassed = (r: ConformanceReport) =>
  r.checks
    .filter((c) => c.status !== 'pass' && !(c.id === 'extensions.not_advertised' && c.status === 'skip'))
    .map((c) => `${c.id}: ${c.status}: ${c.received}`);

test('the unmodified simulator passes every check', async () => {
  const report = await conformance();
  expect(report.checks).toHaveLength(ALL_CHECKS.length);
  expect(notPassed(report), renderConformance(report)).toEqual([]);
  expect(report.failed).toBe(0);
});

for (const fault of FAULTS) {
  test(`broken runtime: ${fault.name} — caught by ${fault.caughtBy} alone`, async () => {
    const report = await conformance(fault.rewrite());
    const caught = report.checks.find((c) => c.id === fault.caughtBy)!;
    expect(caught.status, renderConformance(report)).toBe(fault.status);
    expect(caught.received.length).toBeGreaterThan(0);
    expect(
      notPassed(report).filter((line) => !line.startsWith(`${fault.caughtBy}:`)),
      renderConformance(report),
    ).toEqual([]);
    expect(report.failed).toBe(fault.status === 'fail' ? 1 : 0);
  });
}

test('docs/runtime-authors.md names every group and every check outside the tools group', async () => {
  const { readFileSync } = await import('node:fs');
  const page = readFileSync(new URL('../../docs/runtime-authors.md', import.meta.url), 'utf8');
  for (const c of ALL_CHECKS)
    expect(page, c.id).toContain(c.group === 'tools' ? c.id.slice('tools.'.length) : `\`${c.id}\``);
});
