import { core, type ZodError } from 'zod';

/**
 * A failed parse in one line, each problem named by its path from `root`:
 * `params.apk_paths[0]: Invalid input: expected string, received number; params.name: …`.
 * At most `max` problems, then how many more.
 *
 * Why not `z.prettifyError`: it writes a block for a terminal (`✖ message` then `→ at path` on
 * the next line, per issue). Tool error envelopes, `api: …` errors and trajectory records carry
 * one-line messages (a trajectory keeps a message's first line), and name the path from what the
 * caller passed (`params.`, `result.`, `use.deviceOptions.`), as Playwright's validator does. The path
 * itself is written by zod's own `toDotPath`, as `prettifyError` writes it.
 *
 * @example
 * ```ts
 * import { describeIssues, getTool } from 'nestwright/protocol';
 *
 * const r = getTool('ui_tap')!.input.safeParse({ space_id: 1 });
 * if (!r.success) console.log(describeIssues(r.error, 'params'));
 * // params.space_id: Invalid input: expected string, received number; …
 * ```
 */
export function describeIssues(error: ZodError, root?: string, max = 5): string {
  const shown = error.issues.slice(0, max).map((i) => `${where(root, i.path)}: ${i.message}`);
  const more = error.issues.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** `root` (itself a dotted name, e.g. `use.deviceOptions`) joined to an issue's path as zod writes it. */
function where(root: string | undefined, path: PropertyKey[]): string {
  const tail = path.length > 0 ? core.toDotPath(path) : '';
  if (!root) return tail || '(root)';
  return !tail ? root : tail.startsWith('[') ? `${root}${tail}` : `${root}.${tail}`;
}
