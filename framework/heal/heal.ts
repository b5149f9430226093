import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import { nodeLine } from '../ai/screen.js';
import { describeNode } from '../core/errors.js';
import { parseSelector, resolveSteps, type Step } from '../core/selector.js';
import { belongedToAnother, candidateFingerprint, roleFamily, type Fingerprint } from './fingerprint.js';
import { scoreCandidate, wasNeighbor, type CandidateScore } from './score.js';
import { uniqueSelectorFor } from '../../device-runtime/protocol/best-selector.js';

/** Below this score no candidate is the target. */
export const THRESHOLD = 0.55;
/** The best candidate must beat the second by this much, or the choice is a coin toss. */
export const MARGIN = 0.1;
/** The best candidate must resemble the target by id, label, description or hint at least this much. */
export const IDENTITY = 0.5;
/**
 * A best candidate that resembles the target by identity only through related words ("Pay" →
 * "Transfer": see framework/heal/similarity.ts) must beat the runner-up by this much instead of
 * {@link MARGIN}: weak evidence needs a clear winner.
 */
export const RELATED_MARGIN = 0.2;
/** With a model: a best candidate below the threshold but at least this goes to the model too. */
export const MODEL_FLOOR = 0.45;

/** A node of the new screen, scored against the fingerprint. */
export interface RankedCandidate {
  /** Its id in the observation healed against. */
  node_id: string;
  /** Similarity to the fingerprint, in [0, 1]. */
  score: number;
  /** The node as one line of the compact observation (`button "Save" id=save [0,1,2,3]`). */
  line: string;
  /** Why it was passed over, when it was. */
  rejected?: string;
  /** Passed over only because it resembles the target by no id or label (eligible otherwise): a model may still consider it. */
  unlike?: true;
}

/** A new selector for the node the broken one meant (`healed`, by the scores or a model), or why there is none, with the ranked candidates either way. */
export type HealResult =
  | {
      status: 'healed';
      node_id: string;
      selector: string;
      score: number;
      margin: number;
      reasons: string[];
      candidates: RankedCandidate[];
      by: 'score' | 'model';
    }
  | { status: 'unhealed'; code: UnhealedCode; reason: string; candidates: RankedCandidate[] };

/** Why a locator was not healed: it still works, no tree, nothing close, too far, no clear winner, no unique selector, or the model said none. */
export type UnhealedCode =
  'NOT_BROKEN' | 'TREE_MISSING' | 'NO_CANDIDATE' | 'BELOW_THRESHOLD' | 'NO_MARGIN' | 'NOT_UNIQUE' | 'MODEL_DECLINED';

/** What a model is asked when scores are close (see {@link HealArbiter}). */
export interface ArbitrationRequest {
  selector: string;
  fingerprint: Fingerprint;
  /** The top candidates (at most 8), best first, each with its line of the compact observation. */
  candidates: Array<RankedCandidate & { screen_line: string }>;
  package: string | null;
  activity: string | null;
}
/** A model's answer: the candidate it picks, or none with why. */
export type ArbitrationChoice = { node_id: string; reason?: string } | { none: true; reason: string };

/**
 * A model that picks among close candidates, or says none. It only chooses: its pick must
 * still be one of the candidates and must still name one node with a unique selector (and, in
 * the framework, pass the post-action check). Implemented over the AI-steps adapter.
 */
export interface HealArbiter {
  /** Pick one of `request.candidates`, or none. */
  choose(request: ArbitrationRequest): Promise<ArbitrationChoice>;
}

/** What {@link heal} needs: the broken selector, what its node was, and the screen now. */
export interface HealInput {
  /** The broken locator, as a selector string (`id=title`) or the framework's steps. */
  selector: string | Step[];
  fingerprint: Fingerprint;
  observation: Observation;
}

/** A node a user could be acting on in place of the target: visible, enabled, of a compatible kind. */
function eligible(want: Fingerprint, n: UiNode, screen: Observation['screen']): string | null {
  const [l, t, r, b] = n.bounds;
  if (r <= l || b <= t || r <= 0 || b <= 0 || l >= screen.width || t >= screen.height) return 'not on screen';
  if (!n.enabled) return 'disabled';
  if (want.editable !== n.editable) return want.editable ? 'not editable' : 'editable';
  if (want.clickable && !n.clickable) return 'not clickable';
  if (want.checkable && !n.checkable) return 'not checkable';
  if (n.role !== want.role && roleFamily(n.role) !== roleFamily(want.role))
    return `role ${n.role} is not a ${want.role}`;
  if (wasNeighbor(want, n.text || n.desc)) return 'it was beside the target when the fingerprint was taken';
  return null;
}

