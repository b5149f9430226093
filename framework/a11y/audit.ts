import { test } from '@playwright/test';
import { createRequire } from 'node:module';
import type { PNG } from 'pngjs';
import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import { inTest } from '../core/in-test.js';
import { NestwrightError, type ApiName } from '../core/errors.js';
import { uniqueSelectorFor } from '../../device-runtime/protocol/best-selector.js';
import { poll } from '../core/poll.js';
import { portOf, type InstancePort, type PortLocator, type PortSubject } from '../core/port.js';
import { formatSteps, parseSelector, resolveSteps } from '../core/selector.js';
import { auditScreen, checkSeverity, needsPixels, selectRules, subtree, type RuleSelection } from './audit-screen.js';
import { baselinePath, entryKey, readBaseline, writeBaseline } from './baseline.js';
import { outlineFindings } from './outline.js';
import { RULES, type Measured, type RuleName, type Severity } from './rules.js';

/** pngjs, loaded on first use rather than with the framework. */
let pngjsModule: typeof import('pngjs') | undefined;
const pngjs = (): typeof import('pngjs') =>
  (pngjsModule ??= createRequire(import.meta.url)('pngjs') as typeof import('pngjs'));

/*
 * The audit's options and results over the locator class `L`: the core declares them, with their
 * documentation, as the public `AccessibilityAuditOptions`, `AccessibilityFinding` and
 * `AccessibilityAuditResult` with `L = Locator` (framework/core/accessibility.ts); here a locator
 * is a port's (port.ts), and a finding's is made by the receiver (`PortSubject.locate`).
 */

/** `AccessibilityAuditOptions` (core/accessibility.ts) over locators `L`. */
export interface AuditOptions<L extends PortLocator = PortLocator> {
  rules?: RuleSelection;
  exclude?: L[];
  minimumSeverity?: Severity;
  baseline?: true | string;
}

/** `AccessibilityFinding` (core/accessibility.ts) over locators `L`. */
export interface Finding<L extends PortLocator = PortLocator> {
  rule: RuleName;
  severity: Severity;
  message: string;
  locator: L;
  selector: string;
  node: UiNode;
  measured: Measured;
  related: string[];
  baselined: boolean;
}

/** `AccessibilityAuditResult` (core/accessibility.ts) over locators `L`. */
export interface AuditResult<L extends PortLocator = PortLocator> {
  findings: Finding<L>[];
  violations: Finding<L>[];
  rules: RuleName[];
  screen: string;
  snapshotId: string;
  baselineWritten: string | null;
}

/** A density when the runtime does not report one: Android's most common (xxhdpi-ish), as the simulator's. */
const DEFAULT_DENSITY = 420;

/**
 * Audit the screen of one app instance (or one locator's subtree): one stable observation with
 * every node, a screenshot when a contrast rule runs or a finding is to be outlined, then the
 * checks, as one trajectory step whose after-picture frames the findings.
 */
