import { lstat, mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AgentError } from '../errors.js';
import type { AgentState } from '../state.js';
import { defineAgentTool } from '../tool.js';

/** Where an agent may write, and what: specs as TypeScript/JavaScript, skills as YAML. */
const ALLOWED: Record<string, RegExp> = { specs: /\.(ts|mts|js|mjs)$/, skills: /\.ya?ml$/ };
const MAX_BYTES = 1024 * 1024;

/** The nearest existing ancestor of `p`, with symlinks resolved. */
async function realAncestor(p: string): Promise<string> {
  for (let dir = p; ; dir = path.dirname(dir)) {
    try {
      return path.join(await realpath(dir), path.relative(dir, p));
    } catch {
      if (path.dirname(dir) === dir) return p;
    }
  }
}

/**
 * Check that `rel` names a file inside `specs/` or `skills/` of the project, also once symlinks
 * are resolved, with an extension that fits the folder; return its absolute path.
 */
export async function allowedPath(root: string, rel: string): Promise<string> {
  const deny = (why: string): never => {
    throw new AgentError(
      'PATH_NOT_ALLOWED',
      `${JSON.stringify(rel)}: ${why}`,
      'write_spec writes only specs/**/*.spec.ts (or .js) and skills/**/*.yaml, relative to the project root.',
    );
  };
  if (path.isAbsolute(rel) || /^[a-zA-Z]:/.test(rel)) deny('absolute paths are refused');
  if (rel.includes('\0')) deny('the path holds a NUL byte');
  const abs = path.resolve(root, rel);
  const inside = path.relative(root, abs).split(path.sep);
  const top = inside[0]!;
  if (inside.includes('..') || !(top in ALLOWED) || inside.length < 2) deny('it is outside specs/ and skills/');
  if (!ALLOWED[top]!.test(abs))
    deny(`files in ${top}/ must end in ${top === 'specs' ? '.ts, .mts, .js or .mjs' : '.yaml or .yml'}`);
  const realRoot = await realpath(root);
  const real = await realAncestor(abs);
  const realInside = path.relative(path.join(realRoot, top), real);
  if (realInside.startsWith('..') || path.isAbsolute(realInside)) deny(`a symbolic link takes it outside ${top}/`);
  const existing = await lstat(abs).catch(() => null);
  if (existing && !existing.isFile()) deny('it exists and is not a regular file');
  return abs;
}

export function fileTools(state: AgentState) {
  const writeSpec = defineAgentTool({
    name: 'write_spec',
    title: 'Write a spec or skill',
    description:
      'Write a file under specs/ (a spec: .ts/.js) or skills/ (a skill: .yaml) of the project, creating folders as needed; refuses any other path. For a person to review as a diff.',
    input: z.object({ path: z.string().min(1).max(500), content: z.string().max(MAX_BYTES) }).strict(),
    result: z.object({ path: z.string(), bytes: z.number().int(), created: z.boolean() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run(input) {
      const abs = await allowedPath(state.project.root, input.path);
      const created = !(await lstat(abs).catch(() => null));
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, input.content);
      return {
        result: { path: path.relative(state.project.root, abs), bytes: Buffer.byteLength(input.content), created },
      };
    },
  });
  return [writeSpec];
}
