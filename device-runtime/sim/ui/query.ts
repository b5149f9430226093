import { toolError, type UiNode } from '../../protocol/index.js';
import { parseSelector, resolveSteps, SelectorSyntaxError, type Step } from '../../protocol/selector.js';
import { SimError } from '../core/sim-error.js';

/**
 * ui_find and ui_wait_for match text with the protocol's one selector engine
 * (`protocol/selector.ts`), the same code the framework's locators and skill replay use, so a text
 * means one thing everywhere (docs/protocol.md#text-matching).
 */

export interface FindArgs {
  selector?: string;
  text?: string;
  desc?: string;
  res_id?: string;
  role?: string;
}

/**
 * ui_find's arguments as one chain: the selector (when given), then each exact field as an
 * `and` on the same node — `text` and `desc` equal (`text="…"`), `res_id` as `id=`, `role` as `role=`.
 */
function findSteps(args: FindArgs): Step[] {
  const steps: Step[] = args.selector !== undefined ? parsed('ui_find', args.selector) : [];
  const same = (step: Step) => steps.push({ kind: 'and', other: [step] });
  if (args.text !== undefined) same({ kind: 'text', text: args.text, exact: true });
  if (args.desc !== undefined) same({ kind: 'desc', text: args.desc, exact: true });
  if (args.res_id !== undefined) same({ kind: 'id', id: args.res_id });
  if (args.role !== undefined) same({ kind: 'role', role: args.role });
  return steps;
}

/** Nodes matching ui_find's arguments, in screen order. */
export function findNodes(nodes: UiNode[], args: FindArgs): UiNode[] {
  return resolveSteps(nodes, findSteps(args));
}

/**
 * Whether `text` is on screen as ui_wait_for reads it: a node whose text or description contains
 * it, as `text=` / `desc=` match (substring, case-insensitive, whitespace normalized).
 */
export function textOnScreen(nodes: UiNode[], text: string): boolean {
  const match = { text, exact: false };
  return (
    resolveSteps(nodes, [
      { kind: 'text', ...match },
      { kind: 'or', other: [{ kind: 'desc', ...match }] },
    ]).length > 0
  );
}

function parsed(tool: string, selector: string): Step[] {
  try {
    return parseSelector(selector);
  } catch (e) {
    if (e instanceof SelectorSyntaxError)
      throw new SimError(
        toolError('INVALID_ARGUMENT', `${tool}: ${e.message}`, {
          hint: 'Write a selector as app.locator() takes it: text="Save", role=button[name="Save"], id=save >> nth=0.',
        }),
      );
    throw e;
  }
}
