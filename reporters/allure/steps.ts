import type { TestResult as PwTestResult, TestStep as PwStep } from '@playwright/test/reporter';
import { ContentType, Stage, Status, type Attachment, type Parameter, type StepResult } from 'allure-js-commons';
import { describeNode } from '../../framework/core/errors.js';
import type { ContentStore } from './content-store.js';
import type { ScreenshotRenderer } from './screenshot-renderer.js';
import type { TrajectoryStep } from './trajectory-schema.js';

type PwAttachment = PwTestResult['attachments'][number];

/** Where step attachments come from: the test's attachments by name, read once. */
export interface StepContext {
  store: ContentStore;
  screens: ScreenshotRenderer;
  /** The body of the test attachment with this name, or null. */
  body(name: string): Buffer | null;
  /** Mark a test attachment as shown on a step, so it is not repeated on the test. */
  consume(a: PwAttachment): void;
  read(a: PwAttachment): Buffer | null;
  /** Named by the trajectory (shown where it points, e.g. highlighted): not repeated raw on a step. */
  referenced: ReadonlySet<string>;
}

/** Playwright step categories that are plumbing: shown only when they carry the failure. */
const PLUMBING = new Set(['hook', 'fixture', 'pw:api', 'test.attach']);

/**
 * Build Allure steps from Playwright's step tree and the trajectory, nested as the test nested
 * them: the driver runs each action and assertion as a `test.step` titled like its trajectory
 * step, so the trajectory steps are matched to Playwright steps by title, in order. User
 * `test.step` groups stay as groups; an `expect` wrapper around one trajectory step is replaced
 * by that step; hooks and fixtures appear only when they failed. Trajectory steps that matched no
 * Playwright step (recorded outside `test.step`) follow at the end, in order.
 */
export function buildSteps(
  pwSteps: readonly PwStep[],
  trajectory: readonly TrajectoryStep[],
  ctx: StepContext,
): StepResult[] {
  // Per title, the trajectory steps not yet matched, in order: steps of two instances driven at
  // once (Promise.all) may start in another order than Playwright lists them.
  const pending = new Map<string, TrajectoryStep[]>();
  for (const t of trajectory) pending.set(t.title, [...(pending.get(t.title) ?? []), t]);
  const matched = new Set<TrajectoryStep>();
  const before = screensBefore(trajectory);
  const trajectoryStep = (t: TrajectoryStep) => stepOf(t, before.get(t.index) ?? null, ctx);
  const visit = (s: PwStep): StepResult[] => {
    const t = s.category === 'test.step' ? pending.get(s.title)?.shift() : undefined;
    if (t) {
      matched.add(t);
      const step = trajectoryStep(t);
      step.steps.push(...s.steps.flatMap(visit));
      step.attachments.push(...stepAttachments(s, ctx));
      return [step];
    }
    const children = s.steps.flatMap(visit);
    if (PLUMBING.has(s.category) && !s.error) return children;
    // An expect wrapper around one trajectory step goes; the pictures it carried (toHaveScreenshot's) are on that step.
    if (s.category === 'expect' && children.length === 1 && !s.attachments.some((a) => !ctx.referenced.has(a.name)))
      return children;
    return [
      {
        name: s.title,
        status: s.error ? Status.FAILED : Status.PASSED,
        statusDetails: s.error ? { message: s.error.message ?? String(s.error.value ?? ''), trace: s.error.stack } : {},
        stage: Stage.FINISHED,
        start: s.startTime.getTime(),
        stop: s.startTime.getTime() + s.duration,
        steps: children,
        attachments: stepAttachments(s, ctx),
        parameters: [],
      },
    ];
  };
  const steps = pwSteps.flatMap(visit);
  for (const t of trajectory) if (!matched.has(t)) steps.push(trajectoryStep(t));
  return steps;
}

