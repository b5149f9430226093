import { relative } from 'node:path';
import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import { CallSite, type Site } from '../core/call-site.js';
import type { ApiCall } from '../core/api-call.js';
import { NestwrightError, StrictModeViolationError, TimeoutError } from '../core/errors.js';
import { resolveSteps } from '../core/selector.js';
import { AiError } from '../ai/errors.js';
import type { HealableLocator, HealedTarget, LocatorHealing } from '../core/port.js';
import type { HealArbitration } from '../core/trajectory.js';
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

export { CallSite, userSite } from '../core/call-site.js';
export type { HealableLocator, HealedTarget, LocatorHealing } from '../core/port.js';

/** Add the heal's verdict to the action's error, keeping its class and its call log. */
function addTo(error: Error, text: string): Error {
  const old = error.message;
  error.message = `${old}\n\n${text}`;
  if (error.stack) error.stack = error.stack.replace(old, error.message);
  return error;
}

function formatCandidates(r: HealResult): string {
  if (r.candidates.length === 0) return '    (no candidates)';
  return r.candidates
    .map((c, i) => `    ${i + 1}) ${c.score.toFixed(2)} ${c.line}${c.rejected ? ` — passed over: ${c.rejected}` : ''}`)
    .join('\n');
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

  resolved(_call: ApiCall, locator: HealableLocator, node: UiNode, obs: Observation): void {
    if (this.mode === 'off') return;
    // Captured here, after the resolution's awaits: the spec's frame is then an async one, at its
    // `await` (the column the store keys by), not at the call (`call.at`, which `missed` uses).
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
          this.warnings.push(
            `${relative(this.projectDir, site.file)}:${site.line} ${p.selector} still matches, but its node changed a lot (similarity ${s.score.toFixed(2)} to the one remembered): check that it is still the right node`,
          );
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
    for (const p of this.healed)
      info?.annotations.push({
        type: 'healed',
        description: `${p.spec}:${p.line} ${p.selector} → ${p.proposed} (proposal ${p.id})`,
      });
    for (const w of this.warnings) info?.annotations.push({ type: 'heal-drift', description: w });
    for (const a of this.arbitrations) info?.annotations.push({ type: 'heal-model', description: a });
  }

  private remembered(site: Site | null, selector: string): FingerprintEntry | null {
    for (const p of [...this.pending].reverse()) {
      const s = p.at.user();
      if (p.selector === selector && s && site && s.file === site.file && s.line === site.line)
        return { selector, line: s.line, column: s.column, fingerprint: fingerprintOf(p.obs, p.node) };
    }
    return site ? findFingerprint(this.store.get(site.file), selector, site.line, site.column) : null;
  }

  async missed({
    call,
    locator,
    error,
  }: {
    call: ApiCall;
    locator: HealableLocator;
    error: unknown;
  }): Promise<HealedTarget> {
    if (this.mode === 'off' || !(error instanceof TimeoutError || error instanceof StrictModeViolationError))
      throw error;
    const selector = locator.toString();
    // The last observation of the wait is the screen to heal on; when there is none (or it caught
    // a transition), one fresh observation: the one extra a heal may cost.
    const obs =
      error instanceof TimeoutError && error.observation && !error.observation.tree_missing
        ? error.observation
        : await locator.driver.observe(call);
    // A node that matches but never became actionable (disabled, moving) is not a broken locator.
    if (error instanceof TimeoutError && resolveSteps(obs.nodes, locator.steps).length === 1) throw error;
    const site = (call.at ?? CallSite.capture()).user();
    const entry = this.remembered(site, selector);
    const where = site ? `${relative(this.projectDir, site.file)}:${site.line}` : 'this step';
    if (!entry) {
      // Noise for a locator that never resolved (a typo, a new step): said only where healing is
      // in use — asked for (auto), or with fingerprints of this spec that this one lacks.
      const inUse = this.mode === 'auto' || (site && Object.keys(this.store.get(site.file).entries).length > 0);
      if (!inUse) throw error;
      throw addTo(
        error,
        `heal: no fingerprint of ${selector} at ${where} (one is recorded when the locator resolves in a run with heal on); nothing to heal from.`,
      );
    }
    const input = { selector: locator.steps, fingerprint: entry.fingerprint, observation: obs };
    let arbitration: HealArbitration | undefined;
    let result: HealResult;
    try {
      const model =
        typeof this.model === 'string' ? testArbiter(this.model, call, (a) => (arbitration = a)) : this.model;
      result = model ? await heal({ ...input, model }) : heal(input);
    } catch (e) {
      if (!(e instanceof AiError)) throw e;
      throw addTo(error, `heal: the model could not arbitrate, so nothing was healed: ${e.message}`);
    }
    if (arbitration)
      this.arbitrations.push(
        `${selector} at ${where}: ${arbitration.model} chose ${arbitration.choice} of ${arbitration.offered.length} (${arbitration.reason}); ${arbitration.tokens} tokens, $${arbitration.costUsd.toFixed(4)}`,
      );
    if (result.status === 'unhealed')
      throw addTo(
        error,
        `heal: not healed (${result.code}): ${result.reason}.\n  Candidates, best first:\n${formatCandidates(result)}`,
      );
    const rejected = this.store
      .get(site!.file)
      .rejected.some((r) => r.selector === selector && r.proposed === result.selector && r.line === entry.line);
    if (rejected)
      throw addTo(
        error,
        `heal: ${selector} → ${result.selector} was proposed before and rejected; it is not proposed again.`,
      );
    const node = obs.nodes.find((n) => n.id === result.node_id)!;
    const shot = await locator.driver.screenshot(call).catch(() => null);
    const spec = relative(this.projectDir, site!.file);
    const id = proposalId(spec, site!.line, selector, result.selector);
    const proposal = writeProposal(this.projectDir, {
      id,
      spec,
      line: site!.line,
      column: site!.column,
      test: this.testTitle,
      selector,
      proposed: result.selector,
      score: result.score,
      margin: result.margin,
      by: result.by,
      reasons: result.reasons,
      mode: this.mode,
      screenshots: {},
      createdAt: new Date().toISOString(),
    });
    // The node outlined on the screenshot is drawn after the test: decoding and encoding a
    // full-screen PNG is CPU work the action must not wait for.
    this.proposals.set(id, proposal);
    if (shot) this.outlines.push({ id, shot, bounds: node.bounds, width: obs.screen.width });
    const summary = `${selector} → ${result.selector} (score ${result.score.toFixed(2)}, margin ${result.margin.toFixed(2)}${result.by === 'model' ? ', chosen by the model' : ''})`;
    if (this.mode === 'suggest') {
      throw addTo(
        error,
        `heal: proposal ${id}: ${summary} at ${where}.\n  The test fails in 'suggest' mode. Review with \`npx nestwright heal\`; accept with \`npx nestwright heal --apply ${id}\`.\n  Why:\n${result.reasons.map((r) => `    - ${r}`).join('\n')}`,
      );
    }
    const record = call.step;
    if (record) {
      record.source = 'healed';
      record.heal = {
        from: selector,
        to: result.selector,
        score: result.score,
        margin: result.margin,
        proposal: id,
        by: result.by,
        ...(arbitration ? { arbitration } : {}),
      };
    }
    return {
      node,
      obs,
      verify: async (after) => {
        if (!after.effect) {
          withdrawProposal(this.projectDir, id);
          this.proposals.delete(id);
          throw new NestwrightError(
            call,
            `healed ${summary}, but the action on it showed no effect on screen: not the right node, heal withdrawn.\n  Candidates, best first:\n${formatCandidates(result)}`,
            // The locator still finds no node that works: the test's, as the miss healing began from.
            { code: 'NODE_NOT_FOUND' },
          );
        }
        const png = await locator.driver.screenshot(call).catch(() => null);
        const written = writeProposal(this.projectDir, proposal, { after: png });
        this.proposals.set(id, written);
        this.healed.push(written);
      },
    };
  }
}
