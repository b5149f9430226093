import { PARAM_REF } from '../../device-runtime/protocol/skill/index.js';
import { keyName, KEYS, NO_DEFECTS, RANDOM_NAMES } from '../maestro/commands.js';
import type { Command } from '../maestro/plan.js';
import { maestroRegex, readSelector, SelectorError, type MaestroSelector } from '../maestro/selector.js';

/**
 * One planned Maestro command as skill steps, with Maestro's semantics kept: text selectors
 * become whole-text, case-insensitive, dot-matches-all regexes over text and description; an id
 * without pattern characters is the id itself (a full `pkg:id/name` too); `{ id, text }` keeps
 * both. What a skill cannot express is a reason, never a silently different step.
 */

type Json = Record<string, unknown>;
export type Step = Json;
export type Converted =
  { steps: Step[]; note?: string } | { reason: string } | { block: 'retry' | 'when'; steps?: never };

const FOCUSED = 'role=textbox[focused=true]';
const PATTERN = /[.*+?^${}()|[\]\\]/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function regexText(t: string): string {
  // Java's inline flags repeat what the skill regex already says (i, s): drop them.
  const body = t.replace(/\(\?[imsux]+\)/g, '');
  return `/^(?:${body.replace(/\//g, '\\/')})$/is`;
}

/** A Maestro selector as skill target alternatives, or why it has none. */
export function targetOf(raw: unknown): string[] | string {
  let sel: MaestroSelector;
  try {
    sel = readSelector(raw);
  } catch (e) {
    if (e instanceof SelectorError) return e.message;
    throw e;
  }
  return targetsFor(sel);
}

/**
 * Maestro's relative selectors as the selector syntax's relations. The sides come right after the
 * text or id: Maestro keeps the order of its first filter (the text's, else the first side's,
 * nearest first), and the other relations only filter.
 */
const RELATIONS = [
  ['below', 'below'],
  ['above', 'above'],
  ['leftOf', 'left-of'],
  ['rightOf', 'right-of'],
  ['childOf', 'child-of'],
  ['containsChild', 'has-child'],
] as const;

function targetsFor(sel: MaestroSelector): string[] | string {
  if (sel.point !== undefined)
    return 'selector `point`: a skill target is a node, not a place in it; write the step by hand';
  // `${NAME}` stays a parameter reference inside the pattern; the rest is escaped when it is plain text.
  const keep = (t: string, f: (x: string) => string) =>
    t
      .split(/(\$\{[^}]*\})/)
      .map((x, i) => (i % 2 ? x : f(x)))
      .join('');
  const textStep = (t: string) => regexText(PATTERN.test(t.replace(/\$\{[^}]*\}/g, '')) ? t : keep(t, escape));
  let own: string[];
  if (sel.id !== undefined) {
    const id = sel.id;
    // An id pattern is Maestro's regex over the full id or the name after `:id/`, as the runner reads it.
    const plain = !PATTERN.test(id.replace(/\$\{[^}]*\}/g, '').replace(/^[\w.]+:id\//, ''));
    const idSel = plain ? id : String(maestroRegex(id));
    own = [`id=${idSel}${sel.text !== undefined ? ` >> has-text=${textStep(sel.text)}` : ''}`];
  } else if (sel.text !== undefined) own = [`text=${textStep(sel.text)}`, `desc=${textStep(sel.text)}`];
  else own = [];
  const filters: string[] = [];
  const nested = (inner: MaestroSelector): string | null => {
    const t = targetsFor(inner);
    if (typeof t === 'string') return null;
    return JSON.stringify(t.length === 1 ? t[0] : t);
  };
  for (const [key, engine] of RELATIONS) {
    const inner = sel[key];
    if (!inner) continue;
    const anchor = nested(inner);
    if (anchor === null) return `selector \`${key}\`: ${targetsFor(inner) as string}`;
    filters.push(`${engine}=${anchor}`);
  }
  for (const inner of sel.containsDescendants ?? []) {
    const anchor = nested(inner);
    if (anchor === null) return `selector \`containsDescendants\`: ${targetsFor(inner) as string}`;
    filters.push(`has=${anchor}`);
  }
  for (const k of ['enabled', 'checked', 'focused', 'selected'] as const)
    if (sel[k] !== undefined) filters.push(`${k}=${sel[k]}`);
  // Maestro acts on the first match; a relation or state usually matches several (a locator is strict).
  if (sel.index !== undefined) filters.push(`nth=${Number(sel.index)}`);
  else if (filters.length) filters.push('nth=0');
  if (!own.length && !filters.length) return 'a skill target needs a text, an id, a state or a relative selector';
  if (!own.length) return [filters.join(' >> ')];
  return own.map((o) => [o, ...filters].join(' >> '));
}

