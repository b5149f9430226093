import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { proposalsDir } from './proposals-dir.js';

/** A healed locator waiting for review: what `nestwright heal` lists and `--apply` writes into the spec. */
export const ProposalSchema = z.object({
  id: z.string(),
  /** The spec, relative to the project directory (where playwright.config.ts is). */
  spec: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  test: z.string(),
  selector: z.string(),
  proposed: z.string(),
  score: z.number(),
  margin: z.number(),
  by: z.enum(['score', 'model']),
  reasons: z.array(z.string()),
  /** `suggest`: the test failed and carries this; `auto`: the step ran on `proposed` and passed its check. */
  mode: z.enum(['suggest', 'auto']),
  /** PNG files next to the proposal: the screen with the node outlined before the action, and after it. */
  screenshots: z.object({ before: z.string().optional(), after: z.string().optional() }),
  createdAt: z.string(),
});
export type Proposal = z.infer<typeof ProposalSchema>;

export { proposalsDir, clearProposals } from './proposals-dir.js';

/** Stable across runs (same place, same change), so a rejection by id means the same thing next time. */
export const proposalId = (spec: string, line: number, selector: string, proposed: string) =>
  createHash('sha256').update(`${spec}\n${line}\n${selector}\n${proposed}`).digest('hex').slice(0, 8);

export function writeProposal(
  projectDir: string,
  p: Proposal,
  pngs: { before?: Buffer | null; after?: Buffer | null } = {},
): Proposal {
  const dir = proposalsDir(projectDir);
  mkdirSync(dir, { recursive: true });
  const shots: Proposal['screenshots'] = { ...p.screenshots };
  for (const when of ['before', 'after'] as const) {
    const png = pngs[when];
    if (!png) continue;
    shots[when] = `${p.id}-${when}.png`;
    writeFileSync(join(dir, shots[when]!), png);
  }
  const full = { ...p, screenshots: shots };
  writeFileSync(join(dir, `${p.id}.json`), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

export function withdrawProposal(projectDir: string, id: string): void {
  const dir = proposalsDir(projectDir);
  for (const f of [`${id}.json`, `${id}-before.png`, `${id}-after.png`]) rmSync(join(dir, f), { force: true });
}

/** The proposals of the last run, by spec and line; a file that does not parse is reported, not skipped. */
export function readProposals(projectDir: string): { proposals: Proposal[]; errors: string[] } {
  const dir = proposalsDir(projectDir);
  if (!existsSync(dir)) return { proposals: [], errors: [] };
  const proposals: Proposal[] = [];
  const errors: string[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    } catch (e) {
      errors.push(`${join(dir, f)}: not JSON (${(e as Error).message})`);
      continue;
    }
    const parsed = ProposalSchema.safeParse(raw);
    if (parsed.success) proposals.push(parsed.data);
    else errors.push(`${join(dir, f)}: ${z.prettifyError(parsed.error)}`);
  }
  proposals.sort((a, b) => a.spec.localeCompare(b.spec) || a.line - b.line);
  return { proposals, errors };
}
