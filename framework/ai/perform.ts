import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { AppPort } from '../core/port.js';
import {
  AppCrashedError,
  DeviceDisconnectedError,
  NestwrightError,
  StrictModeViolationError,
  TimeoutError,
} from '../core/errors.js';
import type { CacheStep } from './cache.js';
import { AiError } from './errors.js';
import { isSecret, revealSecret, type Secret } from '../core/secret.js';
import { bestSelector } from '../../device-runtime/protocol/best-selector.js';
import { nodeLine } from './screen.js';
import type { ActCall } from './tools.js';

export type Params = Record<string, string | number | Secret>;

/** An action the model or the cache asked for, as the framework runs it. */
export type Action = Exclude<ActCall, { name: 'done' | 'give_up' }>;

export type Outcome =
  | { ok: true; step: CacheStep; node: UiNode | null; after: Observation }
  | { ok: false; refused: string; node: UiNode | null };

const SWIPE = { up: 'down', down: 'up', left: 'right', right: 'left' } as const;

/** `{name}` placeholders of a text, replaced by their values (secrets included: only for typing). */
export function fillPlaceholders(text: string, params: Params): { text: string; secret: boolean } {
  let secret = false;
  const out = text.replace(/\{(\w+)\}/g, (m, name: string) => {
    const v = params[name];
    if (v === undefined) return m;
    if (isSecret(v)) {
      secret = true;
      return revealSecret(v);
    }
    return String(v);
  });
  return { text: out, secret };
}

/** A typed text or a selector as the cache stores it: parameter values back to `{name}`. */
export function toTemplate(text: string, params: Params, quoted = false): string {
  let out = text;
  const named = Object.entries(params).filter(([, v]) => !isSecret(v) && String(v).length > 0);
  for (const [name, v] of named.sort(([, a], [, b]) => String(b).length - String(a).length)) {
    out = quoted ? out.split(`"${String(v)}"`).join(`"{${name}}"`) : out.split(String(v)).join(`{${name}}`);
  }
  return out;
}

/**
 * Run one action on a node of `obs` through the framework's own locator actions — the path a
 * scripted test takes, with its waiting, strictness and effect checks — then observe again and
 * check the app under test is still in front. What cannot be done is refused (returned to the
 * model as a tool error), never guessed: an id not in the snapshot, a denied node, a secret typed
 * into a field that is not a password field.
 */
export async function perform(
  app: AppPort,
  call: ApiCall,
  action: Action,
  obs: Observation,
  params: Params,
  deny: Array<string | RegExp>,
): Promise<Outcome> {
  const byId = new Map(obs.nodes.map((n) => [n.id, n]));
  let node: UiNode | null = null;
  if ('node_id' in action.input && action.input.node_id !== undefined) {
    node = byId.get(action.input.node_id) ?? null;
    if (!node)
      return {
        ok: false,
        node: null,
        refused: `node ${JSON.stringify(action.input.node_id)} is not on the current screen (snapshot ${obs.snapshot_id}); use an id from the latest <screen>`,
      };
    const denied = deny.find((d) =>
      [node!.text, node!.desc].some(
        (t) => t && (typeof d === 'string' ? t.toLowerCase().includes(d.toLowerCase()) : d.test(t)),
      ),
    );
    if (denied !== undefined && action.name !== 'scroll')
      return { ok: false, node, refused: `${nodeLine(node)} is denied to this step (use.ai.deny: ${String(denied)})` };
  }
  if (action.name === 'scroll' && !node) {
    node = [...obs.nodes].filter((n) => n.scrollable).sort((a, b) => area(b) - area(a))[0] ?? null;
    if (!node) return { ok: false, node: null, refused: 'nothing on this screen scrolls' };
  }
  const line = node ? nodeLine(node) : '';
  let step: CacheStep;
  try {
    switch (action.name) {
      case 'tap': {
        const selector = bestSelector(node!, obs);
        await app.locator(selector).tap();
        step = { action: 'tap', selector, node: line };
        break;
      }
      case 'long_press': {
        const selector = bestSelector(node!, obs);
        await app.locator(selector).longPress();
        step = { action: 'long_press', selector, node: line };
        break;
      }
      case 'type_text': {
        if (!node!.editable) return { ok: false, node, refused: `${line} is not an editable field` };
        const typed = fillPlaceholders(action.input.text, params);
        if (typed.secret && !node!.password)
          return {
            ok: false,
            node,
            refused: `a secret parameter can only be typed into a password field, and ${line} is not one (its text would show on screen and in logs)`,
          };
        const selector = bestSelector(node!, obs);
        await app.locator(selector).fill(typed.text, { secret: typed.secret });
        step = { action: 'type_text', selector, node: line, text: toTemplate(action.input.text, params) };
        break;
      }
      case 'scroll': {
        const selector = bestSelector(node!, obs);
        await app.locator(selector).swipe(SWIPE[action.input.direction], { distance: 0.7 });
        step = { action: 'scroll', selector, node: line, direction: action.input.direction };
        break;
      }
      case 'press_key':
        await app.press(action.input.key);
        step = { action: 'press_key', key: action.input.key };
        break;
      default: {
        const never: never = action;
        throw new Error(`unknown action ${JSON.stringify(never)}`);
      }
    }
  } catch (e) {
    if (e instanceof AppCrashedError || e instanceof DeviceDisconnectedError || !(e instanceof NestwrightError))
      throw e;
    const why =
      e instanceof TimeoutError || e instanceof StrictModeViolationError ? e.message.split('\n')[0] : e.message;
    return { ok: false, node, refused: `the action failed: ${why}` };
  }
  if ('selector' in step) step = { ...step, selector: toTemplate(step.selector, params, true) };
  const after = await observeInApp(app, call, action.name);
  return { ok: true, step, node, after };
}

const area = (n: UiNode) => (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1]);

/**
 * The screen after an action, as it is (our app is NOT brought back): if another app is in front,
 * the model left the app and the step stops. A window of another package over our still-foreground
 * instance (a permission prompt) is part of our screen.
 */
export async function observeInApp(app: AppPort, call: ApiCall, what: string): Promise<Observation> {
  let obs: Observation;
  for (let wait = 20, tries = 0; ; wait = Math.min(wait * 2, 250), tries++) {
    obs = await app.observeAsIs(call);
    if (!obs.tree_missing || tries > 12) break;
    await new Promise((r) => setTimeout(r, wait));
  }
  if (app.inFront(obs)) return obs;
  const state = await app.state(call);
  const crash = await app.crashed(call, state);
  if (crash) throw crash;
  if (state === 'foreground' && obs.package !== null) return obs;
  throw new AiError(
    call,
    'AI_LEFT_APP',
    `after ${what}, the app under test (${app.who()}) is no longer in front — ${obs.package ?? 'nothing'} is. The step is stopped: AI steps act only inside the app under test.`,
  );
}
