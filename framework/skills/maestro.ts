import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Node } from 'yaml';
import { PARAM_REF, type Skill } from '../../device-runtime/protocol/skill/index.js';

/**
 * Maestro flows (`appId: …` / `---` / a list of commands) converted to skills. Covered:
 * appId, launchApp, tapOn (text, id, index), longPressOn, inputText, eraseText, assertVisible,
 * assertNotVisible, scrollUntilVisible, back, hideKeyboard, pressKey, runFlow (a file, with env,
 * or inline commands), waitForAnimationToEnd. Anything else is reported with its line and the
 * reason it was not imported — never dropped silently.
 *
 * What differs, by design of the two tools: Maestro's text and id selectors are regular
 * expressions matched against the whole text (or accessibility text); a plain string becomes
 * an exact `text="…"` with a `desc="…"` alternative, a pattern becomes `text=/^(?:…)$/`.
 * `inputText` types into the focused field; the skill fills the focused field
 * (`role=textbox[focused=true]`), which replaces what was there rather than appending.
 */

export interface ImportProblem {
  file: string;
  line: number;
  command: string;
  reason: string;
}

/** A flow file to import too (named by a `runFlow`), relative to the flow that names it. */
export interface ImportedFlow {
  /** The flow's path as written in the `runFlow`. */
  source: string;
  /** The skill file the `run` step points at. */
  target: string;
}

export interface MaestroImport {
  skill: Skill | null;
  /** Not imported: each with its line and why. */
  problems: ImportProblem[];
  /** Imported, with a difference worth knowing. */
  notes: ImportProblem[];
  subflows: ImportedFlow[];
}

type Json = Record<string, unknown>;
type Step = Json;

const FOCUSED = 'role=textbox[focused=true]';
const REGEX_CHARS = /[.*+?^${}()|[\]\\]/;
const KEYS: Record<string, string> = {
  enter: 'enter',
  home: 'home',
  back: 'back',
  backspace: 'delete',
  tab: 'tab',
  search: 'search',
  menu: 'menu',
};

/** A skill-file name for a flow: `Login.yaml` → `login.yaml`. */
export function skillFileFor(flow: string): string {
  return `${flow
    .replace(/\\/g, '/')
    .replace(/^.*\//, '')
    .replace(/\.ya?ml$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')}.yaml`;
}

export function importMaestro(text: string, file: string): MaestroImport {
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: counter });
  const problems: ImportProblem[] = [];
  const notes: ImportProblem[] = [];
  const subflows: ImportedFlow[] = [];
  if (!Array.isArray(docs))
    return {
      skill: null,
      problems: [
        {
          file,
          line: 1,
          command: '(file)',
          reason: 'empty file: a flow is `appId: …`, `---`, then a list of commands',
        },
      ],
      notes,
      subflows,
    };
  for (const d of docs) {
    for (const e of d.errors)
      problems.push({
        file,
        line: counter.linePos(e.pos[0]).line,
        command: '(yaml)',
        reason: e.message.split('\n')[0]!,
      });
  }
  if (problems.length) return { skill: null, problems, notes, subflows };
  const header = docs.length > 1 ? docs[0]!.contents : null;
  const body = docs[docs.length - 1]!.contents;
  const config = (isMap(header) ? docs[0]!.toJS() : {}) as Json;
  const line = (node: unknown) => (node && (node as Node).range ? counter.linePos((node as Node).range![0]).line : 1);
  if (typeof config.appId !== 'string') {
    problems.push({
      file,
      line: 1,
      command: 'appId',
      reason: 'a flow starts with `appId: <package>` and `---`; the skill needs the package it drives',
    });
  }
  for (const key of Object.keys(config)) {
    if (!['appId', 'name', 'env', 'tags'].includes(key))
      problems.push({
        file,
        line: line(isMap(header) ? header.items.find((p) => isScalar(p.key) && p.key.value === key)?.key : null),
        command: key,
        reason: `flow configuration \`${key}\` has no skill equivalent`,
      });
  }
  if (!isSeq(body)) {
    problems.push({
      file,
      line: line(body),
      command: '(commands)',
      reason: 'the commands after `---` must be a list (`- launchApp`, `- tapOn: …`)',
    });
    return { skill: null, problems, notes, subflows };
  }
  const ctx: Ctx = { file, problems, notes, subflows, line };
  const steps = convertCommands(body.items, ctx);
  const env = (config.env ?? {}) as Json;
  const params: Record<string, { type: 'string'; default?: string }> = {};
  for (const [k, v] of Object.entries(env)) params[k] = { type: 'string', default: String(v) };
  for (const m of JSON.stringify(steps).matchAll(PARAM_REF)) params[m[1]!] ??= { type: 'string' };
  if (typeof config.appId !== 'string' || steps.length === 0) {
    if (steps.length === 0)
      problems.push({
        file,
        line: line(body),
        command: '(commands)',
        reason: 'no command of this flow could be imported',
      });
    return { skill: null, problems, notes, subflows };
  }
  const name =
    String(config.name ?? skillFileFor(file).replace(/\.yaml$/, ''))
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '') || 'flow';
  const skill = {
    name,
    description: `Imported from the Maestro flow ${file.replace(/^.*\//, '')}`,
    app: config.appId,
    params,
    steps,
  } as unknown as Skill;
  return { skill, problems, notes, subflows };
}