const one = (t: string[]) => (t.length === 1 ? t[0]! : t);

/**
 * `app`: the package the skill drives; a `launchApp`/`stopApp` that names it (flows often write
 * their own appId out) is of the skill's app, not another.
 */
export function convertCommand(cmd: Command, app: string | null = null): Converted {
  const arg = cmd.arg;
  const a = (arg && typeof arg === 'object' && !Array.isArray(arg) ? arg : {}) as Json;
  const named = typeof arg === 'string' ? arg : typeof a.appId === 'string' ? a.appId : null;
  const other = named !== null && named.trim() !== app;
  const opt = a.optional === true ? { optional: true } : {};
  const target = (sel: unknown) => targetOf(sel);
  switch (cmd.name) {
    case 'launchApp': {
      if (other) return { reason: `launchApp of ${named}: a skill drives one app (${app ?? 'its app'})` };
      return {
        steps: [{ launch: true }],
        ...(a.clearState
          ? { note: 'clearState: a skill run starts on a fresh instance; a relaunch mid-skill keeps the data' }
          : {}),
      };
    }
    case 'tapOn':
    case 'doubleTapOn':
    case 'longPressOn': {
      const t = target(arg);
      if (typeof t === 'string') return { reason: t };
      const key = cmd.name === 'longPressOn' ? 'long_press' : 'tap';
      const times = cmd.name === 'doubleTapOn' ? 2 : Math.max(1, Number(a.repeat ?? 1));
      return { steps: Array.from({ length: times }, () => ({ [key]: one(t), ...opt })) };
    }
    case 'inputText':
      return {
        steps: [{ fill: { target: FOCUSED, value: String(typeof arg === 'object' && arg ? a.text : arg) } }],
        note: 'inputText types at the end of the focused field; the skill fills it (the same when it was empty)',
      };
    case 'inputRandomText':
    case 'inputRandomNumber':
    case 'inputRandomEmail':
    case 'inputRandomPersonName':
      return {
        steps: [{ fill: { target: FOCUSED, value: `\${${randomExpression(cmd.name, a)}}` } }],
        note: `${cmd.name}: the skill fills the focused field with a value computed when the step runs`,
      };
    case 'eraseText':
      return {
        steps: [{ clear: FOCUSED }],
        ...(arg !== null ? { note: `eraseText ${JSON.stringify(arg)}: the skill clears the whole field` } : {}),
      };
    case 'assertVisible':
    case 'assertNotVisible': {
      const t = target(arg);
      if (typeof t === 'string') return { reason: t };
      if (cmd.name === 'assertVisible') return { steps: [{ assert: { visible: one(t) }, ...opt }] };
      return { steps: t.map((s) => ({ assert: { hidden: s }, ...opt })) };
    }
    case 'extendedWaitUntil': {
      const t = target(a.visible ?? a.notVisible);
      if (typeof t === 'string') return { reason: t };
      const timeout = a.timeout !== undefined ? { timeout: Number(a.timeout) } : {};
      if (a.visible !== undefined) return { steps: [{ wait_for: { visible: one(t) }, ...timeout }] };
      return { steps: t.map((s) => ({ wait_for: { hidden: s }, ...timeout })) };
    }
    case 'waitForAnimationToEnd':
      return { steps: [{ wait_for: 'idle', ...(a.timeout !== undefined ? { timeout: Number(a.timeout) } : {}) }] };
    case 'scrollUntilVisible': {
      const t = target(a.element);
      if (typeof t === 'string') return { reason: t };
      return {
        steps: [{ scroll_to: one(t), ...(a.timeout !== undefined ? { timeout: Number(a.timeout) } : {}) }],
        ...(a.direction && !/^down$/i.test(String(a.direction))
          ? { note: `direction ${a.direction}: the skill scrolls the list down, then up` }
          : {}),
      };
    }
    case 'scroll':
      return { steps: [{ swipe: { direction: 'up' } }] };
    case 'swipe': {
      if (a.from === undefined) return screenSwipe(a);
      const t = target(a.from);
      if (typeof t === 'string') return { reason: t };
      return { steps: [{ swipe: { target: one(t), direction: String(a.direction ?? 'up').toLowerCase() } }] };
    }
    case 'back':
      return { steps: [{ press: 'back' }] };
    case 'pressKey': {
      const key = KEYS[keyName(arg)];
      return key
        ? { steps: [{ press: key }] }
        : { reason: `key ${JSON.stringify(arg)} has no key event on a virtual space` };
    }
    case 'hideKeyboard':
      return { steps: [{ hide_keyboard: true }] };
    case 'evalScript': {
      const text = String(arg ?? '').trim();
      const m = /^\$\{([\s\S]*)\}$/.exec(text);
      return { steps: [{ script: m ? m[1]!.trim() : text }] };
    }
    case 'runScript': {
      if (!cmd.script) return { reason: 'runScript: its file was not read' };
      if (a.when !== undefined) return { reason: 'runScript with `when`: write it as a runFlow with `when`' };
      const env = a.env && typeof a.env === 'object' ? (a.env as Json) : null;
      return {
        steps: [
          env
            ? {
                script: {
                  code: cmd.script.code,
                  env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])),
                },
              }
            : { script: cmd.script.code },
        ],
        note: `runScript ${cmd.script.file}: the script's code is copied into the skill`,
      };
    }
    case 'assertTrue': {
      const cond = typeof arg === 'object' && arg !== null ? a.condition : arg;
      return { steps: [{ assert: { true: typeof cond === 'boolean' ? cond : String(cond ?? '') } }] };
    }
    case 'copyTextFrom': {
      const t = target(arg);
      if (typeof t === 'string') return { reason: t };
      return { steps: [{ copy_text: one(t), ...opt }] };
    }
    case 'pasteText':
      return { steps: [{ fill: { target: FOCUSED, value: '${maestro.copiedText}' } }] };
    case 'takeScreenshot': {
      const name = typeof arg === 'string' ? arg : a.path;
      if (typeof name !== 'string' || !name) return { reason: 'takeScreenshot names no file' };
      return {
        steps: [{ screenshot: name }],
        note: 'takeScreenshot: the skill attaches the screenshot to the test (a device run gives its sha256), no file is written',
      };
    }
    case 'stopApp':
    case 'killApp':
      if (other) return { reason: `${cmd.name} of ${named}: a skill drives one app (${app ?? 'its app'})` };
      return { steps: [{ stop_app: true }] };
    case 'openLink': {
      const link = typeof arg === 'string' ? arg : a.link;
      if (typeof link !== 'string' || !link) return { reason: 'openLink names no link' };
      return {
        steps: [{ open_link: link }],
        ...(a.autoVerify || a.browser
          ? { note: 'openLink: the link opens with a VIEW intent (autoVerify and browser are not applied)' }
          : {}),
      };
    }
    case 'assertWithAI':
    case 'assertNoDefectsWithAI': {
      const statement =
        cmd.name === 'assertNoDefectsWithAI' ? NO_DEFECTS : typeof arg === 'string' ? arg : String(a.assertion ?? '');
      if (!statement) return { reason: 'assertWithAI names no assertion' };
      // Optional unless it says not, as in Maestro.
      const optional = a.optional !== false && a.optional !== 'false';
      return {
        steps: [{ ai_assert: statement, ...(optional ? { optional: true } : {}) }],
        note: `${cmd.name}: an ai_assert step, judged by the model of the test that replays the skill (use.ai); skill_run on a device has none`,
      };
    }
    case 'clearKeychain':
      return { steps: [], note: 'clearKeychain does nothing on Android' };
    case 'runFlow':
    case 'retry':
    case 'repeat':
      return { block: cmd.name === 'retry' ? 'retry' : 'when' };
    default:
      return {
        reason: REASONS[cmd.name] ?? `\`${cmd.name}\` has no skill step; run the flow with \`nestwright maestro test\``,
      };
  }
}

