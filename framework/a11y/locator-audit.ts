import { Locator } from '../core/locator.js';
import { accessibilityAudit, type AccessibilityAuditOptions, type AccessibilityAuditResult } from './audit.js';

/*
 * `locator.accessibilityAudit()`, attached from the feature's side: the core's Locator does not
 * import the audit (a feature depends on the core, never the other way), and the method is declared
 * on it by module augmentation. Loaded with the feature, which App loads.
 */
declare module '../core/locator.js' {
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

Locator.prototype.accessibilityAudit = function (this: Locator, opts?: AccessibilityAuditOptions) {
  return this.driver.wrap('locator.accessibilityAudit', {}, (call) =>
    accessibilityAudit(call, this.driver, this, opts),
  );
};
