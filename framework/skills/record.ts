import { selectorWithoutObservation } from '../../device-runtime/protocol/best-selector.js';
import { TOOLS } from '../../device-runtime/protocol/index.js';
import type { Skill } from '../../device-runtime/protocol/skill/index.js';
import type { TrajectoryStep } from '../core/trajectory.js';

/**
 * A passing test's trajectory as a skill: each action a step with its selector as the test
 * resolved it, the texts typed as parameters named after their fields, and post-checks from what
 * became visible after the step — the node the next step acted on, and the test's own
 * `toBeVisible` / `toBeHidden` assertions up to the next action. What a trajectory does not carry
 * (the expected value of `toHaveText`, `toHaveActivity`, …) is listed in `notes`, not guessed.
 */

type Json = Record<string, unknown>;

export interface Recorded {
  skill: Skill;
  notes: string[];
}

export interface TrajectoryBody {
  steps: TrajectoryStep[];
  meta?: Json;
}

/** A template (`'Type {text} into {target}'`) as a pattern that reads its values back. */
function reader(template: string): (title: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = template
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{(\w+)\\?\}/g, (_, n: string) => (names.push(n), '(.+?)'));
  const re = new RegExp(`^${source}$`);
  return (title) => {
    const m = re.exec(title);
    return m ? Object.fromEntries(names.map((n, i) => [n, m[i + 1]!])) : null;
  };
}
const typed = reader(TOOLS.ui_set_text.title);
const pressed = reader(TOOLS.ui_key.title);

/**
 * A locator's description (`text='New note' >> nth=0`, `role=button[name='Save']`) in the
 * selector syntax of skill files. `filter(…)` has no selector syntax: null.
 */
export function toSelectorSyntax(described: string): string | null {
  const parts = described.split(' >> ');
  const out: string[] = [];
  for (const part of parts) {
    if (part.startsWith('filter(')) return null;
    const m = /^(text|desc)=(.*)$/s.exec(part);
    if (m) {
      out.push(/^'.*'$/s.test(m[2]!) ? `${m[1]}=${m[2]!.slice(1, -1)}` : part);
      continue;
    }
    const role = /^role=([\w-]+)(?:\[(.*)\])?$/s.exec(part);
    if (role) {
      const attrs = (role[2] ?? '')
        .split(/, (?=\w+=)/)
        .filter(Boolean)
        .map((a) => {
          const [k, ...rest] = a.split('=');
          const v = rest.join('=');
          return `[${k}=${/^'.*'$/s.test(v) ? v.slice(1, -1) : v}]`;
        });
      out.push(`role=${role[1]}${attrs.join('')}`);
      continue;
    }
    out.push(part);
  }
  return out.join(' >> ');
}

/** A parameter name for what was typed into a field: `id=title` → title, `role=textbox[name=Email]` → email. */
function paramName(selector: string, taken: Set<string>): string {
  const last = selector.split(' >> ').pop()!;
  const base =
    (
      /^id=(?:.*:id\/)?([\w-]+)/.exec(last)?.[1] ??
      /\[name="?([^\]"]+)"?\]/.exec(last)?.[1] ??
      /^(?:text|desc)="?([^"]+)"?$/.exec(last)?.[1] ??
      'text'
    )
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'text';
  let name = /^[a-z_]/.test(base) ? base : `p_${base}`;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

