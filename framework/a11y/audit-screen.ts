import type { UiNode } from '../../device-runtime/protocol/index.js';
import { NestwrightError, type ApiName } from '../core/errors.js';
import { imageContrast, textContrast } from './contrast.js';
import {
  RULE_NAMES,
  RULES,
  SEVERITY_RANK,
  type AuditInput,
  type RawFinding,
  type RuleName,
  type Severity,
} from './rules.js';
import {
  childrenOf,
  duplicateClickableBounds,
  duplicateSpeakableText,
  editableContentDesc,
  linkPurposeUnclear,
  redundantDescription,
  speakableTextPresent,
  touchTargetSize,
  traversalOrder,
} from './tree-checks.js';

/** Which rules run: all by default, `only` these, or all `except` these (ATF's names). */
export interface RuleSelection {
  only?: RuleName[];
  except?: RuleName[];
}

/** The rules a selection runs, checked: an unknown name is an error that lists the known ones. */
export function selectRules(api: ApiName, sel: RuleSelection | undefined): RuleName[] {
  if (sel === undefined) return RULE_NAMES;
  if (typeof sel !== 'object' || sel === null || Array.isArray(sel)) {
    throw new NestwrightError(
      api,
      `options.rules must be { only: [...] } or { except: [...] } with rule names (${RULE_NAMES.join(', ')})`,
      { code: 'INVALID_ARGUMENT' },
    );
  }
  for (const key of ['only', 'except'] as const) {
    const list = sel[key];
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new NestwrightError(api, `options.rules.${key} must be an array of rule names`, {
        code: 'INVALID_ARGUMENT',
      });
    for (const name of list) {
      if (!(RULE_NAMES as string[]).includes(name)) {
        const near = RULE_NAMES.find((r) => r.toLowerCase().startsWith(String(name).toLowerCase().slice(0, 6)));
        throw new NestwrightError(
          api,
          `options.rules.${key}: unknown rule "${String(name)}"${near ? ` (did you mean ${near}?)` : ''}; the rules are ${RULE_NAMES.join(', ')}`,
          { code: 'INVALID_ARGUMENT' },
        );
      }
    }
  }
  return RULE_NAMES.filter((r) => (sel.only ? sel.only.includes(r) : true) && !(sel.except ?? []).includes(r));
}

export function checkSeverity(api: ApiName, s: unknown): Severity {
  if (s === undefined) return 'info';
  if (s === 'error' || s === 'warning' || s === 'info') return s;
  throw new NestwrightError(
    api,
    `options.minimumSeverity must be 'error', 'warning' or 'info', got ${JSON.stringify(s)}`,
    { code: 'INVALID_ARGUMENT' },
  );
}

/** True when any selected rule reads pixels: only then is a screenshot taken. */
export const needsPixels = (rules: RuleName[]) => rules.some((r) => RULES[r].pixels);

/**
 * Run the selected checks on one screen, pure and deterministic: the same nodes and pixels give
 * the same findings in the same order (rule order, then screen order). `skip`: node ids not to
 * report (excluded locators and what is outside an audited subtree); they still take part as
 * neighbours (a duplicate of an excluded node is still a duplicate).
 */
export function auditScreen(
  input: AuditInput,
  rules: RuleName[],
  opts: { skip?: ReadonlySet<string>; minimumSeverity?: Severity } = {},
): RawFinding[] {
  const kids = childrenOf(input.nodes);
  const byId = new Map<string, UiNode>(input.nodes.map((n) => [n.id, n]));
  const run: Record<RuleName, () => RawFinding[]> = {
    SpeakableTextPresentCheck: () => speakableTextPresent(input, kids),
    TouchTargetSizeCheck: () => touchTargetSize(input, byId),
    TextContrastCheck: () => textContrast(input),
    ImageContrastCheck: () => imageContrast(input),
    DuplicateClickableBoundsCheck: () => duplicateClickableBounds(input),
    DuplicateSpeakableTextCheck: () => duplicateSpeakableText(input, kids, byId),
    EditableContentDescCheck: () => editableContentDesc(input),
    RedundantDescriptionCheck: () => redundantDescription(input),
    LinkPurposeUnclearCheck: () => linkPurposeUnclear(input),
    TraversalOrderCheck: () => traversalOrder(input, kids),
  };
  const min = SEVERITY_RANK[opts.minimumSeverity ?? 'info'];
  const skip = opts.skip ?? new Set<string>();
  return rules.flatMap((r) => run[r]()).filter((f) => SEVERITY_RANK[f.severity] >= min && !skip.has(f.node.id));
}

/** The ids of `root` and every node below it. */
export function subtree(nodes: UiNode[], rootIds: Iterable<string>): Set<string> {
  const inside = new Set(rootIds);
  // Parents come before their children in an observation, so one pass collects every descendant.
  for (const n of nodes) if (n.parent && inside.has(n.parent)) inside.add(n.id);
  return inside;
}
