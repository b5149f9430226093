import { PARAM_REF } from '../../device-runtime/protocol/skill/index.js';
import { KEYS } from '../maestro/commands.js';
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
  const unsupported = (
    [
      'below',
      'above',
      'leftOf',
      'rightOf',
      'childOf',
      'containsChild',
      'containsDescendants',
      'enabled',
      'checked',
      'focused',
      'selected',
    ] as const
  ).filter((k) => sel[k] !== undefined);
  if (sel.point !== undefined) unsupported.unshift('point' as never);
  if (unsupported.length)
    return `selector ${unsupported.map((k) => `\`${k}\``).join(', ')}: a skill target is a text, description or id (with nth); write the step by hand`;
  const nth = sel.index !== undefined ? ` >> nth=${Number(sel.index)}` : '';
  // `${NAME}` stays a parameter reference inside the pattern; the rest is escaped when it is plain text.
  const keep = (t: string, f: (x: string) => string) =>
    t
      .split(/(\$\{[^}]*\})/)
      .map((x, i) => (i % 2 ? x : f(x)))
      .join('');
  const textStep = (t: string) => regexText(PATTERN.test(t.replace(/\$\{[^}]*\}/g, '')) ? t : keep(t, escape));
  if (sel.id !== undefined) {
    const id = sel.id;
    // An id pattern is Maestro's regex over the full id or the name after `:id/`, as the runner reads it.
    const plain = !PATTERN.test(id.replace(/\$\{[^}]*\}/g, '').replace(/^[\w.]+:id\//, ''));
    const idSel = plain ? id : String(maestroRegex(id));
    const withText = sel.text !== undefined ? ` >> has-text=${textStep(sel.text)}` : '';
    return [`id=${idSel}${withText}${nth}`];
  }
  if (sel.text === undefined) return 'a skill target needs a text or an id';
  return [`text=${textStep(sel.text)}${nth}`, `desc=${textStep(sel.text)}${nth}`];
}

const one = (t: string[]) => (t.length === 1 ? t[0]! : t);

export function convertCommand(cmd: Command): Converted {
  const arg = cmd.arg;
  const a = (arg && typeof arg === 'object' && !Array.isArray(arg) ? arg : {}) as Json;
  const opt = a.optional === true ? { optional: true } : {};
  const target = (sel: unknown) => targetOf(sel);
  switch (cmd.name) {
    case 'launchApp': {
      if (typeof arg === 'string' || a.appId) return { reason: 'launchApp of another app: a skill drives one app' };
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
    case 'swipe': {
      if (a.from === undefined)
        return { reason: 'a swipe across the screen (no `from`): a skill swipe names the node it swipes' };
      const t = target(a.from);
      if (typeof t === 'string') return { reason: t };
      return { steps: [{ swipe: { target: one(t), direction: String(a.direction ?? 'up').toLowerCase() } }] };
    }
    case 'back':
      return { steps: [{ press: 'back' }] };
    case 'pressKey': {
      const key = KEYS[String(arg).trim().toLowerCase()];
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
      if (typeof arg === 'string' || a.appId) return { reason: `${cmd.name} of another app: a skill drives one app` };
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

const REASONS: Partial<Record<string, string>> = {
  clearState: 'a skill run starts on a fresh instance; it has no step that wipes the data mid-way',
  scroll: 'a screen-wide scroll: a skill scroll names the node it scrolls to (scroll_to)',
};

/** The `${NAME}` parameters a value refers to (a script's code is JavaScript, not a reference). */
export function paramsIn(value: unknown): string[] {
  const text = JSON.stringify(value ?? null, (k, v: unknown) =>
    k === 'code' || (k === 'script' && typeof v === 'string') ? undefined : v,
  );
  return [...(text ?? '').matchAll(PARAM_REF)].map((m) => m[1]!);
}