const top = (ranked: Array<RankedCandidate & { s?: CandidateScore; node: UiNode }>): RankedCandidate[] =>
  ranked.slice(0, 8).map(({ s: _s, node: _n, ...c }) => c);

/**
 * Find the node a broken locator meant, on a new screen. Deterministic: the same input gives the
 * same answer. A candidate that still carries an id, or a label (with its row), that belonged to
 * another node of the recorded screen is never taken: it is that other control, still there (see
 * `belongedToAnother`). It heals only when the best candidate scores at least {@link THRESHOLD}, resembles
 * the target by identity ({@link IDENTITY}), beats the runner-up by {@link MARGIN}, and can be
 * named alone by a selector; otherwise it declines, with the ranked candidates. When the locator
 * still matches several nodes, the candidates are those nodes.
 *
 * With `model`, a close call goes to the model: no margin between the best two, a best candidate
 * below the threshold, or candidates that resemble the target only in kind, place and
 * surroundings — when any scores at least {@link MODEL_FLOOR}. It is offered those (at most 8,
 * see `offerable`) and picks one or none; its pick must still be one of those and be named
 * alone by a selector. The model's own errors (API, budget, malformed output) reject the promise.
 */
export function heal(input: HealInput): HealResult;
export function heal(input: HealInput & { model: HealArbiter }): Promise<HealResult>;
export function heal(input: HealInput & { model?: HealArbiter }): HealResult | Promise<HealResult> {
  const result = rank(input);
  if (!input.model) return result;
  if (
    result.status !== 'unhealed' ||
    !['NO_MARGIN', 'BELOW_THRESHOLD', 'NO_CANDIDATE'].includes(result.code) ||
    !offerable(result.candidates).length
  )
    return Promise.resolve(result);
  return arbitrate(input, input.model, result.candidates);
}

function rank(input: HealInput): HealResult {
  const { fingerprint: want, observation: obs } = input;
  const steps = typeof input.selector === 'string' ? parseSelector(input.selector, 'heal') : input.selector;
  if (obs.tree_missing)
    return {
      status: 'unhealed',
      code: 'TREE_MISSING',
      reason: 'the observation has no accessibility tree (a transition); observe again',
      candidates: [],
    };
  const matches = resolveSteps(obs.nodes, steps);
  if (matches.length === 1)
    return {
      status: 'unhealed',
      code: 'NOT_BROKEN',
      reason: 'the locator still names exactly one node: nothing to heal',
      candidates: [],
    };
  const pool = matches.length > 1 ? matches : obs.nodes;
  const idCount = new Map<string, number>();
  for (const n of obs.nodes) if (n.res_id) idCount.set(n.res_id, (idCount.get(n.res_id) ?? 0) + 1);
  const ranked: Array<RankedCandidate & { s?: CandidateScore; node: UiNode }> = pool.map((node) => {
    const why = eligible(want, node, obs.screen);
    if (why) return { node_id: node.id, score: 0, line: describeNode(node), rejected: why, node };
    const got = candidateFingerprint(obs, node.id);
    const another = belongedToAnother(want, got);
    if (another) return { node_id: node.id, score: 0, line: describeNode(node), rejected: another, node };
    const s = scoreCandidate(want, got, { repeatedId: !!node.res_id && (idCount.get(node.res_id) ?? 0) > 1 });
    if (s.contradiction)
      return { node_id: node.id, score: s.score, line: describeNode(node), rejected: s.contradiction, node };
    return {
      node_id: node.id,
      score: s.score,
      line: describeNode(node),
      s,
      node,
      ...(s.identity < IDENTITY
        ? {
            rejected: `resembles the target by neither id, label, description nor hint (best ${s.identity.toFixed(2)})`,
            unlike: true as const,
          }
        : {}),
    };
  });
  ranked.sort((a, b) => Number(!!a.rejected) - Number(!!b.rejected) || b.score - a.score);
  const candidates = top(ranked);
  const [best, second] = ranked.filter((c) => !c.rejected);
  if (!best)
    return {
      status: 'unhealed',
      code: 'NO_CANDIDATE',
      reason: 'no visible, enabled node of a compatible kind resembles the target',
      candidates,
    };
  if (best.score < THRESHOLD)
    return {
      status: 'unhealed',
      code: 'BELOW_THRESHOLD',
      reason: `the best candidate scores ${best.score.toFixed(2)}, below ${THRESHOLD}`,
      candidates,
    };
  const margin = Math.round((best.score - (second?.score ?? 0)) * 1000) / 1000;
  const relatedOnly = best.s!.directIdentity < IDENTITY;
  const needed = relatedOnly ? RELATED_MARGIN : MARGIN;
  if (margin < needed) {
    const why = relatedOnly
      ? ' (the best resembles the target only through a related word, so it must win clearly)'
      : '';
    return {
      status: 'unhealed',
      code: 'NO_MARGIN',
      reason: `the best two candidates score ${best.score.toFixed(2)} and ${second!.score.toFixed(2)}: a margin of ${margin.toFixed(2)}, below ${needed}${why}`,
      candidates,
    };
  }
  return named(obs, steps, best.node, best.score, margin, best.s!, candidates, 'score');
}

