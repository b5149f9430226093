import { test } from '@playwright/test';
import { createRequire } from 'node:module';
import type { PNG } from 'pngjs';
import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { AppDriver } from '../driver.js';
import { NestwrightError, type ApiName } from '../errors.js';
import { uniqueSelectorFor } from '../../device-runtime/protocol/best-selector.js';
import { Locator } from '../locator.js';
import { poll } from '../poll.js';
import { formatSteps, parseSelector, resolveSteps } from '../selector.js';
import { inTest } from '../step-recorder.js';
import { auditScreen, checkSeverity, needsPixels, selectRules, subtree, type RuleSelection } from './audit-screen.js';
import { baselinePath, entryKey, readBaseline, writeBaseline } from './baseline.js';
import { outlineFindings } from './outline.js';
import { RULES, type Measured, type RuleName, type Severity } from './rules.js';

/** pngjs, loaded on first use rather than with the framework. */
let pngjsModule: typeof import('pngjs') | undefined;
const pngjs = (): typeof import('pngjs') =>
  (pngjsModule ??= createRequire(import.meta.url)('pngjs') as typeof import('pngjs'));

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

/** A density when the runtime does not report one: Android's most common (xxhdpi-ish), as the simulator's. */
const DEFAULT_DENSITY = 420;

/**
 * Audit the screen of one app instance (or one locator's subtree): one stable observation with
 * every node, a screenshot when a contrast rule runs or a finding is to be outlined, then the
 * checks, as one trajectory step whose after-picture frames the findings.
 */
export async function accessibilityAudit(
  call: ApiCall,
  driver: AppDriver,
  scope: Locator | null,
  opts: AccessibilityAuditOptions = {},
): Promise<AccessibilityAuditResult> {
  const rules = selectRules(call, opts.rules);
  const minimumSeverity = checkSeverity(call, opts.minimumSeverity);
  if (
    opts.exclude !== undefined &&
    (!Array.isArray(opts.exclude) || opts.exclude.some((l) => !(l instanceof Locator)))
  ) {
    throw new NestwrightError(call, 'options.exclude must be an array of locators (app.getBy…())', {
      code: 'INVALID_ARGUMENT',
    });
  }
  const file = opts.baseline !== undefined ? baselineFile(call, opts.baseline) : null;
  // Read before anything runs: a malformed baseline fails at once and is never written over.
  const previous = file ? readBaseline(call, file) : null;
  const title = `Accessibility audit${scope ? ` of ${scope}` : ''}`;
  return driver.steps.step(
    call,
    { kind: 'assertion', title, selector: scope ? scope.toString() : null },
    async (rec) => {
      const obs = await stableObservation(driver, call);
      rec.before = obs.snapshot_id;
      rec.after = obs.snapshot_id;
      const info = await driver.calls.client.info().catch(() => null);
      const density = info?.device.screen.density || DEFAULT_DENSITY;
      let png: Buffer | null = needsPixels(rules) ? await driver.screenshots.take(call, 0.5) : null;
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
        if (e.test === testTitle && e.screen === screen)
          accepted.set(entryKey(e), (accepted.get(entryKey(e)) ?? 0) + 1);
      const findings: AccessibilityFinding[] = raw.map((f) => {
        const selector = name(f.node);
        const key = entryKey({ test: testTitle, screen, rule: f.rule, selector });
        const left = accepted.get(key) ?? 0;
        if (left > 0) accepted.set(key, left - 1);
        return {
          rule: f.rule,
          severity: f.severity,
          message: f.message,
          selector,
          locator: new Locator(driver, parseSelector(selector, call.api)),
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
        png ??= await driver.screenshots.take(call, 0.5);
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
    },
  );
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
export function plain(f: AccessibilityFinding) {
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
async function stableObservation(driver: AppDriver, call: ApiCall): Promise<Observation> {
  let last: Observation | null = null;
  const r = await poll(
    driver.timeout(undefined),
    async () => {
      const obs = await driver.watch.observe(call, { detail: 'full' });
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
