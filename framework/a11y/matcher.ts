import type { AppDriver } from '../core/driver.js';
import { Locator } from '../core/locator.js';
import { accessibilityAudit, type AccessibilityAuditOptions, type AccessibilityFinding } from './audit.js';

const figure = (f: AccessibilityFinding) =>
  f.measured.kind === 'contrast'
    ? ` [${f.measured.ratio}:1, needs ${f.measured.required}:1]`
    : f.measured.kind === 'size'
      ? ` [${f.measured.widthDp}×${f.measured.heightDp} dp, needs ${f.measured.requiredDp}×${f.measured.requiredDp}]`
      : '';

/** One line per finding: severity, rule, selector, figure, message. */
export const formatFinding = (f: AccessibilityFinding) =>
  `${f.severity.padEnd(7)} ${f.rule} ${f.selector}${figure(f)}: ${f.message}`;

/**
 * `expect(app | locator).toPassAccessibilityAudit(options)`: the audit finds nothing beyond the
 * baseline. It looks once (an audit reads a settled screen, it does not wait for one to become
 * accessible); `.not` passes when there is a new finding.
 */
export async function toPassAccessibilityAudit(
  isNot: boolean,
  received: Locator | { driver: AppDriver },
  opts: AccessibilityAuditOptions = {},
) {
  const scope = received instanceof Locator ? received : null;
  const d = received.driver;
  const r = await d.wrap('expect.toPassAccessibilityAudit', { kind: 'expect' }, (call) =>
    accessibilityAudit(call, d, scope, opts),
  );
  // A baseline written for the first time accepts nothing silently: the test fails, as a missing snapshot does.
  const firstWrite = r.baselineWritten !== null && r.violations.length > 0;
  const pass = r.violations.length === 0 && !firstWrite;
  const accepted = r.findings.length - r.violations.length;
  const message = () =>
    `expect(${scope ? 'locator' : 'app'}).${isNot ? 'not.' : ''}toPassAccessibilityAudit() failed\n\n` +
    `Screen: ${r.screen}${scope ? ` (${scope})` : ''}\nRules: ${r.rules.join(', ')}\n` +
    (isNot
      ? 'Expected: a new finding\nReceived: none\n'
      : `${r.violations.length} new finding${r.violations.length === 1 ? '' : 's'}${accepted ? ` (${accepted} more accepted by the baseline)` : ''}:\n${r.violations.map((f) => `  - ${formatFinding(f)}`).join('\n')}\n` +
        (firstWrite
          ? `\nThe baseline ${r.baselineWritten} did not list this screen; it was written with these findings, and the next run accepts them. Give each a reason there, or fix them.`
          : opts.baseline
            ? '\nAccept them with --update-snapshots (then say why in the baseline file), or fix them.'
            : ''));
  // Playwright inverts `pass` for .not itself.
  return { pass, message, name: 'toPassAccessibilityAudit' };
}