export function trajectoryToSkill(
  trajectory: TrajectoryBody,
  opts: { name: string; description?: string; apk?: string },
): Recorded {
  const notes: string[] = [];
  const meta = trajectory.meta ?? {};
  const pkg = typeof meta.package === 'string' ? meta.package : null;
  if (!pkg)
    throw new Error(
      'the trajectory does not say which app the test drove (meta.package); record a test that uses the app fixture',
    );
  const main = (meta.instance as string | null | undefined) ?? null;
  const records = trajectory.steps.filter((s) => s.result === 'ok');
  const params: Record<string, { type: 'string'; example?: string; description?: string }> = {};
  const taken = new Set<string>();
  const steps: Json[] = [];
  /** Selector of the node each action acted on, by step index (for the post-check of the step before). */
  const acted: Array<string | null> = [];
  for (const r of records) {
    if (r.instance !== main && main !== null) {
      notes.push(
        `"${r.title}" acts on another instance (${r.instance}); a skill drives one instance, so it was left out`,
      );
      continue;
    }
    const selector = r.selector ? toSelectorSyntax(r.selector) : null;
    if (r.selector && !selector)
      notes.push(
        `"${r.title}": ${r.selector} uses filter(), which has no selector syntax; recorded by the node it resolved to`,
      );
    const target = selector ?? (r.node ? selectorWithoutObservation(r.node) : null);
    const post = () => (steps[steps.length - 1]!.post ??= []) as Json[];
    switch (r.api) {
      case 'locator.tap':
      case 'locator.longPress':
        if (!target) break;
        steps.push({ [r.api === 'locator.tap' ? 'tap' : 'long_press']: target });
        acted.push(target);
        continue;
      case 'locator.fill': {
        if (!target) break;
        const value = typed(r.title)?.text;
        let text = value ? (JSON.parse(value) as string) : '';
        if (text.endsWith('…'))
          notes.push(`"${r.title}": the typed text is shortened in the trajectory; its example is too`);
        if (text === '') {
          steps.push({ clear: target });
        } else {
          const name = paramName(target, taken);
          params[name] = r.node?.password
            ? { type: 'string', description: 'typed into a password field: no example is recorded' }
            : { type: 'string', example: (text = text.replace(/…$/, '')) };
          steps.push({ fill: { target, value: `\${${name}}` } });
        }
        acted.push(target);
        continue;
      }
      case 'locator.scrollIntoView':
        if (!target) break;
        steps.push({ scroll_to: target });
        acted.push(target);
        continue;
      case 'locator.press':
      case 'app.press': {
        const key = pressed(r.title)?.key;
        if (key) steps.push({ press: JSON.parse(key) as string });
        acted.push(null);
        continue;
      }
      case 'locator.swipe': {
        const direction = /^Swipe (up|down|left|right) on /.exec(r.title)?.[1];
        if (!target || !direction) break;
        steps.push({ swipe: { target, direction } });
        acted.push(target);
        continue;
      }
      case 'app.launch':
        steps.push({ launch: true });
        acted.push(null);
        continue;
      case 'expect.toBeVisible':
      case 'expect.toBeHidden': {
        if (!target || steps.length === 0) break;
        const hidden = (r.api === 'expect.toBeHidden') !== / not toBe(Visible|Hidden)$/.test(r.title);
        post().push(hidden ? { hidden: target } : { visible: target });
        continue;
      }
      default:
        if (r.source === 'skill' || r.api.startsWith('skill.')) continue;
        if (r.kind === 'assertion')
          notes.push(
            `"${r.title}": its expected value is not in the trajectory; add the check to the step before it by hand`,
          );
        else if (r.kind === 'action' || r.kind === 'app')
          notes.push(`"${r.title}" (${r.api}) has no skill step; it was left out`);
        continue;
    }
    notes.push(`"${r.title}" (${r.api}) names no node a skill step could target; it was left out`);
  }
  // What became visible after a step: the node the next step acted on.
  for (let i = 0; i < steps.length; i++) {
    const next = acted[i + 1];
    const current = acted[i];
    if (!next || next === current) continue;
    const post = (steps[i]!.post ??= []) as Json[];
    if (!post.some((c) => c.visible === next)) post.unshift({ visible: next });
  }
  // A typed text that shows up later (a saved note's title) is the same parameter there.
  for (const [name, spec] of Object.entries(params)) {
    if (!spec.example) continue;
    const quoted = JSON.stringify(spec.example);
    const swap = (sel: unknown): unknown => {
      if (typeof sel === 'string') return sel.split(quoted).join(`"\${${name}}"`);
      if (Array.isArray(sel)) return sel.map(swap);
      if (sel && typeof sel === 'object')
        return Object.fromEntries(Object.entries(sel).map(([k, v]) => [k, k === 'value' ? v : swap(v)]));
      return sel;
    };
    for (const step of steps) for (const k of Object.keys(step)) if (k !== 'fill') step[k] = swap(step[k]);
  }
  if (steps.length === 0)
    throw new Error('the test did no action a skill can replay (tap, fill, press, scroll, swipe, launch)');
  const skill = {
    name: opts.name,
    ...(opts.description ? { description: opts.description } : {}),
    app: pkg,
    ...(opts.apk ? { apk: opts.apk } : {}),
    params,
    steps,
  } as unknown as Skill;
  return { skill, notes };
}
