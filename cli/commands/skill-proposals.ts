/**
 * `nestwright skill proposals [--dir D] [--json] [--apply [id…]] [--reject id…]`
 *
 * The rewrites proposed by skills' AI fallbacks (a step whose target was gone, done by the agent,
 * its post-checks passing; framework/skills/fallback.ts): lists them (the step as the file has
 * it, the steps that would replace it); `--apply` writes them into the skill files, keeping the
 * files' comments and layout (the `yaml` library's document API), for review in the diff;
 * `--reject` drops them. Exit code: 0 done, 1 something could not be applied or found, 2 usage.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { isSeq, parseDocument, stringify } from 'yaml';
import {
  readSkillProposals,
  removeSkillProposal,
  skillProposalsDir,
  type SkillProposal,
} from '../../framework/skills/proposals.js';
import { stdio, type Io } from './io.js';
import { parseReviewArgs } from './review-args.js';

const USAGE = `Usage: nestwright skill proposals [--dir DIR] [--json] [--apply [ID...]] [--reject ID...]

  (no option)   list the rewrites proposed by skills' AI fallbacks in past runs
  --apply       write them into the skill files: every proposal, or the IDs given
  --reject      drop proposals
  --dir         the project directory, where playwright.config.ts is (default: the current one)
  --json        print the proposals as JSON
`;

export async function proposalsCommand(argv: string[], io: Io = stdio): Promise<number> {
  const args = parseReviewArgs('skill proposals', USAGE, argv, io);
  if (typeof args === 'number') return args;
  const { ids } = args;
  const dir = path.resolve(args.dir);
  const { proposals, errors } = readSkillProposals(dir);
  for (const e of errors) io.err(`skill proposals: ${e}\n`);
  const unknown = ids.filter((id) => !proposals.some((p) => p.id === id));
  if (unknown.length) {
    io.err(`skill proposals: no proposal ${unknown.join(', ')} in ${skillProposalsDir(dir)}\n`);
    return 1;
  }
  const chosen = ids.length ? proposals.filter((p) => ids.includes(p.id)) : proposals;
  if (!args.apply && !args.reject) {
    if (args.json) io.out(`${JSON.stringify(proposals, null, 2)}\n`);
    else if (!proposals.length) io.out(`No skill rewrites proposed (${skillProposalsDir(dir)} is empty).\n`);
    else for (const p of proposals) io.out(describe(p));
    return errors.length ? 1 : 0;
  }
  if (args.reject) {
    for (const p of chosen) removeSkillProposal(dir, p.id);
    io.out(`Dropped ${chosen.length} proposal${chosen.length === 1 ? '' : 's'}.\n`);
    return 0;
  }
  let failed = 0;
  // Within a file, from the last step up: an applied rewrite does not move the ones above it.
  for (const p of [...chosen].sort((a, b) => a.skill.localeCompare(b.skill) || b.index - a.index)) {
    const problem = apply(dir, p);
    if (problem) {
      failed++;
      io.err(`skill proposals: ${p.id} (${p.skill} step ${p.index + 1}): ${problem}\n`);
    } else {
      removeSkillProposal(dir, p.id);
      io.out(
        `${p.skill}: step ${p.index + 1} "${p.intent}" is now ${p.proposed.length} step${p.proposed.length === 1 ? '' : 's'} (${p.id})\n`,
      );
    }
  }
  return failed ? 1 : 0;
}

function describe(p: SkillProposal): string {
  const indent = (t: string) =>
    t
      .trimEnd()
      .split('\n')
      .map((l) => `      ${l}`)
      .join('\n');
  return `${p.id}  ${p.skill} step ${p.index + 1} "${p.intent}" (skill ${p.name}; test ${p.test || '-'})\n    why: ${p.why}\n    was:\n${indent(stringify([p.original]))}\n    proposed:\n${indent(stringify(p.proposed))}\n`;
}

/** Replace the step in its file; a reason when it cannot (file gone, step changed since). */
function apply(dir: string, p: SkillProposal): string | null {
  const file = path.resolve(dir, p.skill);
  if (!existsSync(file)) return `the skill file ${file} is gone`;
  const doc = parseDocument(readFileSync(file, 'utf8'));
  const steps = doc.get('steps', true);
  if (!isSeq(steps) || p.index >= steps.items.length) return 'the skill has no such step any more';
  const now = (steps.items[p.index] as { toJSON(): unknown }).toJSON();
  if (!isDeepStrictEqual(now, p.original))
    return `the step changed since the run (it is ${JSON.stringify(now)}); run the test again for a fresh proposal`;
  steps.items.splice(p.index, 1, ...p.proposed.map((s) => doc.createNode(s)));
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
  return null;
}
