/**
 * The accessibility audit (docs/accessibility.md): Android's Accessibility Test Framework checks
 * on one screen, over the feature port. The core declares the public members and types
 * (`app.accessibilityAudit()`, `locator.accessibilityAudit()`, `toPassAccessibilityAudit`:
 * framework/core/accessibility.ts) and calls these.
 */
export { accessibilityAudit, type AuditOptions, type AuditResult, type Finding } from './audit.js';
export { auditScreen, selectRules, type RuleSelection } from './audit-screen.js';
export { toPassAccessibilityAudit, formatFinding } from './matcher.js';
export { RULES, RULE_NAMES, type RuleName, type Severity, type Measured } from './rules.js';
