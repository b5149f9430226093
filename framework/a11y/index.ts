import './locator-audit.js';
export {
  accessibilityAudit,
  type AccessibilityAuditOptions,
  type AccessibilityAuditResult,
  type AccessibilityFinding,
} from './audit.js';
export { auditScreen, selectRules, type RuleSelection } from './audit-screen.js';
export { toPassAccessibilityAudit, formatFinding } from './matcher.js';
export { RULES, RULE_NAMES, type RuleName, type Severity, type Measured } from './rules.js';
