/**
 * `nestwright heal [--dir D] [--json] [--apply [id…]] [--reject id…]`
 *
 * Lists the healing proposals of the last run (old and new locator, score, margin, spec file and
 * line, screenshots with the node outlined); `--apply` rewrites the specs' locator calls (all
 * proposals, or the ids given) and prints what changed, for review in the diff; `--reject`
 * remembers a proposal as turned down (in the spec's fingerprint file) so it is not proposed
 * again. Exit code: 0 done, 1 something could not be applied or found, 2 usage.
 */
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fingerprintFileOf, updateFingerprintFile } from '../../framework/heal/fingerprint-store.js';
import { proposalsDir, readProposals, withdrawProposal, type Proposal } from '../../framework/heal/proposals.js';
import { stdio, type Io } from './io.js';
import { parseReviewArgs } from './review-args.js';

export type HealIo = Io;

const USAGE = `Usage: nestwright heal [--dir DIR] [--json] [--apply [ID...]] [--reject ID...]

  (no option)   list the proposals of the last run
  --apply       rewrite the specs' locator calls: every proposal, or the IDs given
  --reject      turn proposals down: they are not proposed again
  --dir         the project directory, where playwright.config.ts is (default: the current one)
  --json        print the proposals as JSON

Exit code: 0 done, 1 a proposal could not be applied or was not found, 2 usage error.
`;

export async function healCommand(argv: string[], io: HealIo = stdio): Promise<number> {
  const args = parseReviewArgs('heal', USAGE, argv, io);
  if (typeof args === 'number') return args;
  const { ids } = args;
  if (args.reject && ids.length === 0) {
    io.err(`heal: --reject needs the ids of the proposals to turn down (see \`nestwright heal\`)\n`);
    return 2;
  }
  const dir = resolve(args.dir);
  if (!existsSync(dir)) {
    io.err(`heal: --dir ${dir} does not exist\n`);
    return 2;
  }
  const { proposals, errors } = readProposals(dir);
  for (const e of errors) io.err(`heal: skipped a proposal file that does not parse: ${e}\n`);
  const unknown = ids.filter((id) => !proposals.some((p) => p.id === id));
  if (unknown.length) {
    io.err(
      `heal: no proposal ${unknown.join(', ')} in ${relative(process.cwd(), proposalsDir(dir)) || '.'}; the last run proposed: ${proposals.map((p) => p.id).join(', ') || 'nothing'}\n`,
    );
    return 1;
  }
  const chosen = ids.length ? proposals.filter((p) => ids.includes(p.id)) : proposals;
  if (args.reject) return reject(dir, chosen, io);
  if (args.apply) return apply(dir, chosen, io);
  if (args.json) {
    io.out(`${JSON.stringify(proposals, null, 2)}\n`);
    return 0;
  }
  list(dir, proposals, io);
  return 0;
}

function list(dir: string, proposals: Proposal[], io: HealIo): void {
  if (proposals.length === 0) {
    io.out('No healing proposals from the last run.\n');
    return;
  }
  const shots = relative(process.cwd(), proposalsDir(dir)) || '.';
  io.out(`${proposals.length} healing proposal${proposals.length === 1 ? '' : 's'} from the last run:\n`);
  for (const p of proposals) {
    io.out(
      `\n  ${p.id}  ${p.spec}:${p.line}  ${p.mode === 'auto' ? 'healed in the run (auto)' : 'test failed (suggest)'}\n` +
        `    test:   ${p.test}\n` +
        `    old:    ${p.selector}\n` +
        `    new:    ${p.proposed}\n` +
        `    score ${p.score.toFixed(2)}, margin ${p.margin.toFixed(2)}${p.by === 'model' ? ', chosen by the model' : ''}\n` +
        (p.screenshots.before || p.screenshots.after
          ? `    screenshots: ${[p.screenshots.before, p.screenshots.after]
              .filter(Boolean)
              .map((f) => `${shots}/${f}`)
              .join(', ')}\n`
          : ''),
    );
  }
  io.out(`\nApply: npx nestwright heal --apply [id...]   Reject: npx nestwright heal --reject id...\n`);
}

async function apply(dir: string, proposals: Proposal[], io: HealIo): Promise<number> {
  // ts-morph (and the TypeScript compiler inside it) only for --apply: listing stays quick.
  const { ApplyError, applyProposal, newProject } = await import('./heal-apply.js');
  const project = newProject();
  let failed = 0;
  for (const p of proposals) {
    try {
      const edit = applyProposal(project, dir, p);
      io.out(
        `${p.id}  ${p.spec}:${edit.line}\n  - ${edit.before}\n  + ${edit.after}${edit.renamed ? '\n    (another kind of locator: the method changed as well)' : ''}\n`,
      );
    } catch (e) {
      if (!(e instanceof ApplyError)) throw e;
      failed++;
      io.err(`heal: ${p.id} not applied: ${e.message}\n`);
    }
  }
  if (proposals.length === 0) io.out('No healing proposals from the last run.\n');
  else io.out(`\n${proposals.length - failed} applied${failed ? `, ${failed} not` : ''}. Review with \`git diff\`.\n`);
  return failed ? 1 : 0;
}

function reject(dir: string, proposals: Proposal[], io: HealIo): number {
  for (const p of proposals) {
    const file = resolve(dir, p.spec);
    updateFingerprintFile(fingerprintFileOf(file), (f) =>
      f.rejected.some((r) => r.selector === p.selector && r.line === p.line && r.proposed === p.proposed)
        ? false
        : (f.rejected.push({ selector: p.selector, line: p.line, proposed: p.proposed }), true),
    );
    withdrawProposal(dir, p.id);
    io.out(`${p.id}  rejected: ${p.selector} → ${p.proposed} will not be proposed again at ${p.spec}:${p.line}\n`);
  }
  return 0;
}