function named(
  obs: Observation,
  steps: Step[],
  node: UiNode,
  score: number,
  margin: number,
  s: CandidateScore,
  candidates: RankedCandidate[],
  by: 'score' | 'model',
): HealResult {
  const selector = uniqueSelectorFor(obs.nodes, node, steps);
  if (!selector)
    return {
      status: 'unhealed',
      code: 'NOT_UNIQUE',
      reason: `no selector names ${describeNode(node)} alone on this screen`,
      candidates,
    };
  const reasons = [...s.features]
    .sort((a, b) => b.weight * b.similarity - a.weight * a.similarity)
    .map(
      (f) =>
        `${f.detail}: ${f.similarity.toFixed(2)} × ${f.weight}${f.direct !== undefined ? ` (related words; ${f.direct.toFixed(2)} without)` : ''}`,
    );
  return { status: 'healed', node_id: node.id, selector, score, margin, reasons, candidates, by };
}

/**
 * What a model may be offered: eligible candidates (visible, enabled, of a compatible kind, not a
 * recorded neighbour, not another control of the recorded screen) scoring at least {@link MODEL_FLOOR} — including those passed over only for
 * resembling the target by no id or label, since a model can tell a synonym ("Send money" /
 * "Transfer now") that string similarity cannot. At most 8, best first.
 */
function offerable(candidates: RankedCandidate[]): RankedCandidate[] {
  return candidates.filter((c) => (!c.rejected || c.unlike) && c.score >= MODEL_FLOOR).slice(0, 8);
}

async function arbitrate(input: HealInput, model: HealArbiter, candidates: RankedCandidate[]): Promise<HealResult> {
  const steps = typeof input.selector === 'string' ? parseSelector(input.selector, 'heal') : input.selector;
  const byId = new Map(input.observation.nodes.map((n) => [n.id, n]));
  const offered = offerable(candidates).map((c) => ({ ...c, screen_line: nodeLine(byId.get(c.node_id)!) }));
  const choice = await model.choose({
    selector: typeof input.selector === 'string' ? input.selector : JSON.stringify(input.selector),
    fingerprint: input.fingerprint,
    candidates: offered,
    package: input.observation.package,
    activity: input.observation.activity,
  });
  if ('none' in choice)
    return { status: 'unhealed', code: 'MODEL_DECLINED', reason: `the model chose none: ${choice.reason}`, candidates };
  if (typeof choice.node_id !== 'string')
    return {
      status: 'unhealed',
      code: 'MODEL_DECLINED',
      reason: `the model's answer ${JSON.stringify(choice)} names no node`,
      candidates,
    };
  const picked = offered.find((c) => c.node_id === choice.node_id);
  const node = input.observation.nodes.find((n) => n.id === choice.node_id);
  if (!picked || !node)
    return {
      status: 'unhealed',
      code: 'MODEL_DECLINED',
      reason: `the model chose ${JSON.stringify(choice.node_id)}, which is not one of the ${offered.length} candidates offered`,
      candidates,
    };
  const others = offered.filter((c) => c !== picked);
  const margin = Math.round((picked.score - Math.max(0, ...others.map((c) => c.score))) * 1000) / 1000;
  const repeatedId = !!node.res_id && input.observation.nodes.filter((n) => n.res_id === node.res_id).length > 1;
  const r = named(
    input.observation,
    steps,
    node,
    picked.score,
    margin,
    scoreCandidate(input.fingerprint, candidateFingerprint(input.observation, node.id), { repeatedId }),
    candidates,
    'model',
  );
  if (r.status === 'healed' && choice.reason) r.reasons.unshift(`the model: ${choice.reason}`);
  return r;
}
