import { createRequire } from 'node:module';
import type { Document, LineCounter } from 'yaml';
import type { z } from 'zod';
import { SkillSchema, type Skill } from './schema.js';

/** yaml, loaded on the first parse rather than with the framework. */
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') =>
  (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/** One problem in a skill file, at its place: `skills/add-note.yaml:7:11 …`. */
export interface SkillIssue {
  file: string;
  line: number;
  column: number;
  /** Where in the skill, e.g. `steps[2].tap`. */
  path: string;
  message: string;
}

/** A skill file that cannot be used; `issues` lists every problem found, each with file:line:column. */
export class SkillParseError extends Error {
  readonly code = 'SKILL_INVALID';
  constructor(
    readonly file: string,
    readonly issues: SkillIssue[],
  ) {
    super(
      `${file}: ${issues.length} problem${issues.length === 1 ? '' : 's'} in this skill:\n${issues.map((i) => `  ${i.file}:${i.line}:${i.column} ${i.path ? `${i.path}: ` : ''}${i.message}`).join('\n')}`,
    );
    this.name = 'SkillParseError';
  }
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

/**
 * The YAML node nearest to `path` (the deepest that exists), as [line, column]. A path the
 * parser synthesised (`kind`) or a key that is missing points at the object that lacks it.
 */
function positionOf(doc: Document, counter: LineCounter, path: readonly PropertyKey[]): { line: number; col: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true);
    if (yaml().isNode(node) && node.range) return counter.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

/** Where a key of the mapping at `path` is written (an unknown key is reported at itself). */
function keyPosition(
  doc: Document,
  counter: LineCounter,
  path: readonly PropertyKey[],
  key: string,
): { line: number; col: number } | null {
  const map = path.length ? doc.getIn(path as unknown[], true) : doc.contents;
  if (!yaml().isMap(map)) return null;
  const pair = map.items.find((p) => yaml().isScalar(p.key) && p.key.value === key);
  return pair && yaml().isNode(pair.key) && pair.key.range ? counter.linePos(pair.key.range[0]) : null;
}

/**
 * Parse a skill from YAML text. YAML errors and schema errors come back together as one
 * `SkillParseError`, each at file:line:column, so one run shows every problem to fix.
 */
export function parseSkill(text: string, file: string): Skill {
  const counter = new (yaml().LineCounter)();
  const doc = yaml().parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new SkillParseError(
      file,
      doc.errors.map((e) => {
        const at = counter.linePos(e.pos[0]);
        return { file, line: at.line, column: at.col, path: '', message: e.message.split('\n')[0]! };
      }),
    );
  }
  const parsed = SkillSchema.safeParse(doc.toJS());
  if (parsed.success) return parsed.data;
  throw new SkillParseError(file, issuesAt(parsed.error.issues, doc, counter, file));
}

function issuesAt(issues: z.core.$ZodIssue[], doc: Document, counter: LineCounter, file: string): SkillIssue[] {
  const out: SkillIssue[] = [];
  for (const issue of issues) {
    // A union reports why each member failed; the member the step chose says the most.
    const inner = issue.code === 'invalid_union' ? issue.errors.flat() : [];
    if (inner.length > 0) {
      out.push(
        ...issuesAt(
          inner.map((i) => ({ ...i, path: [...issue.path, ...i.path] })),
          doc,
          counter,
          file,
        ).slice(0, 1),
      );
      continue;
    }
    const path = issue.path.filter((p) => p !== 'kind');
    const at =
      issue.code === 'unrecognized_keys'
        ? (keyPosition(doc, counter, path, issue.keys[0]!) ?? positionOf(doc, counter, path))
        : positionOf(doc, counter, path);
    const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    out.push({ file, line: at.line, column: at.col, path: formatPath(path), message: `${issue.message}${keys}` });
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}