interface Ctx {
  file: string;
  problems: ImportProblem[];
  notes: ImportProblem[];
  subflows: ImportedFlow[];
  line(node: unknown): number;
}

function convertCommands(items: unknown[], ctx: Ctx, env: Json = {}): Step[] {
  const steps: Step[] = [];
  for (const item of items) {
    let command: string;
    let arg: unknown;
    if (isScalar(item) && typeof item.value === 'string') [command, arg] = [item.value, null];
    else if (isMap(item) && item.items.length === 1 && isScalar(item.items[0]!.key)) {
      command = String(item.items[0]!.key.value);
      const value = item.items[0]!.value;
      arg = isNode(value) ? value.toJSON() : value;
    } else {
      ctx.problems.push({
        file: ctx.file,
        line: ctx.line(item),
        command: '(command)',
        reason: 'a command is `- name` or `- name: argument`',
      });
      continue;
    }
    const at = ctx.line(item);
    const fail = (reason: string) => void ctx.problems.push({ file: ctx.file, line: at, command, reason });
    const note = (reason: string) => void ctx.notes.push({ file: ctx.file, line: at, command, reason });
    const step = convert(command, substituteEnv(arg, env), item, ctx, fail, note);
    if (step) steps.push(...(Array.isArray(step) ? step : [step]));
  }
  return steps;
}

function isNode(v: unknown): v is Node {
  return !!v && typeof v === 'object' && 'toJSON' in v;
}

function substituteEnv(value: unknown, env: Json): unknown {
  if (typeof value === 'string') return value.replace(PARAM_REF, (m, k: string) => (k in env ? String(env[k]) : m));
  if (Array.isArray(value)) return value.map((v) => substituteEnv(v, env));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, env)]));
  return value;
}