export async function accessibilityAudit<L extends PortLocator>(
  call: ApiCall,
  subject: PortSubject,
  opts: AuditOptions<L> = {},
): Promise<AuditResult<L>> {
  const { port: driver, locator: scope } = subject;
  const rules = selectRules(call, opts.rules);
  const minimumSeverity = checkSeverity(call, opts.minimumSeverity);
  if (opts.exclude !== undefined && (!Array.isArray(opts.exclude) || opts.exclude.some((l) => !portOf(l)?.locator))) {
    throw new NestwrightError(call, 'options.exclude must be an array of locators (app.getBy…())', {
      code: 'INVALID_ARGUMENT',
    });
  }
  const file = opts.baseline !== undefined ? baselineFile(call, opts.baseline) : null;
  // Read before anything runs: a malformed baseline fails at once and is never written over.
  const previous = file ? readBaseline(call, file) : null;
  const title = `Accessibility audit${scope ? ` of ${scope}` : ''}`;
  return driver.step(call, { kind: 'assertion', title, selector: scope ? scope.toString() : null }, async (rec) => {
    const obs = await stableObservation(driver, call);
    rec.before = obs.snapshot_id;
    rec.after = obs.snapshot_id;
    const info = await driver.info().catch(() => null);
    const density = info?.device.screen.density || DEFAULT_DENSITY;
    let png: Buffer | null = needsPixels(rules) ? await driver.screenshot(call, 0.5) : null;
    let img = png ? decode(png) : null;
    const skip = new Set<string>();
    for (const l of opts.exclude ?? [])
      for (const id of subtree(
        obs.nodes,
        resolveSteps(obs.nodes, l.steps).map((n) => n.id),
      ))
        skip.add(id);
    if (scope) {
      const roots = resolveSteps(obs.nodes, scope.steps);
      if (roots.length === 0)
        throw new NestwrightError(call, `${scope} matches no node on this screen; nothing to audit`, {
          code: 'NODE_NOT_FOUND',
        });
      const inside = subtree(
        obs.nodes,
        roots.map((n) => n.id),
      );
      for (const n of obs.nodes) if (!inside.has(n.id)) skip.add(n.id);
    }
    const raw = auditScreen({ nodes: obs.nodes, density, screen: obs.screen, pixels: img }, rules, {
      skip,
      minimumSeverity,
    });
    const screen = obs.activity ?? obs.package ?? 'unknown';
    const testTitle = inTest() ? test.info().titlePath.slice(1).join(' › ') : '';
    const name = (n: UiNode) => selectorOf(obs.nodes, n);
    const accepted = new Map<string, number>();
    for (const e of previous ?? [])
      if (e.test === testTitle && e.screen === screen) accepted.set(entryKey(e), (accepted.get(entryKey(e)) ?? 0) + 1);
    const findings: Finding<L>[] = raw.map((f) => {
      const selector = name(f.node);
      const key = entryKey({ test: testTitle, screen, rule: f.rule, selector });
      const left = accepted.get(key) ?? 0;
      if (left > 0) accepted.set(key, left - 1);
      return {
        rule: f.rule,
        severity: f.severity,
        message: f.message,
        selector,
        // `locate` makes the receiver's own kind of locator (the core's `Locator`): `L`.
        locator: subject.locate(parseSelector(selector, call.api)) as L,
        node: f.node,
        measured: f.measured,
        related: (f.related ?? []).map(name),
        baselined: left > 0,
      };
    });
    let written: string | null = null;
    if (file) {
      // The runner's modes, read as toHaveScreenshot reads them: with no flag ('default') and with
      // --update-snapshots=missing a screen the baseline does not list is written, and with no
      // flag the test fails once; 'all' and 'changed' rewrite; 'none' writes nothing.
      const mode: string = inTest() ? test.info().config.updateSnapshots : 'none';
      const writesMissing = mode === 'missing' || mode === 'default';
      const hasEntries = (previous ?? []).some((e) => e.test === testTitle && e.screen === screen);
      if (
        mode === 'all' ||
        mode === 'changed' ||
        (writesMissing && !previous) ||
        (writesMissing && !hasEntries && findings.length > 0)
      ) {
        const changed =
          mode === 'all' || findings.some((f) => !f.baselined) || [...accepted.values()].some((n) => n > 0);
        if (changed || !previous) {
          writeBaseline(
            file,
            previous,
            testTitle,
            screen,
            findings.map((f) => ({ test: testTitle, screen, rule: f.rule, selector: f.selector })),
          );
          written = file;
        }
        // Without the flag the findings just written still fail the test, once: nothing is accepted silently.
        if (mode !== 'default') for (const f of findings) f.baselined = true;
      }
    }
    if (findings.length > 0 && inTest()) {
      png ??= await driver.screenshot(call, 0.5);
      img ??= png ? decode(png) : null;
      if (img) {
        const shot = `step-${rec.index}-accessibility.png`;
        await test.info().attach(shot, {
          body: outlineFindings(
            img,
            findings.map((f) => ({ bounds: f.node.bounds, severity: f.severity })),
            obs.screen.width,
          ),
          contentType: 'image/png',
        });
        rec.screenshots.after = shot;
      }
      await test.info().attach(`step-${rec.index}-accessibility.json`, {
        body: JSON.stringify(findings.map(plain), null, 2),
        contentType: 'application/json',
      });
    }
    return {
      findings,
      violations: findings.filter((f) => !f.baselined),
      rules,
      screen,
      snapshotId: obs.snapshot_id,
      baselineWritten: written,
    };
  });
}

function baselineFile(api: ApiName, given: true | string): string {
  if (given !== true && (typeof given !== 'string' || given === ''))
    throw new NestwrightError(api, 'options.baseline must be true or a file path relative to the spec', {
      code: 'INVALID_ARGUMENT',
    });
  if (!inTest())
    throw new NestwrightError(api, 'options.baseline needs a running test (it is a file beside the spec)', {
      code: 'USAGE',
    });
  return baselinePath(test.info().file, given);
}

/** A finding as JSON: the locator as its selector. */
export function plain(f: Finding) {
  return {
    rule: f.rule,
    severity: f.severity,
    selector: f.selector,
    message: f.message,
    measured: f.measured,
    related: f.related,
    baselined: f.baselined,
    bounds: f.node.bounds,
  };
}

function decode(png: Buffer): PNG | null {
  try {
    return pngjs().PNG.sync.read(png);
  } catch {
    return null;
  }
}

/** A selector naming `n` alone on this screen, else the first simple one with its index among the matches. */
function selectorOf(nodes: UiNode[], n: UiNode): string {
  const unique = uniqueSelectorFor(nodes, n, []);
  if (unique) return unique;
  const short = n.res_id?.split(':id/')[1];
  const base = short ? `id=${short}` : n.role ? `role=${n.role}` : `class=${n.class}`;
  const all = resolveSteps(nodes, parseSelector(base));
  const i = all.findIndex((m) => m.id === n.id);
  return formatSteps(parseSelector(i >= 0 ? `${base} >> nth=${i}` : base));
}

/** Observe until two looks in a row show the same screen (an animation has ended), within the action timeout. */
async function stableObservation(driver: InstancePort, call: ApiCall): Promise<Observation> {
  let last: Observation | null = null;
  const r = await poll(
    driver.timeout(undefined),
    async () => {
      const obs = await driver.observe(call, { detail: 'full' });
      const same =
        last &&
        !obs.tree_missing &&
        !last.tree_missing &&
        obs.screen_hash !== undefined &&
        obs.screen_hash === last.screen_hash;
      last = obs;
      return same ? { done: true, value: obs } : { done: false };
    },
    driver.clock,
  );
  if ('value' in r) return r.value as Observation;
  const seen = last as Observation | null;
  if (!seen || seen.tree_missing)
    throw new NestwrightError(call, 'the screen had no accessibility tree for the whole timeout; nothing to audit', {
      code: 'TIMEOUT',
    });
  return seen;
}

export { RULES };
