import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { proposalsDir, readProposals, type Proposal } from '../../../framework/heal/proposals.js';
import { AgentError } from '../errors.js';
import type { AgentState } from '../state.js';
import { defineAgentTool } from '../tool.js';

/**
 * Selector healing for agents: the proposals of the last run (what `npx nestwright heal` lists)
 * and applying them (what `npx nestwright heal --apply` does: a ts-morph edit of the locator
 * call's arguments, the fingerprint moved, the proposal withdrawn). A person reviews the diff.
 */
const ProposalOut = z.object({
  id: z.string(),
  spec: z.string().describe('Relative to the project root'),
  line: z.number().int(),
  test: z.string(),
  selector: z.string().describe('The locator that broke'),
  proposed: z.string().describe('The healed locator'),
  score: z.number(),
  margin: z.number(),
  by: z.enum(['score', 'model']),
  mode: z
    .enum(['suggest', 'auto'])
    .describe('suggest: the test failed with this proposal; auto: the step ran on it and showed an effect'),
  reasons: z.array(z.string()),
  screenshots: z
    .array(z.string())
    .describe(
      'PNG files, relative to the project root: the screen with the node outlined, before (and after) the action',
    ),
});

/** Where the project's proposals are: beside its Playwright config. */
function projectDir(state: AgentState): string {
  return state.project.config
    ? path.dirname(path.resolve(state.project.root, state.project.config))
    : state.project.root;
}

function load(state: AgentState): Proposal[] {
  const { proposals, errors } = readProposals(projectDir(state));
  if (errors.length && !proposals.length)
    throw new AgentError(
      'INTERNAL',
      `the proposal files do not parse:\n${errors.join('\n')}`,
      'Run the tests again to make new proposals.',
    );
  return proposals;
}

export function healTools(state: AgentState) {
  const list = defineAgentTool({
    name: 'heal_proposals',
    title: 'Healing proposals',
    description:
      'The healed-locator proposals of the last run: for each broken locator, the locator that finds its element on the new screen, with score, margin, spec file and line, and why. ' +
      "Runs with use.heal suggest (the default) or auto make them. screenshots: true adds each proposal's before-screenshot (node outlined) as an image block.",
    input: z.object({ screenshots: z.boolean().default(false) }).strict(),
    result: z.object({ proposals: z.array(ProposalOut) }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input) {
      const dir = projectDir(state);
      const rel = (f: string) => path.relative(state.project.root, path.join(proposalsDir(dir), f));
      const proposals = load(state);
      const images: Array<{ data: string; mimeType: 'image/png' }> = [];
      if (input.screenshots) {
        for (const p of proposals) {
          if (p.screenshots.before)
            images.push({
              data: (await readFile(path.join(proposalsDir(dir), p.screenshots.before))).toString('base64'),
              mimeType: 'image/png',
            });
        }
      }
      return {
        result: {
          proposals: proposals.map((p) => ({
            id: p.id,
            spec: path.relative(state.project.root, path.join(dir, p.spec)),
            line: p.line,
            test: p.test,
            selector: p.selector,
            proposed: p.proposed,
            score: p.score,
            margin: p.margin,
            by: p.by,
            mode: p.mode,
            reasons: p.reasons,
            screenshots: [p.screenshots.before, p.screenshots.after].filter((f): f is string => !!f).map(rel),
          })),
        },
        ...(images.length ? { images } : {}),
      };
    },
  });

  const apply = defineAgentTool({
    name: 'apply_heal',
    title: 'Apply healing proposals',
    description:
      "Rewrite the spec's locator call of each proposal (ids from heal_proposals) with the healed locator: an AST edit of the call's arguments (its method too when the locator is of another kind), nothing else in the file. " +
      'Returns each edit as before/after source text, for a person to review as a diff. A proposal that cannot be applied (the spec changed since the run, a chained locator) is listed in not_applied with why.',
    input: z.object({ ids: z.array(z.string().min(1).max(64)).min(1).max(100) }).strict(),
    result: z.object({
      applied: z.array(
        z.object({ id: z.string(), spec: z.string(), line: z.number().int(), before: z.string(), after: z.string() }),
      ),
      not_applied: z.array(z.object({ id: z.string(), reason: z.string() })),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run(input) {
      const dir = projectDir(state);
      const proposals = load(state);
      const unknown = input.ids.filter((id) => !proposals.some((p) => p.id === id));
      if (unknown.length) {
        throw new AgentError(
          'PROPOSAL_NOT_FOUND',
          `no proposal ${unknown.join(', ')}; the last run proposed: ${proposals.map((p) => p.id).join(', ') || 'nothing'}`,
          'Call heal_proposals for the current ids (a new run replaces them; an applied proposal is withdrawn).',
        );
      }
      // ts-morph only when a proposal is applied, not at the server's start.
      const { ApplyError, applyProposal, newProject } = await import('../../commands/heal-apply.js');
      const project = newProject();
      const applied = [];
      const not_applied = [];
      for (const id of [...new Set(input.ids)]) {
        const p = proposals.find((x) => x.id === id)!;
        try {
          const edit = applyProposal(project, dir, p);
          applied.push({
            id,
            spec: path.relative(state.project.root, path.join(dir, p.spec)),
            line: edit.line,
            before: edit.before,
            after: edit.after,
          });
        } catch (e) {
          if (!(e instanceof ApplyError)) throw e;
          not_applied.push({ id, reason: e.message });
        }
      }
      return { result: { applied, not_applied } };
    },
  });
  return [list, apply];
}