/**
 * The screen each step started from: its own `before` screenshot, or else the `after` screenshot
 * of the step just before it on the same instance (the framework takes one screenshot per step,
 * at its end, and nothing happens on screen between two steps that the test did not do).
 */
function screensBefore(trajectory: readonly TrajectoryStep[]): Map<number, string> {
  const out = new Map<number, string>();
  let last: { instance: string | null; ref: string } | null = null;
  for (const t of [...trajectory].sort((a, b) => a.index - b.index)) {
    const own = t.screenshots.before;
    if (own) out.set(t.index, own);
    else if (last && last.instance === t.instance) out.set(t.index, last.ref);
    if (t.screenshots.after) last = { instance: t.instance, ref: t.screenshots.after };
  }
  return out;
}

/**
 * One trajectory step: its parameters (selector, node, duration…) and its screens. The target is
 * outlined on the screen the step started from; on the screen after it only when that is all
 * there is, or when the after observation shows the node still there (after a tap that opens
 * another screen, a box where the button used to be would mislead).
 */
function stepOf(t: TrajectoryStep, beforeRef: string | null, ctx: StepContext): StepResult {
  const parameters: Parameter[] = [];
  const param = (name: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined && value !== '') parameters.push({ name, value });
  };
  param('selector', t.selector);
  param('node', t.node ? describeNode(t.node) : t.selector && t.kind === 'action' ? '(not resolved)' : null);
  param('duration', `${t.durationMs} ms`);
  param('api', t.api);
  if (t.source !== 'locator') param('source', t.source);
  if (t.function) param('function', `${t.function.package} ${t.function.id}(${JSON.stringify(t.function.params)})`);
  if (t.heal)
    param(
      'healed',
      `${t.heal.from} → ${t.heal.to} (score ${t.heal.score}, margin ${t.heal.margin}, proposal ${t.heal.proposal})`,
    );
  param('instance', t.instance);
  param('snapshots', t.before || t.after ? `${t.before ?? '–'} → ${t.after ?? '–'}` : null);
  if (t.error?.code) param('error code', t.error.code);
  const ai = t.ai;
  if (ai) {
    param('instruction', ai.instruction);
    param('model', ai.model);
    param('cache', ai.cache);
    param('model requests', String(ai.usage.requests));
    param(
      'tokens',
      `${ai.usage.input + ai.usage.output + ai.usage.cacheRead + ai.usage.cacheWrite} (input ${ai.usage.input}, output ${ai.usage.output}, cache read ${ai.usage.cacheRead}, cache write ${ai.usage.cacheWrite})`,
    );
    param('cost', `$${ai.costUsd.toFixed(4)}`);
    param('model latency', `${ai.latencyMs} ms`);
    if (ai.verdict)
      param(
        'verdict',
        `${ai.verdict.pass ? 'true' : 'false'}${ai.verdict.grounded ? '' : ' (ungrounded: rejected)'} — ${ai.verdict.reason}`,
      );
    if (ai.summary) param('summary', ai.summary);
  }
  // An AI verdict or extraction is shown with its evidence nodes outlined, on the screen it judged.
  const evidence = ai?.verdict?.evidence.map((e) => e.bounds) ?? [];

  const attachments: Attachment[] = [];
  const observations: Record<'before' | 'after', unknown> = { before: null, after: null };
  for (const when of ['before', 'after'] as const) {
    const ref = t.observations?.[when];
    const body = ref ? ctx.body(ref) : null;
    if (body) {
      try {
        observations[when] = JSON.parse(body.toString());
      } catch {
        /* shown as text below */
      }
    }
  }
  const shots = {
    before: beforeRef ? ctx.body(beforeRef) : null,
    after: t.screenshots.after ? ctx.body(t.screenshots.after) : null,
  };
  for (const when of ['before', 'after'] as const) {
    const png = shots[when];
    if (!png) continue;
    const seen = observations[when] as { screen?: { width?: number }; nodes?: Array<{ bounds?: number[] }> } | null;
    const stillThere = !!t.node && !!seen?.nodes?.some((n) => n.bounds?.join() === t.node!.bounds.join());
    if (evidence.length && (when === 'after' || !shots.after)) {
      attachments.push(
        ctx.screens.put(`screenshot ${when} (evidence highlighted)`, png, evidence, seen?.screen?.width),
      );
      continue;
    }
    const outline = t.node && (when === 'before' || !shots.before || stillThere) ? t.node.bounds : null;
    attachments.push(
      ctx.screens.put(`screenshot ${when}${outline ? ' (target highlighted)' : ''}`, png, outline, seen?.screen?.width),
    );
  }
  for (const when of ['before', 'after'] as const) {
    const ref = t.observations?.[when];
    const body = ref ? ctx.body(ref) : null;
    if (body) attachments.push(ctx.store.put(`observation ${when}`, 'application/json', body));
  }
  if (ai) attachments.push(ctx.store.json('ai step', ai));
  const visual = t.visual;
  if (visual) {
    param('snapshot', visual.name);
    param(
      'comparison',
      `${visual.outcome}${visual.diffPixels !== undefined ? `: ${visual.diffPixels} pixels differ (ratio ${visual.ratio ?? 0})` : ''}`,
    );
    param(
      'tolerance',
      `threshold ${visual.threshold}${visual.maxDiffPixels !== undefined ? `, maxDiffPixels ${visual.maxDiffPixels}` : ''}${visual.maxDiffPixelRatio !== undefined ? `, maxDiffPixelRatio ${visual.maxDiffPixelRatio}` : ''}`,
    );
    if (visual.masks.length) param('masks', visual.masks.join(', '));
    if (visual.excluded.length) param('left out', visual.excluded.join(', '));
    const pngs: Partial<Record<'expected' | 'actual' | 'diff' | 'previous', Buffer>> = {};
    for (const kind of ['expected', 'actual', 'diff', 'previous'] as const) {
      const ref = visual.attachments[kind];
      const png = ref ? ctx.body(ref) : null;
      if (png) pngs[kind] = png;
    }
    // Allure's screen-diff view (expected, actual and diff side by side, or overlaid), then each picture.
    if (pngs.expected && pngs.actual) {
      const url = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;
      attachments.push(
        ctx.store.put(
          'screenshot diff',
          ContentType.IMAGEDIFF,
          JSON.stringify({
            expected: url(pngs.expected),
            actual: url(pngs.actual),
            ...(pngs.diff ? { diff: url(pngs.diff) } : {}),
          }),
        ),
      );
    }
    for (const [kind, png] of Object.entries(pngs)) attachments.push(ctx.store.put(kind, 'image/png', png));
  }
  if (t.error)
    attachments.push(
      ctx.store.json('error', { code: t.error.code ?? null, message: t.error.message, api: t.api, step: t.index }),
    );

  const failed = t.result === 'failed';
  return {
    name: t.title,
    status: failed ? (t.kind === 'assertion' ? Status.FAILED : Status.BROKEN) : Status.PASSED,
    statusDetails: t.error ? { message: t.error.code ? `[${t.error.code}] ${t.error.message}` : t.error.message } : {},
    stage: Stage.FINISHED,
    start: t.startedAt,
    stop: t.startedAt + t.durationMs,
    steps: [],
    attachments,
    parameters,
  };
}

/** Attachments a test made inside a `test.step` (e.g. `testInfo.attach` in a helper) go on that step. */
function stepAttachments(s: PwStep, ctx: StepContext): Attachment[] {
  const out: Attachment[] = [];
  for (const a of s.attachments ?? []) {
    if (ctx.referenced.has(a.name)) continue;
    const body = ctx.read(a);
    if (!body) continue;
    ctx.consume(a);
    out.push(ctx.store.put(a.name, a.contentType, body));
  }
  return out;
}