/** A Maestro selector (`"Text"` or `{ text, id, index }`) as a target, or the reason it has none. */
function target(sel: unknown, note?: (r: string) => void): string[] | string {
  const spec = typeof sel === 'string' || typeof sel === 'number' ? { text: String(sel) } : (sel as Json | null);
  if (!spec || typeof spec !== 'object') return 'the selector is missing';
  const extra = Object.keys(spec).filter(
    (k) => !['text', 'id', 'index', 'optional', 'label', 'retryTapIfNoChange', 'waitToSettleTimeoutMs'].includes(k),
  );
  if (extra.length)
    return `selector ${extra.map((k) => `\`${k}\``).join(', ')} has no equivalent in the selector syntax (text, id and index are imported)`;
  const nth = spec.index !== undefined ? ` >> nth=${Number(spec.index)}` : '';
  if (spec.id !== undefined) {
    const id = String(spec.id);
    if (REGEX_CHARS.test(id.replace(/\$\{[^}]*\}/g, '')))
      return `id pattern ${JSON.stringify(id)}: ids are matched exactly in a skill; write the id itself`;
    if (spec.text !== undefined) note?.(`id and text: the skill finds the node by its id (${id}) alone`);
    return [`id=${id}${nth}`];
  }
  if (spec.text === undefined) return 'a selector needs text or id';
  return text(String(spec.text)).map((s) => `${s}${nth}`);
}

/** Maestro matches text or accessibility text against the whole string, as a regular expression. */
function text(t: string): string[] {
  if (REGEX_CHARS.test(t.replace(/\$\{[^}]*\}/g, ''))) return [`text=/^(?:${t})$/i`, `desc=/^(?:${t})$/i`];
  return [`text=${JSON.stringify(t)}`, `desc=${JSON.stringify(t)}`];
}

const one = (t: string[]) => (t.length === 1 ? t[0]! : t);

function convert(
  command: string,
  arg: unknown,
  node: unknown,
  ctx: Ctx,
  fail: (r: string) => void,
  note: (r: string) => void,
): Step | Step[] | null {
  const opt = (arg as Json | null)?.optional === true ? { optional: true } : {};
  switch (command) {
    case 'launchApp': {
      const a = (arg ?? {}) as Json;
      if (typeof arg === 'string' || a.appId) note('launchApp of another app: the skill launches its own app');
      if (a.clearState)
        note(
          'clearState: a test or `skill run` starts from a fresh instance with no data; a relaunch mid-skill keeps the data',
        );
      const unknown = Object.keys(a).filter((k) => !['appId', 'clearState', 'stopApp', 'clearKeychain'].includes(k));
      if (unknown.length) return (fail(`launchApp ${unknown.join(', ')} has no skill equivalent`), null);
      return { launch: true };
    }
    case 'tapOn':
    case 'longPressOn': {
      if (arg && typeof arg === 'object' && 'point' in arg)
        return (fail('a tap on screen coordinates: a skill step names the node it acts on'), null);
      const t = target(arg, note);
      if (typeof t === 'string') return (fail(t), null);
      return { [command === 'tapOn' ? 'tap' : 'long_press']: one(t), ...opt };
    }
    case 'inputText': {
      if (typeof arg !== 'string' && typeof arg !== 'number') return (fail('inputText takes the text to type'), null);
      note('inputText types into the focused field; the skill fills it (replacing its text)');
      return { fill: { target: FOCUSED, value: String(arg) } };
    }
    case 'eraseText':
      if (arg !== null && typeof arg !== 'number') return (fail('eraseText takes a number of characters'), null);
      if (arg !== null) note(`eraseText ${arg}: the skill clears the whole field`);
      return { clear: FOCUSED };
    case 'assertVisible':
    case 'assertNotVisible': {
      const t = target(arg, note);
      if (typeof t === 'string') return (fail(t), null);
      if (command === 'assertVisible') return { assert: { visible: one(t) }, ...opt };
      return t.map((s) => ({ assert: { hidden: s }, ...opt }));
    }
    case 'scrollUntilVisible': {
      const a = (arg ?? {}) as Json;
      const t = target(a.element, note);
      if (typeof t === 'string') return (fail(t), null);
      const unknown = Object.keys(a).filter(
        (k) => !['element', 'direction', 'timeout', 'speed', 'visibilityPercentage', 'centerElement'].includes(k),
      );
      if (unknown.length) return (fail(`scrollUntilVisible ${unknown.join(', ')} has no skill equivalent`), null);
      if (a.direction && !/^(down|up)$/i.test(String(a.direction)))
        note(`direction ${a.direction}: the skill scrolls the screen's list down then up`);
      return { scroll_to: one(t), ...(typeof a.timeout === 'number' ? { timeout: a.timeout } : {}) };
    }
    case 'back':
      return { press: 'back' };
    case 'hideKeyboard':
      note('hideKeyboard: pressing back hides the keyboard on Android');
      return { press: 'back' };
    case 'pressKey': {
      const key = KEYS[String(arg).trim().toLowerCase()];
      if (!key)
        return (fail(`key ${JSON.stringify(arg)} has no equivalent; keys: ${Object.keys(KEYS).join(', ')}`), null);
      return { press: key };
    }
    case 'waitForAnimationToEnd':
      return {
        wait_for: 'idle',
        ...(arg && typeof (arg as Json).timeout === 'number' ? { timeout: (arg as Json).timeout } : {}),
      };
    case 'runFlow': {
      const a = (typeof arg === 'string' ? { file: arg } : (arg ?? {})) as Json;
      if (a.when)
        return (
          fail('runFlow with `when`: conditions on a whole flow have no equivalent; a skill step has its own `when`'),
          null
        );
      if (a.env !== undefined && (typeof a.env !== 'object' || a.env === null || Array.isArray(a.env)))
        return (fail('runFlow env is a map of NAME: value'), null);
      const env = (a.env ?? {}) as Json;
      if (Array.isArray(a.commands)) {
        const inline = isMap(node) ? (node.items[0]!.value as unknown) : null;
        const list = isMap(inline) ? inline.get('commands', true) : null;
        return convertCommands(isSeq(list) ? list.items : [], ctx, env);
      }
      if (typeof a.file !== 'string')
        return (fail('runFlow names a file (`runFlow: login.yaml`) or inline `commands`'), null);
      const targetFile = skillFileFor(a.file);
      ctx.subflows.push({ source: a.file, target: targetFile });
      return {
        run: { skill: targetFile, params: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])) },
      };
    }
    default:
      return (
        fail(
          `\`${command}\` is not imported: it has no skill equivalent (imported: launchApp, tapOn, longPressOn, inputText, eraseText, assertVisible, assertNotVisible, scrollUntilVisible, back, hideKeyboard, pressKey, runFlow, waitForAnimationToEnd)`,
        ),
        null
      );
  }
}