/** A swipe across the screen, as the runner does it: from its centre; `start`/`end` give the direction and, in percent, the distance. */
function screenSwipe(a: Json): Converted {
  if (a.direction !== undefined) return { steps: [{ swipe: { direction: String(a.direction).toLowerCase() } }] };
  const point = (p: unknown) => /^\s*(-?\d+(?:\.\d+)?)(%?)\s*,\s*(-?\d+(?:\.\d+)?)(%?)\s*$/.exec(String(p));
  const [s, e] = [point(a.start), point(a.end)];
  if (!s || !e) return { reason: 'swipe: give a direction, from, or start and end points (`50%,80%`)' };
  const [dx, dy] = [Number(e[1]) - Number(s[1]), Number(e[3]) - Number(s[3])];
  const across = Math.abs(dx) > Math.abs(dy);
  const direction = across ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up';
  const percent = across ? s[2] && e[2] : s[4] && e[4];
  const distance = Math.min(0.95, Math.max(0.05, Math.abs(across ? dx : dy) / 100));
  return {
    steps: [{ swipe: { direction, ...(percent ? { distance } : {}) } }],
    note: `swipe from ${a.start} to ${a.end}: the skill swipes ${direction} across the screen from its centre${percent ? '' : ' (points in pixels: the default distance)'}`,
  };
}

