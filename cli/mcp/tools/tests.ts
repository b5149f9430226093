import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AgentErrorCodeSchema } from '../errors.js';
import { failureOf, FailureClassSchema } from '../failures.js';
import { testsOf } from '../report.js';
import { runPlaywright, selectionArgs } from '../runner.js';
import type { AgentState } from '../state.js';
import { defineAgentTool } from '../tool.js';

const Selection = {
  files: z
    .array(z.string().min(1))
    .max(200)
    .optional()
    .describe('Spec files or directories, relative to the project root (as for `playwright test`)'),
  grep: z.string().min(1).optional().describe('Only tests whose title matches this regular expression'),
};

const StepSchema = z.object({
  index: z.number().int(),
  title: z.string(),
  api: z.string(),
  selector: z.string().nullable(),
  node: z.string().nullable().describe('The node acted on, as a compact line'),
  duration_ms: z.number(),
  result: z.enum(['ok', 'failed']),
  source: z.string(),
  error: z.object({ code: z.string().nullable(), message: z.string() }).nullable(),
});

/** Which skills a spec file uses: every `skills/….yaml` path it names. */
async function skillsOf(root: string, file: string, cache: Map<string, string[]>): Promise<string[]> {
  if (!cache.has(file)) {
    const text = await readFile(path.join(root, file), 'utf8').catch(() => '');
    cache.set(file, [
      ...new Set(
        [...text.matchAll(/['"`]((?:\.\/)?skills\/[\w./-]+\.ya?ml)['"`]/g)].map((m) => m[1]!.replace(/^\.\//, '')),
      ),
    ]);
  }
  return cache.get(file)!;
}

export function testTools(state: AgentState) {
  const listTests = defineAgentTool({
    name: 'list_tests',
    title: 'List tests',
    description:
      'The tests of the project (Playwright `--list`): file, line, title, tags, and the skills each file uses.',
    input: z.object(Selection).strict(),
    result: z.object({
      tests: z.array(
        z.object({
          file: z.string(),
          line: z.number().int(),
          title: z.string(),
          project: z.string(),
          tags: z.array(z.string()),
          skills: z.array(z.string()),
        }),
      ),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input, ctx) {
      const { report } = await runPlaywright(state.project, selectionArgs(input), {
        signal: ctx.signal,
        runId: state.newRunId('list'),
        list: true,
      });
      const cache = new Map<string, string[]>();
      const tests = await Promise.all(
        testsOf(report, state.project.root).map(async (t) => ({
          file: t.file,
          line: t.line,
          title: t.title,
          project: t.project,
          tags: t.tags,
          skills: await skillsOf(state.project.root, t.file, cache),
        })),
      );
      return { result: { tests } };
    },
  });

  const runTests = defineAgentTool({
    name: 'run_tests',
    title: 'Run tests',
    description:
      'Run the specs with Playwright (the project config; each test in its own space instance). Sends progress notifications per finished test when the request has a progressToken; cancelling the request stops the run and everything it started. Returns counts and, for each failed test, its error, failing step and a trajectory_id for get_failure.',
    input: z
      .object({
        ...Selection,
        project: z.string().min(1).optional().describe('A Playwright project name from the config'),
        workers: z.number().int().min(1).max(16).optional(),
      })
      .strict(),
    result: z.object({
      passed: z.number().int(),
      failed: z.number().int(),
      flaky: z.number().int(),
      skipped: z.number().int(),
      duration_ms: z.number(),
      exit_code: z.number().int(),
      errors: z.array(z.string()).describe('Errors outside tests (config, global setup)'),
      failures: z.array(
        z.object({
          title: z.string(),
          file: z.string(),
          line: z.number().int(),
          location: z.string().describe('file:line'),
          error: z.object({ code: AgentErrorCodeSchema, message: z.string() }),
          failure: FailureClassSchema,
          failing_step: StepSchema.nullable(),
          trajectory_id: z.string(),
        }),
      ),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(input, ctx) {
      const runId = state.newRunId('run');
      const started = Date.now();
      const { report, exitCode } = await runPlaywright(state.project, selectionArgs(input), {
        signal: ctx.signal,
        runId,
        onProgress: (e) => {
          if (e.type === 'begin') void ctx.progress(0, e.total, `running ${e.total} tests`);
          else void ctx.progress(e.done ?? 0, e.total, `${e.status}: ${e.title}`);
        },
      });
      const tests = testsOf(report, state.project.root);
      const failures = [];
      for (const [i, t] of tests.filter((x) => x.outcome === 'unexpected').entries()) {
        const record = failureOf(t, `${runId}-${i + 1}`);
        await state.failures.put(record);
        failures.push({
          title: t.title,
          file: t.file,
          line: t.line,
          location: `${t.file}:${t.line}`,
          error: record.error,
          failure: record.failure,
          failing_step: record.failing_step,
          trajectory_id: record.trajectory_id,
        });
      }
      const count = (o: string) => tests.filter((t) => t.outcome === o).length;
      return {
        result: {
          passed: count('expected'),
          failed: count('unexpected'),
          flaky: count('flaky'),
          skipped: count('skipped'),
          duration_ms: Date.now() - started,
          exit_code: exitCode,
          errors: (report.errors ?? []).map((e) => e.message ?? '').filter(Boolean),
          failures,
        },
      };
    },
  });

  const getFailure = defineAgentTool({
    name: 'get_failure',
    title: 'Read a failure',
    description:
      'Why a test failed and whose it is (failure.class: app, test, device, network, ai; docs/errors.md): its steps (selectors, resolved nodes, durations), the failing step, the screen at the failure (one node a line, id first), the log tail of the failing instance, the report of each crashed instance; with screenshot: true also the screenshot as an image block.',
    input: z
      .object({
        trajectory_id: z.string().min(1),
        screenshot: z
          .boolean()
          .default(false)
          .describe('Also the screenshot at the failure as an image block (the node list usually says enough)'),
      })
      .strict(),
    result: z.object({
      title: z.string(),
      location: z.string(),
      error: z.object({ code: AgentErrorCodeSchema, message: z.string() }),
      failure: FailureClassSchema,
      failing_step: StepSchema.nullable(),
      steps: z.array(StepSchema),
      screen: z.string().nullable(),
      logcat_tail: z.array(z.string()),
      crashes: z
        .array(z.string())
        .optional()
        .describe("Each crashed or unresponsive instance's report: which instance, the exception and its stack"),
      has_screenshot: z.boolean(),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input) {
      const f = await state.failures.get(input.trajectory_id);
      return {
        result: {
          title: f.title,
          location: `${f.file}:${f.line}`,
          error: f.error,
          failure: f.failure ?? { class: 'unclassified', code: f.error.code, api: null, step: null, why: '' },
          failing_step: f.failing_step,
          steps: f.steps,
          screen: f.screen,
          logcat_tail: f.logcat_tail,
          ...(f.crashes ? { crashes: f.crashes } : {}),
          has_screenshot: !!f.screenshot,
        },
        ...(f.screenshot && input.screenshot
          ? { images: [{ data: f.screenshot, mimeType: 'image/png' as const }] }
          : {}),
      };
    },
  });

  return [listTests, runTests, getFailure];
}
