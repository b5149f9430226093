import path from 'node:path';
import {
  describeStep,
  type ParamValue,
  type Skill,
  type SkillAi,
  type SkillStep,
} from '../../device-runtime/protocol/skill/index.js';
import { act } from '../ai/act.js';
import type { AiToolCall } from '../ai/record.js';
import { StrictModeViolationError, TimeoutError } from '../core/errors.js';
import type { AppPort } from '../core/port.js';
import { currentSkillContext } from './options.js';
import { skillProposalId, writeSkillProposal, type SkillProposal } from './proposals.js';

/** The steps that act on a target: the ones whose target can stop resolving. */
const TARGETED = new Set<SkillStep['kind']>(['tap', 'long_press', 'fill', 'clear', 'scroll_to', 'swipe', 'fn']);

/** A step's AI fallback: its own `ai`, else the skill's, else `use.skills.ai` (default off). */
export function fallbackOf(skill: Skill, step: SkillStep): SkillAi {
  return step.ai ?? skill.ai ?? currentSkillContext().options.ai;
}

/** Whether a step's failure is its target no longer resolving (nothing, or several, match): what a fallback may take over. */
export function isMiss(step: SkillStep, e: unknown): boolean {
  return TARGETED.has(step.kind) && (e instanceof TimeoutError || e instanceof StrictModeViolationError);
}

/**
 * The AI agent does the step's intent on this screen (`app.ai.act`, its own step, source `ai`,
 * with the skill's parameters as placeholders); the caller's post-checks then verify it. Returns
 * the tool calls it made, for the proposal.
 */
export async function aiFallback(
  app: AppPort,
  skill: Skill,
  step: SkillStep,
  params: Record<string, ParamValue>,
  miss: unknown,
): Promise<AiToolCall[]> {
  const what = describeStep(step);
  const first = app.trajectory.steps.length;
  const reason = String((miss as Error)?.message ?? miss)
    .split('\n')[0]!
    .replace(/\.+$/, '');
  const instruction = `${step.intent ?? what}\n(This is a step of the skill ${skill.name}; the recorded step "${what}" no longer resolves: ${reason}. Do what it was for on this screen, then call done.)`;
  await act(app, instruction, {
    params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v])),
  });
  const record = app.trajectory.steps.slice(first).find((s) => s.api === 'ai.act' && s.ai);
  return (record?.ai?.calls ?? []).filter((c) => c.result === 'ok');
}

/** A value the model typed, with the skill's parameters written back as `${name}` (a `{name}` placeholder, or a parameter's value). */
function parametrized(text: string, params: Record<string, ParamValue>): string {
  let out = text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? `\${${name}}` : m));
  for (const [name, value] of Object.entries(params))
    if (typeof value === 'string' && value.length > 0 && out === value) out = `\${${name}}`;
  return out;
}

const OPPOSITE = { up: 'down', down: 'up', left: 'right', right: 'left' } as const;

/** The model's tool calls as skill steps: what a reviewer reads and `--apply` writes. */
export function stepsOf(calls: AiToolCall[], params: Record<string, ParamValue>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const c of calls) {
    const input = c.input as Record<string, any>;
    if (c.tool.startsWith('fn_')) out.push({ fn: { name: c.tool.slice(3), params: input } });
    else if (c.tool === 'tap' && c.selector) out.push({ tap: c.selector });
    else if (c.tool === 'long_press' && c.selector) out.push({ long_press: c.selector });
    else if (c.tool === 'type_text' && c.selector)
      out.push({ fill: { target: c.selector, value: parametrized(String(input.text ?? ''), params) } });
    else if (c.tool === 'press_key') out.push({ press: input.key });
    else if (c.tool === 'scroll' && c.selector)
      out.push({
        swipe: { target: c.selector, direction: OPPOSITE[input.direction as keyof typeof OPPOSITE] ?? 'up' },
      });
  }
  return out;
}

/**
 * The proposal of a passing fallback: the step as the file has it, and the steps the agent took
 * (the first keeps the step's intent, `when` and pre-checks, the last its post-checks), written
 * under `.nestwright/skills/proposals/` for `nestwright skill proposals`.
 */
export function proposeRewrite(
  skill: Skill,
  file: string,
  index: number,
  raw: SkillStep,
  calls: AiToolCall[],
  params: Record<string, ParamValue>,
  why: string,
): SkillProposal | null {
  const steps = stepsOf(calls, params);
  if (steps.length === 0) return null;
  const { kind: _k, ...original } = raw as SkillStep & Record<string, unknown>;
  const first = steps[0]!;
  const last = steps[steps.length - 1]!;
  if (raw.intent) first.intent = raw.intent;
  if (raw.when) first.when = strip(raw.when);
  if (raw.pre) first.pre = raw.pre.map(strip);
  if (raw.post) last.post = raw.post.map(strip);
  const ctx = currentSkillContext();
  const rel = path.relative(ctx.projectDir, file) || file;
  return writeSkillProposal(ctx.projectDir, {
    id: skillProposalId(rel, index, steps),
    skill: rel,
    name: skill.name,
    index,
    intent: raw.intent ?? describeStep(raw),
    original: stripDeep(original) as Record<string, unknown>,
    proposed: steps,
    why,
    test: ctx.test,
    createdAt: new Date().toISOString(),
  });
}

/** A check or step as written: without the `kind` the parser added. */
function strip<T>(v: T): Record<string, unknown> {
  return stripDeep(v) as Record<string, unknown>;
}
function stripDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDeep);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== 'kind')
        .map(([k, x]) => [k, stripDeep(x)]),
    );
  return v;
}