/** What a run of the runner types for an `inputRandom*` (ui-commands.ts), as JavaScript for a skill's `${…}`. */
function randomExpression(name: string, a: Json): string {
  const chars = (n: unknown, set: string) =>
    `Array.from(Array(${Math.max(1, Math.min(256, Number(n ?? 8) || 8))}), () => '${set}'[Math.floor(Math.random() * ${set.length})]).join('')`;
  if (name === 'inputRandomNumber') return chars(a.length, '0123456789');
  if (name === 'inputRandomEmail') return `${chars(8, 'abcdefghijklmnopqrstuvwxyz')} + '@example.com'`;
  if (name === 'inputRandomPersonName')
    return `${JSON.stringify(RANDOM_NAMES).replace(/"/g, "'")}[Math.floor(Math.random() * ${RANDOM_NAMES.length})]`;
  return chars(a.length, 'abcdefghijklmnopqrstuvwxyz');
}

const REASONS: Partial<Record<string, string>> = {
  clearState: 'a skill run starts on a fresh instance; it has no step that wipes the data mid-way',
};

/** The `${NAME}` parameters a value refers to (a script's code is JavaScript, not a reference). */
export function paramsIn(value: unknown): string[] {
  const text = JSON.stringify(value ?? null, (k, v: unknown) =>
    k === 'code' || (k === 'script' && typeof v === 'string') ? undefined : v,
  );
  return [...(text ?? '').matchAll(PARAM_REF)].map((m) => m[1]!);
}
