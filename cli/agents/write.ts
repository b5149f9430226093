/**
 * Writing the agents' files idempotently. `.nestwright/agents.json` keeps the SHA-256 of what was
 * last written to each target (a file, a JSON key, a marked block); a run then:
 *
 * - writes a target that is missing;
 * - leaves one that already says what it should;
 * - updates one that still holds what nestwright wrote (an upgrade's new instructions or tools);
 * - keeps one the user changed (skipped, listed; `force` overwrites it);
 * - removes a file an older version wrote and this one no longer does, when unchanged.
 *
 * Everything is planned (read only) before anything is written, so bad input changes nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Loop, Target } from './loops.js';

export const MANIFEST = '.nestwright/agents.json';

const ManifestSchema = z.object({
  version: z.literal(1),
  targets: z.record(z.string(), z.object({ sha256: z.string(), loop: z.string() })),
});
type Manifest = z.infer<typeof ManifestSchema>;

export interface AgentStep {
  path: string;
  /** The JSON key or block, for a part of a file. */
  part?: string;
  status: 'wrote' | 'updated' | 'unchanged' | 'skipped' | 'overwrote' | 'removed';
  detail: string;
}

export class AgentsInitError extends Error {
  constructor(
    readonly code: 'INVALID_FILE' | 'USAGE',
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function targetId(t: Target): string {
  if (t.kind === 'file') return t.path;
  if (t.kind === 'json') return `${t.path}#${t.key.join('.')}`;
  return `${t.path}#block:${t.id}`;
}

const desiredOf = (t: Target) =>
  t.kind === 'json' ? JSON.stringify(t.value) : t.kind === 'block' ? `${t.content}\n` : t.content;

const begin = (id: string) => `# nestwright:begin ${id} (written by npx nestwright init-agents)`;
const end = (id: string) => `# nestwright:end ${id}`;

function readBlock(text: string, id: string): string | undefined {
  const from = text.indexOf(begin(id));
  const to = text.indexOf(end(id));
  if (from < 0 || to < from) return undefined;
  return text.slice(from + begin(id).length + 1, to);
}

function writeBlock(text: string, id: string, content: string): string {
  const block = `${begin(id)}\n${content}\n${end(id)}\n`;
  const from = text.indexOf(begin(id));
  const to = text.indexOf(end(id));
  if (from >= 0 && to > from) return text.slice(0, from) + block + text.slice(to + end(id).length + 1);
  return text ? `${text.replace(/\n*$/, '\n\n')}${block}` : block;
}

function parseJson(file: string, text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text || '{}');
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // said below
  }
  throw new AgentsInitError(
    'INVALID_FILE',
    `${file} is not a JSON object`,
    `Fix or move ${file}; init-agents adds its entries to the file and keeps the rest.`,
  );
}

function getKey(obj: Record<string, unknown>, key: string[]): unknown {
  let cur: unknown = obj;
  for (const k of key) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

function setKey(obj: Record<string, unknown>, key: string[], value: unknown): void {
  let cur = obj;
  for (const k of key.slice(0, -1)) {
    if (!cur[k] || typeof cur[k] !== 'object' || Array.isArray(cur[k])) cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[key[key.length - 1]!] = value;
}

function readManifest(root: string): Manifest {
  const file = path.join(root, MANIFEST);
  if (!existsSync(file)) return { version: 1, targets: {} };
  const parsed = ManifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  // A manifest that does not parse knows nothing: every existing file then counts as the user's.
  return parsed.success ? parsed.data : { version: 1, targets: {} };
}

/** Plan, then write, the targets of one loop. */
export async function writeTargets(
  root: string,
  loop: Loop,
  targets: Target[],
  opts: { force: boolean },
): Promise<AgentStep[]> {
  const manifest = readManifest(root);
  const texts = new Map<string, string | null>();
  const textOf = (p: string) => {
    if (!texts.has(p)) {
      const abs = path.join(root, p);
      texts.set(p, existsSync(abs) ? readFileSync(abs, 'utf8') : null);
    }
    return texts.get(p)!;
  };
  const dirty = new Set<string>();
  const steps: AgentStep[] = [];
  const wanted = new Set<string>();

  for (const t of targets) {
    const id = targetId(t);
    wanted.add(id);
    const desired = desiredOf(t);
    const text = textOf(t.path);
    let current: string | undefined;
    if (text !== null) {
      if (t.kind === 'file') current = text;
      else if (t.kind === 'block') current = readBlock(text, t.id);
      else {
        const v = getKey(parseJson(t.path, text), t.key);
        current = v === undefined ? undefined : JSON.stringify(v);
      }
    }
    const part = t.kind === 'json' ? t.key.join('.') : t.kind === 'block' ? `block ${t.id}` : undefined;
    const step = (status: AgentStep['status'], detail: string) =>
      steps.push({ path: t.path, ...(part ? { part } : {}), status, detail });
    const recorded = manifest.targets[id]?.sha256;
    let status: AgentStep['status'];
    if (current === undefined) status = 'wrote';
    else if (current === desired) status = 'unchanged';
    else if (recorded === sha(current)) status = 'updated';
    else if (opts.force) status = 'overwrote';
    else {
      step(
        'skipped',
        `${t.what}: changed since init-agents wrote it (or not written by it): kept; --force replaces it`,
      );
      continue;
    }
    step(status, t.what);
    manifest.targets[id] = { sha256: sha(desired), loop };
    if (status === 'unchanged') continue;
    if (t.kind === 'file') texts.set(t.path, t.content);
    else if (t.kind === 'block') texts.set(t.path, writeBlock(text ?? '', t.id, t.content));
    else {
      const obj = parseJson(t.path, text ?? '');
      setKey(obj, t.key, t.value);
      texts.set(t.path, `${JSON.stringify(obj, null, 2)}\n`);
    }
    dirty.add(t.path);
  }

  // Files an earlier version wrote for this loop and this one does not: removed when unchanged.
  const removals: string[] = [];
  for (const [id, entry] of Object.entries(manifest.targets)) {
    if (entry.loop !== loop || wanted.has(id) || id.includes('#')) continue;
    const text = textOf(id);
    if (text === null || sha(text) === entry.sha256) {
      if (text !== null) removals.push(id);
      delete manifest.targets[id];
      if (text !== null) steps.push({ path: id, status: 'removed', detail: 'no longer written by this version' });
    }
  }

  for (const p of dirty) {
    await mkdir(path.dirname(path.join(root, p)), { recursive: true });
    await writeFile(path.join(root, p), texts.get(p)!);
  }
  for (const p of removals) await rm(path.join(root, p), { force: true });
  await mkdir(path.join(root, path.dirname(MANIFEST)), { recursive: true });
  await writeFile(path.join(root, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return steps;
}
