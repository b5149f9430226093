import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import type { AppDriver } from '../driver.js';
import { NestwrightError, StrictModeViolationError, TimeoutError } from '../errors.js';
import { resolveSteps, type Step } from '../selector.js';
import { AiError } from '../ai/errors.js';
import type { HealArbitration, TrajectoryStep } from '../trajectory.js';
import { fingerprintOf } from './fingerprint.js';
import { findFingerprint, type FingerprintEntry, type FingerprintStore } from './fingerprint-store.js';
import { heal, type HealArbiter, type HealResult } from './heal.js';
import { outlinePng } from './outline.js';
import { proposalId, withdrawProposal, writeProposal, type Proposal } from './proposals.js';
import { scoreCandidate } from './score.js';
import { testArbiter } from './test-arbiter.js';

export type HealMode = 'off' | 'suggest' | 'auto';
/**
 * `use.heal`: a mode, or the mode with a model that arbitrates close calls — a model id, asked
 * through the AI steps' adapter with use.ai's key, base URL and budgets, or a {@link HealArbiter}.
 */
export type HealOption = HealMode | { mode?: HealMode; model?: string | HealArbiter };

/** What a locator is to healing (the Locator class, without importing it). */
export interface HealableLocator {
  readonly driver: AppDriver;
  readonly steps: Step[];
  toString(): string;
}

/** A node healing found for an action, to act on in that snapshot; `verify` is the post-action check. */
export interface HealedTarget {
  node: UiNode;
  obs: Observation;
  verify(after: { obs: Observation; effect: boolean }): Promise<void>;
}

/**
 * The two places the locator engine calls healing: `resolved` on every successful resolution
 * (O(1): it keeps a reference, fingerprints are computed after the test), and `missed` when an
 * action's locator matched nothing (or several) and would fail — it returns the healed target,
 * or throws the action's error with the heal's verdict added.
 */
export interface LocatorHealing {
  resolved(locator: HealableLocator, node: UiNode, obs: Observation): void;
  /** `at`: the action's call site, captured before its first await (else taken here). */
  missed(m: { api: string; locator: HealableLocator; error: unknown; record: TrajectoryStep; at?: CallSite }): Promise<HealedTarget>;
}

const FRAMEWORK_DIR = dirname(dirname(fileURLToPath(import.meta.url))) + sep;

interface Site {
  file: string;
  line: number;
  column: number;
}

