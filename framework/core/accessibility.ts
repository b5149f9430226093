import type { UiNode } from '../../device-runtime/protocol/index.js';
import {
  accessibilityAudit as audit,
  type Measured,
  type RuleName,
  type RuleSelection,
  type Severity,
} from '../a11y/index.js';
import { Locator } from './locator.js';
import { FEATURE_PORT, type HasFeaturePort, type PortSubject } from './port.js';

/*
 * The accessibility audit's public side: its types over the core's `Locator`, and the call
 * `app.accessibilityAudit()` and `locator.accessibilityAudit()` make into the feature
 * (framework/a11y), which sees only the port (`expect.ts` calls the feature's matcher).
 * `locator.accessibilityAudit()` is declared on Locator here, by module augmentation, so that
 * locator.ts need not import the types that name it; App loads this module (app.ts).
 */

/** Options of `app.accessibilityAudit()`, `locator.accessibilityAudit()` and `expect(app).toPassAccessibilityAudit()`. */
export interface AccessibilityAuditOptions {
  /** Which checks run, by ATF's names: `{ only: [...] }` or `{ except: [...] }`; all by default. */
  rules?: RuleSelection;
  /** Nodes not to report (each locator's matches and everything inside them). */
  exclude?: Locator[];
  /** Report only findings at least this grave: `'error'`, `'warning'` or `'info'` (default: all). */
  minimumSeverity?: Severity;
  /**
   * Accepted findings: `true` for `__a11y__/<spec>.json` beside the spec, or a path relative to
   * the spec. Findings listed there are `baselined` and do not fail the matcher; the runner's
   * `--update-snapshots` rewrites this test's entries.
   */
  baseline?: true | string;
}

/** One finding of an audit. */
export interface AccessibilityFinding {
  /** ATF's check name, e.g. `TouchTargetSizeCheck`. */
  rule: RuleName;
  severity: Severity;
  /** What is wrong and how to fix it. */
  message: string;
  /** A locator naming the node, for the test to act on or exclude. */
  locator: Locator;
  /** The locator's selector (`desc=Close`, `id=product_rating`). */
  selector: string;
  /** The node as observed. */
  node: UiNode;
  /** The figure measured: contrast ratio (with colours) or size in dp; `{ kind: 'none' }` for the other rules. */
  measured: Measured;
  /** Selectors of the other nodes the finding involves (duplicates, the node it is out of order with). */
  related: string[];
  /** Listed in the baseline: accepted, not a failure. */
  baselined: boolean;
}

/** What an audit found on one screen. */
export interface AccessibilityAuditResult {
  /** Every finding, baselined or not, in rule order then screen order. */
  findings: AccessibilityFinding[];
  /** The findings not in the baseline: what makes `toPassAccessibilityAudit` fail. */
  violations: AccessibilityFinding[];
  rules: RuleName[];
  /** The activity audited, as observations name it. */
  screen: string;
  snapshotId: string;
  /** Set when this run wrote the baseline file (`--update-snapshots`, or a screen it did not list yet). */
  baselineWritten: string | null;
}

/** `app.accessibilityAudit(opts)` (`locator` null) or `locator.accessibilityAudit(opts)`: one audit as a call of `api`. */
export function auditOf(
  api: 'app.accessibilityAudit' | 'locator.accessibilityAudit',
  subject: PortSubject,
  opts?: AccessibilityAuditOptions,
): Promise<AccessibilityAuditResult> {
  return subject.port.wrap(api, {}, (call) => audit<Locator>(call, subject, opts));
}

declare module './locator.js' {
  interface Locator {
    /**
     * Audit the subtree of this locator's matches for accessibility, as `app.accessibilityAudit()`
     * does for the whole screen (docs/accessibility.md).
     *
     * @example
     * ```ts
     * const { findings } = await app.getById('close_promo').accessibilityAudit();
     * expect(findings.map((f) => f.rule)).toEqual(['TouchTargetSizeCheck']);
     * ```
     */
    accessibilityAudit(opts?: AccessibilityAuditOptions): Promise<AccessibilityAuditResult>;
  }
}

// `this` is read as a HasFeaturePort: indexed on Locator, whose key is a computed member merged with
// the augmentation above, tsc's incremental check (`npm run test:fast`) lost the member after any
// edit of locator.ts and failed here, until its build info was deleted; a full check did not.
Locator.prototype.accessibilityAudit = function (this: Locator & HasFeaturePort, opts?: AccessibilityAuditOptions) {
  return auditOf('locator.accessibilityAudit', this[FEATURE_PORT], opts);
};
