import { lstat, mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { expect } from '../../../framework/core/expect.js';
import { parseLocatorInput } from '../../../framework/tools/expression.js';
import { Locator } from '../../../framework/core/locator.js';
import type { Step } from '../../../framework/core/selector.js';
import { bestLocatorCode, codeOfInput, js, logOf, record, specSource } from '../authoring/log.js';
import { AgentError } from '../errors.js';
import type { AgentState } from '../state.js';
import { defineAgentTool } from '../tool.js';
import { allowedPath } from './files.js';

/**
 * The generator's tools: `assert` checks an expected result live with nestwright's own matchers
 * (the same retrying, strict `expect` a spec runs) and logs it; `generate_spec` writes what the
 * session did as a spec; `save_plan` writes the planner's Markdown plan under `specs/plans/`.
 */
const KINDS = ['visible', 'hidden', 'text', 'contains_text', 'count', 'enabled', 'checked', 'activity'] as const;
type Kind = (typeof KINDS)[number];

function matcherCode(kind: Kind, value: string | undefined, count: number | undefined, opts: string): string {
  const o = opts ? `, ${opts}` : '';
  switch (kind) {
    case 'visible':
      return `toBeVisible(${opts})`;
    case 'hidden':
      return `toBeHidden(${opts})`;
    case 'text':
      return `toHaveText(${js(value!)}${o})`;
    case 'contains_text':
      return `toContainText(${js(value!)}${o})`;
    case 'count':
      return `toHaveCount(${count!}${o})`;
    case 'enabled':
      return `toBeEnabled(${opts})`;
    case 'checked':
      return `toBeChecked(${opts})`;
    case 'activity':
      return `toHaveActivity(${js(value!)}${o})`;
    default: {
      const never: never = kind;
      throw new AgentError('INVALID_ARGUMENT', `unknown assertion ${String(never)}`);
    }
  }
}

export function authoringTools(state: AgentState) {
  const assertTool = defineAgentTool({
    name: 'assert',
    title: 'Assert on the app',
    description:
      "Check an expected result on the live instance with the spec's own retrying assertions (waits up to timeout_ms): visible, hidden, text (exact), contains_text, count, enabled, checked (a selector each), activity (value: '.CartActivity'). Logged for generate_spec with the framework's best locator. A failed check is ASSERTION_FAILED with what was on screen.",
    input: z
      .object({
        session: z.string().min(1).describe('A session id from open_app'),
        kind: z.enum(KINDS),
        selector: z.string().min(1).optional().describe('Required except for activity'),
        value: z.string().optional().describe('The text for text/contains_text, the activity for activity'),
        count: z.number().int().min(0).optional().describe('For count'),
        timeout_ms: z.number().int().min(0).max(60_000).optional(),
        intent: z.string().max(500).optional().describe("The plan's expected result in words"),
        keep_if_failed: z
          .boolean()
          .default(false)
          .describe(
            'The app, not the step, is wrong (it crashed, it shows a wrong result): keep the check in the spec even though it fails, for the healer to mark fixme',
          ),
      })
      .strict(),
    result: z.object({ passed: z.literal(true), code: z.string().describe('The assertion as spec code') }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input, ctx) {
      const s = state.sessions.get(ctx.sessionId, input.session);
      const need = (what: string, ok: boolean) => {
        if (!ok) throw new AgentError('INVALID_ARGUMENT', `assert ${input.kind} needs ${what}`);
      };
      if (input.kind !== 'activity') need('a selector', !!input.selector);
      if (['text', 'contains_text', 'activity'].includes(input.kind)) need('a value', input.value !== undefined);
      if (input.kind === 'count') need('a count', input.count !== undefined);
      let steps: Step[] = [];
      if (input.selector) {
        try {
          steps = parseLocatorInput(input.selector, 'assert');
        } catch (e) {
          throw new AgentError('INVALID_ARGUMENT', (e as Error).message.replace(/^assert: /, ''));
        }
      }
      const timeout = input.timeout_ms ?? 5_000;
      const opts = input.timeout_ms !== undefined ? `{ timeout: ${input.timeout_ms} }` : '';
      const locator = input.selector ? new Locator(s.app.driver, steps) : null;
      try {
        const e = expect;
        switch (input.kind) {
          case 'visible':
            await e(locator!).toBeVisible({ timeout });
            break;
          case 'hidden':
            await e(locator!).toBeHidden({ timeout });
            break;
          case 'text':
            await e(locator!).toHaveText(input.value!, { timeout });
            break;
          case 'contains_text':
            await e(locator!).toContainText(input.value!, { timeout });
            break;
          case 'count':
            await e(locator!).toHaveCount(input.count!, { timeout });
            break;
          case 'enabled':
            await e(locator!).toBeEnabled({ timeout });
            break;
          case 'checked':
            await e(locator!).toBeChecked({ timeout });
            break;
          case 'activity':
            await e(s.app).toHaveActivity(input.value!, { timeout });
            break;
        }
      } catch (err) {
        if (input.keep_if_failed)
          record(s, {
            intent: input.intent ?? null,
            kind: 'assertion',
            code: `await expect(${input.kind === 'activity' ? 'app' : codeOfInput(input.selector!)}).${matcherCode(input.kind, input.value, input.count, opts)};`,
          });
        throw new AgentError(
          'ASSERTION_FAILED',
          (err as Error).message.replace(/\u001b\[[0-9;]*m/g, ''),
          'Observe the screen: the step before may not have done what the plan says, or the app differs from the plan. Never weaken the check to pass.',
        );
      }
      // The best locator names the node whose text or state is checked, found on the screen that
      // passed. Where the locator itself is what is checked (visible, hidden, count: "a node with
      // this text is there"), the agent's own stays: an id there would check less.
      const subject =
        input.kind === 'activity'
          ? 'app'
          : ['visible', 'hidden', 'count'].includes(input.kind)
            ? codeOfInput(input.selector!)
            : bestLocatorCode((s.last = await s.app.observe()), steps, input.selector!);
      const code = `await expect(${subject}).${matcherCode(input.kind, input.value, input.count, opts)};`;
      record(s, { intent: input.intent ?? null, kind: 'assertion', code });
      return { result: { passed: true as const, code } };
    },
  });

  const generateSpec = defineAgentTool({
    name: 'generate_spec',
    title: 'Write the session as a spec',
    description:
      "Write what the session did (its start, set_conditions, each act and assert, as code with nestwright's best locators) as one test in a spec under specs/. Returns the source.",
    input: z
      .object({
        session: z.string().min(1),
        path: z.string().min(1).max(500).describe('specs/….spec.ts, relative to the project root'),
        title: z.string().min(1).max(200),
        describe: z.string().min(1).max(200).optional().describe('A test.describe block around the test'),
        plan: z.string().max(500).optional().describe('The plan it implements: a `// spec:` line'),
        seed: z.string().max(500).optional().describe('The seed spec: a `// seed:` line'),
      })
      .strict(),
    result: z.object({ path: z.string(), created: z.boolean(), steps: z.number().int(), source: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run(input, ctx) {
      const s = state.sessions.get(ctx.sessionId, input.session);
      const log = logOf(s);
      if (!log.steps.some((x) => x.kind !== 'setup'))
        throw new AgentError(
          'INVALID_ARGUMENT',
          `session ${input.session} has no act or assert yet`,
          'Perform the scenario with act and assert first.',
        );
      const abs = await allowedPath(state.project.root, input.path);
      if (!/\.(spec|test)\.[cm]?[jt]s$/.test(abs))
        throw new AgentError('PATH_NOT_ALLOWED', `${input.path}: a spec's name ends in .spec.ts`, null);
      const source = specSource(log, input);
      const created = !(await lstat(abs).catch(() => null));
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, source);
      return {
        result: { path: path.relative(state.project.root, abs), created, steps: log.steps.length, source },
      };
    },
  });

  const savePlan = defineAgentTool({
    name: 'save_plan',
    title: 'Save a test plan',
    description:
      'Write a Markdown test plan to specs/plans/<name>.md: a `# ` title, then one `### ` section per scenario (Start, Conditions, Steps, Expected).',
    input: z
      .object({
        name: z
          .string()
          .regex(/^[a-z0-9][a-z0-9-]{0,80}$/, 'lower-case letters, digits and dashes')
          .describe("'shop-checkout'"),
        content: z.string().min(1).max(200_000),
      })
      .strict(),
    result: z.object({ path: z.string(), scenarios: z.number().int(), created: z.boolean() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run(input) {
      if (!/^# \S/.test(input.content))
        throw new AgentError('INVALID_ARGUMENT', 'a plan starts with a `# ` title line', null);
      const scenarios = input.content.match(/^### \S/gm)?.length ?? 0;
      if (!scenarios)
        throw new AgentError(
          'INVALID_ARGUMENT',
          'a plan has at least one `### ` scenario',
          'See specs/plans/README.md.',
        );
      const rel = `specs/plans/${input.name}.md`;
      const abs = path.join(state.project.root, rel);
      const existing = await lstat(abs).catch(() => null);
      await mkdir(path.dirname(abs), { recursive: true });
      // specs/plans/ (or the file) must not be a link out of the project.
      const realDir = await realpath(path.dirname(abs));
      const inside = path.relative(await realpath(state.project.root), realDir);
      if (inside !== path.join('specs', 'plans') || (existing && !existing.isFile()))
        throw new AgentError('PATH_NOT_ALLOWED', `${rel}: not a regular file under specs/plans/ of the project`, null);
      const created = !existing;
      await writeFile(abs, input.content.endsWith('\n') ? input.content : `${input.content}\n`);
      return { result: { path: rel, scenarios, created } };
    },
  });

  return [assertTool, generateSpec, savePlan];
}
