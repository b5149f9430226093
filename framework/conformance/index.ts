/**
 * `nestwright/conformance`: the conformance kit for NestSpace device runtimes. It runs, against
 * a live runtime, every check of what nestwright relies on — the handshake, each tool's answers
 * and documented errors, the semantics tests depend on, the extensions advertised (and
 * NOT_SUPPORTED for the others), timings — and reports what each sent, got back, what the
 * design says and how to fix it. `npx nestwright conformance` is its command line.
 *
 * @example
 * ```ts
 * import { McpToolTransport } from 'nestwright/client';
 * import { runConformance, renderConformance } from 'nestwright/conformance';
 *
 * const report = await runConformance({ connect: () => McpToolTransport.http('http://127.0.0.1:8765/mcp', 'token') });
 * console.log(renderConformance(report));
 * process.exitCode = report.failed > 0 ? 1 : 0;
 * ```
 *
 * @module nestwright/conformance
 */
export { runConformance, type ConformanceReport, type CheckReport } from './run.js';
export { renderConformance } from './report.js';
export { ALL_CHECKS } from './checks.js';
export { Session, type Answer } from './session.js';
export type { Check, CheckGroup, CheckOutcome, CheckStatus, ConformanceContext, ConformanceTarget } from './check.js';
