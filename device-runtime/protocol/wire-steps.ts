import { z } from 'zod';
import { RELATIONS, STATES, type NodeState, type Relation } from './selector-relative.js';
import type { Step, TextMatch } from './selector.js';

/**
 * A locator's steps as JSON, for the `selector_actions` extension: the framework's chain
 * (filters with `has`, `or`, `and`, regular expressions) travels whole, so the runtime resolves
 * exactly what the test wrote with the same engine (selector.ts). A RegExp travels as
 * `{ regex, flags }`.
 */
export const WireTextSchema = z.union([
  z.object({ text: z.string(), exact: z.boolean() }).strict(),
  z.object({ regex: z.string(), flags: z.string().regex(/^[dgimsuvy]*$/) }).strict(),
]);
export type WireText = z.infer<typeof WireTextSchema>;

export type WireStep =
  | ({ kind: 'text' } & WireText)
  | ({ kind: 'desc' } & WireText)
  | { kind: 'id'; id: string }
  | { kind: 'class'; className: string }
  | {
      kind: 'role';
      role: string;
      name?: WireText;
      checked?: boolean;
      disabled?: boolean;
      selected?: boolean;
      focused?: boolean;
    }
  | { kind: 'filter'; hasText?: WireText; hasNotText?: WireText; has?: WireStep[] }
  | { kind: 'nth'; index: number }
  | { kind: 'or' | 'and'; other: WireStep[] }
  | { kind: 'relative'; rel: Relation; anchor: WireStep[][] }
  | { kind: 'state'; state: NodeState; value: boolean };

const text = WireTextSchema;
export const WireStepSchema: z.ZodType<WireStep> = z.lazy(() =>
  z.union([
    z.intersection(z.object({ kind: z.literal('text') }), text),
    z.intersection(z.object({ kind: z.literal('desc') }), text),
    z.object({ kind: z.literal('id'), id: z.string().min(1) }),
    z.object({ kind: z.literal('class'), className: z.string().min(1) }),
    z.object({
      kind: z.literal('role'),
      role: z.string().min(1),
      name: text.optional(),
      checked: z.boolean().optional(),
      disabled: z.boolean().optional(),
      selected: z.boolean().optional(),
      focused: z.boolean().optional(),
    }),
    z.object({
      kind: z.literal('filter'),
      hasText: text.optional(),
      hasNotText: text.optional(),
      has: z.array(WireStepSchema).optional(),
    }),
    z.object({ kind: z.literal('nth'), index: z.number().int() }),
    z.object({ kind: z.enum(['or', 'and']), other: z.array(WireStepSchema).min(1) }),
    z.object({
      kind: z.literal('relative'),
      rel: z.enum(RELATIONS),
      anchor: z.array(z.array(WireStepSchema).min(1)).min(1),
    }),
    z.object({ kind: z.literal('state'), state: z.enum(STATES), value: z.boolean() }),
  ]),
) as z.ZodType<WireStep>;

const toText = (m: TextMatch): WireText =>
  m.text instanceof RegExp ? { regex: m.text.source, flags: m.text.flags } : { text: m.text, exact: m.exact };
const fromText = (w: WireText): TextMatch =>
  'regex' in w ? { text: new RegExp(w.regex, w.flags), exact: false } : { text: w.text, exact: w.exact };

/** A locator's steps as the `selector` argument of the selector_actions extension (RegExps as `{ regex, flags }`). */
export function toWireSteps(steps: Step[]): WireStep[] {
  return steps.map((s): WireStep => {
    switch (s.kind) {
      case 'text':
        return { kind: 'text', ...toText(s) };
      case 'desc':
        return { kind: 'desc', ...toText(s) };
      case 'role': {
        const { name, ...rest } = s;
        return { ...rest, ...(name ? { name: toText(name) } : {}) };
      }
      case 'filter':
        return {
          kind: 'filter',
          ...(s.hasText ? { hasText: toText(s.hasText) } : {}),
          ...(s.hasNotText ? { hasNotText: toText(s.hasNotText) } : {}),
          ...(s.has ? { has: toWireSteps(s.has) } : {}),
        };
      case 'or':
      case 'and':
        return { kind: s.kind, other: toWireSteps(s.other) };
      case 'relative':
        return { kind: 'relative', rel: s.rel, anchor: s.anchor.map(toWireSteps) };
      default:
        return s;
    }
  });
}

/** The steps a `selector` argument describes, for {@link resolveSteps}: the inverse of {@link toWireSteps}. */
export function fromWireSteps(wire: WireStep[]): Step[] {
  return wire.map((s): Step => {
    switch (s.kind) {
      case 'text':
        return { kind: 'text', ...fromText(s) };
      case 'desc':
        return { kind: 'desc', ...fromText(s) };
      case 'role': {
        const { name, ...rest } = s;
        return { ...rest, ...(name ? { name: fromText(name) } : {}) };
      }
      case 'filter':
        return {
          kind: 'filter',
          ...(s.hasText ? { hasText: fromText(s.hasText) } : {}),
          ...(s.hasNotText ? { hasNotText: fromText(s.hasNotText) } : {}),
          ...(s.has ? { has: fromWireSteps(s.has) } : {}),
        };
      case 'or':
      case 'and':
        return { kind: s.kind, other: fromWireSteps(s.other) };
      case 'relative':
        return { kind: 'relative', rel: s.rel, anchor: s.anchor.map(fromWireSteps) };
      default:
        return s;
    }
  });
}
