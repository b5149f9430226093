import { NestwrightError } from '../core/errors.js';
import { portOf } from '../core/port.js';
import { accessibilityAudit, type AuditOptions, type Finding } from './audit.js';

const figure = (f: Finding) =>
  f.measured.kind === 'contrast'
    ? ` [${f.measured.ratio}:1, needs ${f.measured.required}:1]`
    : f.measured.kind === 'size'
      ? ` [${f.measured.widthDp}×${f.measured.heightDp} dp, needs ${f.measured.requiredDp}×${f.measured.requiredDp}]`
      : '';

/** One line per finding: severity, rule, selector, figure, message. */
export const formatFinding = (f: Finding) =>
  `${f.severity.padEnd(7)} ${f.rule} ${f.selector}${figure(f)}: ${f.message}`;

/**
 * `expect(app | locator).toPassAccessibilityAudit(options)`: the audit finds nothing beyond the
 * baseline. It looks once (an audit reads a settled screen, it does not wait for one to become
 * accessible); `.not` passes when there is a new finding.
 */
export async function toPassAccessibilityAudit(isNot: boolean, received: unknown, opts: AuditOptions = {}) {
  const api = 'expect.toPassAccessibilityAudit';
  const subject = portOf(received);
  if (!subject)
    throw new NestwrightError(api, 'expect(received).toPassAccessibilityAudit() takes an app or a locator', {
      code: 'INVALID_ARGUMENT',
    });
  const scope = subject.locator;
  const r = await subject.port.wrap(api, { kind: 'expect' }, (call) => accessibilityAudit(call, subject, opts));
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