/** The first stack frame in user code (not nestwright's framework, not node_modules, not node:) of a formatted stack. */
export function userSite(stack: string | undefined): Site | null {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const m = /(?:\(|at )((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (!inUserCode(file)) continue;
    return { file, line: Number(m[2]), column: Number(m[3]) };
  }
  return null;
}

const inUserCode = (file: string) => !file.startsWith(FRAMEWORK_DIR) && !file.includes(`${sep}node_modules${sep}`);

type FormatStack = (error: Error, frames: NodeJS.CallSite[]) => unknown;

/**
 * Where a locator call was made: V8's frames (async ones included), kept unformatted. Formatting
 * a whole stack runs every frame through the source maps of Playwright's transpiled specs (its
 * `Error.prepareStackTrace`), ~40 frames for each action of a test; `user()` finds the user's
 * frame by file name and formats that one frame alone, through the same formatter, so its line
 * and column are the spec's.
 */
export class CallSite {
  private constructor(
    private readonly frames: NodeJS.CallSite[],
    private readonly format: FormatStack | undefined,
  ) {}

  static capture(): CallSite {
    const format = Error.prepareStackTrace as FormatStack | undefined;
    const limit = Error.stackTraceLimit;
    const holder: { stack?: unknown } = {};
    let frames: unknown;
    Error.prepareStackTrace = (_e, callSites) => callSites;
    Error.stackTraceLimit = 40;
    try {
      Error.captureStackTrace(holder, CallSite.capture);
      frames = holder.stack; // read here: V8 formats on first read, with the formatter installed then
    } finally {
      Error.prepareStackTrace = format as typeof Error.prepareStackTrace;
      Error.stackTraceLimit = limit;
    }
    return new CallSite(Array.isArray(frames) ? (frames as NodeJS.CallSite[]) : [], format);
  }

  /** The first frame in user code, with the spec's line and column; null when there is none. */
  user(): Site | null {
    for (const frame of this.frames) {
      const name = frame.getFileName();
      if (!name || name.startsWith('node:')) continue;
      const file = name.startsWith('file://') ? fileURLToPath(name) : name;
      if (!inUserCode(file)) continue;
      const site = userSite(this.format ? String(this.format(new Error(), [frame])) : `Error\n    at ${frame.toString()}`);
      if (site) return site;
    }
    return null;
  }
}

/** Add the heal's verdict to the action's error, keeping its class and its call log. */
function addTo(error: Error, text: string): Error {
  const old = error.message;
  error.message = `${old}\n\n${text}`;
  if (error.stack) error.stack = error.stack.replace(old, error.message);
  return error;
}

function formatCandidates(r: HealResult): string {
  if (r.candidates.length === 0) return '    (no candidates)';
  return r.candidates.map((c, i) => `    ${i + 1}) ${c.score.toFixed(2)} ${c.line}${c.rejected ? ` — passed over: ${c.rejected}` : ''}`).join('\n');
}

/** One test's healing: its mode, the resolutions it saw, the proposals it made. */
export class Healer implements LocatorHealing {
  private pending: Array<{ selector: string; node: string; obs: Observation; at: CallSite }> = [];
  readonly healed: Proposal[] = [];
  readonly warnings: string[] = [];
  /** Every time a model was asked: what it chose and what it cost (the `heal-model` annotations). */
  readonly arbitrations: string[] = [];
  /** Proposals of this test as last written, and the before-screenshots still to outline. */
  private readonly proposals = new Map<string, Proposal>();
  private outlines: Array<{ id: string; shot: Buffer; bounds: UiNode['bounds']; width: number }> = [];

  constructor(
    readonly mode: HealMode,
    private readonly store: FingerprintStore,
    private readonly projectDir: string,
    private readonly testTitle: string,
    private readonly model: string | HealArbiter | null = null,
  ) {}

  resolved(locator: HealableLocator, node: UiNode, obs: Observation): void {
    if (this.mode === 'off') return;
    this.pending.push({ selector: locator.toString(), node: node.id, obs, at: CallSite.capture() });
  }

  /**
   * After the test (off the action path): fingerprint what resolved, warn when a locator still
   * matches but its node drifted a lot from the remembered one, and hand the entries to the store
   * (written in a batch when the worker ends). Healed steps and drift warnings become the test's
   * annotations (`healed`, `heal-drift`), which reports show on the test.
   */
  finish(info?: { annotations: Array<{ type: string; description?: string }> }): void {
    const seen = new Set<string>();
    for (const p of this.pending.reverse()) {
      const site = p.at.user();
      if (!site) continue;
      const key = `${site.file}:${site.line}:${site.column} ${p.selector}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const fingerprint = fingerprintOf(p.obs, p.node);
      const old = this.store.get(site.file).entries[`${site.line}:${site.column} ${p.selector}`];
      if (old) {
        const s = scoreCandidate(old.fingerprint, fingerprint);
        if (s.score < 0.6) {
          this.warnings.push(`${relative(this.projectDir, site.file)}:${site.line} ${p.selector} still matches, but its node changed a lot (similarity ${s.score.toFixed(2)} to the one remembered): check that it is still the right node`);
        }
      }
      this.store.put(site.file, { selector: p.selector, line: site.line, column: site.column, fingerprint });
    }
    this.pending = [];
    for (const o of this.outlines) {
      const p = this.proposals.get(o.id);
      if (!p) continue; // withdrawn
      const written = writeProposal(this.projectDir, p, { before: outlinePng(o.shot, o.bounds, o.width) });
      this.proposals.set(o.id, written);
      const i = this.healed.findIndex((h) => h.id === o.id);
      if (i >= 0) this.healed[i] = written;
    }
    this.outlines = [];
    for (const p of this.healed) info?.annotations.push({ type: 'healed', description: `${p.spec}:${p.line} ${p.selector} → ${p.proposed} (proposal ${p.id})` });
    for (const w of this.warnings) info?.annotations.push({ type: 'heal-drift', description: w });
    for (const a of this.arbitrations) info?.annotations.push({ type: 'heal-model', description: a });
  }

  private remembered(site: Site | null, selector: string): FingerprintEntry | null {
    for (const p of [...this.pending].reverse()) {
      const s = p.at.user();
      if (p.selector === selector && s && site && s.file === site.file && s.line === site.line) return { selector, line: s.line, column: s.column, fingerprint: fingerprintOf(p.obs, p.node) };
    }
    return site ? findFingerprint(this.store.get(site.file), selector, site.line, site.column) : null;
  }

  async missed({ api, locator, error, record, at }: { api: string; locator: HealableLocator; error: unknown; record: TrajectoryStep; at?: CallSite }): Promise<HealedTarget> {
    if (this.mode === 'off' || !(error instanceof TimeoutError || error instanceof StrictModeViolationError)) throw error;
    const selector = locator.toString();
    // The last observation of the wait is the screen to heal on; when there is none (or it caught
    // a transition), one fresh observation: the one extra a heal may cost.
    const obs = error instanceof TimeoutError && error.observation && !error.observation.tree_missing ? error.observation : await locator.driver.watch.observe(api);
    // A node that matches but never became actionable (disabled, moving) is not a broken locator.
    if (error instanceof TimeoutError && resolveSteps(obs.nodes, locator.steps).length === 1) throw error;
    const site = (at ?? CallSite.capture()).user();
    const entry = this.remembered(site, selector);
    const where = site ? `${relative(this.projectDir, site.file)}:${site.line}` : 'this step';
    if (!entry) throw addTo(error, `heal: no fingerprint of ${selector} at ${where} (one is recorded when the locator resolves in a run with heal on); nothing to heal from.`);
    const input = { selector: locator.steps, fingerprint: entry.fingerprint, observation: obs };
    let arbitration: HealArbitration | undefined;
    let result: HealResult;
    try {
      const model = typeof this.model === 'string' ? testArbiter(this.model, api, (a) => (arbitration = a)) : this.model;
      result = model ? await heal({ ...input, model }) : heal(input);
    } catch (e) {
      if (!(e instanceof AiError)) throw e;
      throw addTo(error, `heal: the model could not arbitrate, so nothing was healed: ${e.message}`);
    }
    if (arbitration) this.arbitrations.push(`${selector} at ${where}: ${arbitration.model} chose ${arbitration.choice} of ${arbitration.offered.length} (${arbitration.reason}); ${arbitration.tokens} tokens, $${arbitration.costUsd.toFixed(4)}`);
    if (result.status === 'unhealed') throw addTo(error, `heal: not healed (${result.code}): ${result.reason}.\n  Candidates, best first:\n${formatCandidates(result)}`);
    const rejected = this.store.get(site!.file).rejected.some((r) => r.selector === selector && r.proposed === result.selector && r.line === entry.line);
    if (rejected) throw addTo(error, `heal: ${selector} → ${result.selector} was proposed before and rejected; it is not proposed again.`);
    const node = obs.nodes.find((n) => n.id === result.node_id)!;
    const shot = await locator.driver.screenshots.take(api).catch(() => null);
    const spec = relative(this.projectDir, site!.file);
    const id = proposalId(spec, site!.line, selector, result.selector);
    const proposal = writeProposal(this.projectDir, { id, spec, line: site!.line, column: site!.column, test: this.testTitle, selector, proposed: result.selector, score: result.score, margin: result.margin, by: result.by, reasons: result.reasons, mode: this.mode, screenshots: {}, createdAt: new Date().toISOString() });
    // The node outlined on the screenshot is drawn after the test: decoding and encoding a
    // full-screen PNG is CPU work the action must not wait for.
    this.proposals.set(id, proposal);
    if (shot) this.outlines.push({ id, shot, bounds: node.bounds, width: obs.screen.width });
    const summary = `${selector} → ${result.selector} (score ${result.score.toFixed(2)}, margin ${result.margin.toFixed(2)}${result.by === 'model' ? ', chosen by the model' : ''})`;
    if (this.mode === 'suggest') {
      throw addTo(error, `heal: proposal ${id}: ${summary} at ${where}.\n  The test fails in 'suggest' mode. Review with \`npx nestwright heal\`; accept with \`npx nestwright heal --apply ${id}\`.\n  Why:\n${result.reasons.map((r) => `    - ${r}`).join('\n')}`);
    }
    record.source = 'healed';
    record.heal = { from: selector, to: result.selector, score: result.score, margin: result.margin, proposal: id, by: result.by, ...(arbitration ? { arbitration } : {}) };
    return {
      node,
      obs,
      verify: async (after) => {
        if (!after.effect) {
          withdrawProposal(this.projectDir, id);
          this.proposals.delete(id);
          throw new NestwrightError(api, `healed ${summary}, but the action on it showed no effect on screen: not the right node, heal withdrawn.\n  Candidates, best first:\n${formatCandidates(result)}`);
        }
        const png = await locator.driver.screenshots.take(api).catch(() => null);
        const written = writeProposal(this.projectDir, proposal, { after: png });
        this.proposals.set(id, written);
        this.healed.push(written);
      },
    };
  }
}
