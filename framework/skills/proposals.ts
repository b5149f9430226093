import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * A skill step the AI agent did in place of one that no longer resolved, and whose post-checks
 * then held: the steps it took, proposed to replace it. What `nestwright skill proposals` lists
 * and `--apply` writes into the skill file (modelled on heal proposals, framework/heal/proposals.ts).
 */
export const SkillProposalSchema = z.object({
  id: z.string(),
  /** The skill file, relative to the project directory. */
  skill: z.string(),
  name: z.string(),
  /** 0-based index of the step in the file's `steps`. */
  index: z.number().int(),
  intent: z.string(),
  /** The step as the file has it (parameters not substituted): --apply checks it is still there. */
  original: z.record(z.string(), z.unknown()),
  /** The steps that replace it (parameters written back as `${name}`). */
  proposed: z.array(z.record(z.string(), z.unknown())).min(1),
  why: z.string(),
  test: z.string(),
  createdAt: z.string(),
});
export type SkillProposal = z.infer<typeof SkillProposalSchema>;

export const skillProposalsDir = (projectDir: string) => join(projectDir, '.nestwright', 'skills', 'proposals');

export const skillProposalId = (skill: string, index: number, proposed: unknown) =>
  createHash('sha256')
    .update(`${skill}\n${index}\n${JSON.stringify(proposed)}`)
    .digest('hex')
    .slice(0, 8);

export function writeSkillProposal(projectDir: string, p: SkillProposal): SkillProposal {
  const dir = skillProposalsDir(projectDir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${p.id}.json`), `${JSON.stringify(p, null, 2)}\n`);
  return p;
}

export function removeSkillProposal(projectDir: string, id: string): void {
  rmSync(join(skillProposalsDir(projectDir), `${id}.json`), { force: true });
}

/** The proposals on disk; a file that does not parse is reported, not skipped. */
export function readSkillProposals(projectDir: string): { proposals: SkillProposal[]; errors: string[] } {
  const dir = skillProposalsDir(projectDir);
  if (!existsSync(dir)) return { proposals: [], errors: [] };
  const proposals: SkillProposal[] = [];
  const errors: string[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    try {
      const parsed = SkillProposalSchema.safeParse(JSON.parse(readFileSync(join(dir, f), 'utf8')));
      if (parsed.success) proposals.push(parsed.data);
      else errors.push(`${join(dir, f)}: ${z.prettifyError(parsed.error)}`);
    } catch (e) {
      errors.push(`${join(dir, f)}: not JSON (${(e as Error).message})`);
    }
  }
  proposals.sort((a, b) => a.skill.localeCompare(b.skill) || a.index - b.index);
  return { proposals, errors };
}
