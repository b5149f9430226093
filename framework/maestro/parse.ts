import { createRequire } from 'node:module';
import type { Node } from 'yaml';

/** yaml, loaded on the first parse rather than with the framework. */
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') =>
  (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/**
 * Maestro flow files read as Maestro reads them: an optional configuration document (`appId`,
 * `name`, `tags`, `env`, `onFlowStart`, `onFlowComplete`), `---`, then a list of commands. Each
 * command keeps the line it was written on, so every later message (planner, runner, importer)
 * names the flow's own file and line, never a generated one.
 */

/** A problem with a flow, at its place in the flow's file. */
export interface FlowIssue {
  file: string;
  line: number;
  command: string;
  reason: string;
}

/** One command as written: its name, its argument (plain data) and its line. */
export interface RawCommand {
  name: string;
  arg: unknown;
  line: number;
  /**
   * The argument's YAML node (yaml's `Node`), to find the lines of nested commands. Typed
   * `unknown` so the declarations do not name yaml's types (a user's type check would load them).
   */
  node: unknown;
}

export interface FlowConfig {
  appId?: string;
  name?: string;
  tags: string[];
  env: Record<string, string>;
  onFlowStart: RawCommand[];
  onFlowComplete: RawCommand[];
  /** Keys Maestro knows that change nothing here (`jsEngine`, `properties`, …). */
  extra: string[];
}

export interface ParsedFlow {
  file: string;
  config: FlowConfig;
  commands: RawCommand[];
  /** The line of the command list, for messages about the list as a whole. */
  line: number;
  issues: FlowIssue[];
  /** The line of any node of this file. */
  lineOf: LineOf;
}

const CONFIG_KEYS = new Set(['appId', 'url', 'name', 'tags', 'env', 'onFlowStart', 'onFlowComplete']);

/** Where a node starts, 1-based. */
export type LineOf = (node: unknown) => number;

/**
 * `300_000`: Maestro reads flows with Jackson, which takes YAML 1.1's underscores in numbers
 * (`timeout: 10_000`); the YAML 1.2 core schema would read a string.
 */
const UNDERSCORED_INT = {
  default: true,
  tag: 'tag:yaml.org,2002:int',
  test: /^[-+]?[0-9]+(?:_+[0-9]+)+$/,
  resolve: (s: string) => Number(s.replace(/_/g, '')),
};

export function parseFlow(text: string, file: string): ParsedFlow {
  const counter = new (yaml().LineCounter)();
  const docs = yaml().parseAllDocuments(text, { lineCounter: counter, customTags: [UNDERSCORED_INT] });
  const issues: FlowIssue[] = [];
  const lineOf: LineOf = (node) => (node && (node as Node).range ? counter.linePos((node as Node).range![0]).line : 1);
  const empty: FlowConfig = { tags: [], env: {}, onFlowStart: [], onFlowComplete: [], extra: [] };
  if (!Array.isArray(docs) || docs.length === 0) {
    issues.push({
      file,
      line: 1,
      command: '(file)',
      reason: 'empty file: a flow is `appId: …`, `---`, then a list of commands',
    });
    return { file, config: empty, commands: [], line: 1, issues, lineOf };
  }
  for (const d of docs)
    for (const e of d.errors)
      issues.push({ file, line: counter.linePos(e.pos[0]).line, command: '(yaml)', reason: e.message.split('\n')[0]! });
  if (issues.length) return { file, config: empty, commands: [], line: 1, issues, lineOf };
  const header = docs.length > 1 ? docs[0]!.contents : null;
  const body = docs[docs.length - 1]!.contents;
  const config = readConfig(header, file, lineOf, issues);
  if (body === null || (yaml().isScalar(body) && body.value === null))
    return { file, config, commands: [], line: lineOf(body), issues, lineOf };
  if (!yaml().isSeq(body)) {
    // A file with only a configuration (config.yaml) or a map where the list should be.
    issues.push({
      file,
      line: lineOf(body),
      command: '(commands)',
      reason: 'the commands after `---` must be a list (`- launchApp`, `- tapOn: …`)',
    });
    return { file, config, commands: [], line: lineOf(body), issues, lineOf };
  }
  return { file, config, commands: readCommands(body.items, file, lineOf, issues), line: lineOf(body), issues, lineOf };
}

function readConfig(header: unknown, file: string, lineOf: LineOf, issues: FlowIssue[]): FlowConfig {
  const config: FlowConfig = { tags: [], env: {}, onFlowStart: [], onFlowComplete: [], extra: [] };
  if (header === null || header === undefined) return config;
  if (!yaml().isMap(header)) {
    issues.push({
      file,
      line: lineOf(header),
      command: '(config)',
      reason: 'the part before `---` is a map (`appId: com.example.app`)',
    });
    return config;
  }
  for (const pair of header.items) {
    const key = yaml().isScalar(pair.key) ? String(pair.key.value) : '';
    const value = pair.value as Node | null;
    const js = value && 'toJSON' in value ? (value as { toJSON(): unknown }).toJSON() : value;
    const at = lineOf(pair.key);
    const bad = (reason: string) => issues.push({ file, line: at, command: key, reason });
    if (!CONFIG_KEYS.has(key)) {
      config.extra.push(key);
      continue;
    }
    if (key === 'appId' || key === 'url') {
      if (typeof js === 'string' || typeof js === 'number') config.appId = String(js);
      else bad('appId is the package of the app the flow drives');
    } else if (key === 'name') config.name = String(js);
    else if (key === 'tags') {
      if (Array.isArray(js)) config.tags = js.map(String);
      else if (typeof js === 'string') config.tags = [js];
      else bad('tags is a list of names');
    } else if (key === 'env') {
      if (js && typeof js === 'object' && !Array.isArray(js))
        config.env = Object.fromEntries(Object.entries(js).map(([k, v]) => [k, v === null ? '' : String(v)]));
      else bad('env is a map of NAME: value');
    } else {
      const list = key === 'onFlowStart' ? config.onFlowStart : config.onFlowComplete;
      if (yaml().isSeq(value)) list.push(...readCommands(value.items, file, lineOf, issues));
      else bad(`${key} is a list of commands`);
    }
  }
  return config;
}

/** A list of commands (`- back`, `- tapOn: …`) with their lines. */
export function readCommands(items: unknown[], file: string, lineOf: LineOf, issues: FlowIssue[]): RawCommand[] {
  const out: RawCommand[] = [];
  for (const item of items) {
    if (yaml().isScalar(item) && typeof item.value === 'string') {
      out.push({ name: item.value, arg: null, line: lineOf(item), node: null });
      continue;
    }
    if (yaml().isMap(item) && item.items.length >= 1 && yaml().isScalar(item.items[0]!.key)) {
      if (item.items.length > 1) {
        issues.push({
          file,
          line: lineOf(item),
          command: String(item.items[0]!.key.value),
          reason: `one command per list item; indent its options under it (found ${item.items.length} keys)`,
        });
        continue;
      }
      const value = item.items[0]!.value as Node | null;
      const arg =
        value && typeof value === 'object' && 'toJSON' in value ? (value as { toJSON(): unknown }).toJSON() : value;
      const name = String(item.items[0]!.key.value);
      // `- action: back` is Maestro's other spelling of `- back` (likewise hideKeyboard, scroll, …).
      if (name === 'action' && typeof arg === 'string')
        out.push({ name: arg, arg: null, line: lineOf(item), node: null });
      else out.push({ name, arg: arg ?? null, line: lineOf(item), node: value ?? null });
      continue;
    }
    issues.push({
      file,
      line: lineOf(item),
      command: '(command)',
      reason: 'a command is `- name` or `- name: argument`',
    });
  }
  return out;
}

/** The `commands:` list inside a command's argument (`runFlow`, `repeat`, `retry`), with lines. */
export function nestedCommands(
  cmd: RawCommand,
  file: string,
  lineOf: LineOf,
  issues: FlowIssue[],
): RawCommand[] | null {
  if (!yaml().isMap(cmd.node)) return null;
  const list = cmd.node.get('commands', true);
  if (!yaml().isSeq(list)) return null;
  return readCommands(list.items, file, lineOf, issues);
}
