import type { Reply, RequestView, Script } from './stand-in.js';
import type { ScreenNode, ScreenView } from './screen-view.js';

/**
 * Scripts for the stand-in: a "model" per instruction that reads the latest screen and answers
 * with tool calls, as a real one would. A route's turns are indexed by the request's assistant
 * turns; `n` counts the requests the route has seen (for failures on the first tries).
 */
export type Turn = (v: RequestView, n: number) => Reply;

export interface Route {
  /** Matched against the instruction / statement / question. */
  match: string | RegExp;
  turns?: Turn[];
  /** For a verdict or answer step: one function answers every request. */
  answer?: Turn;
  /** For a heal request (one step of a cached replay). */
  heal?: Turn;
}

export function scripted(routes: Route[]): Script {
  const seen = new Map<Route, number>();
  return ({ view }) => {
    const route = routes.find((r) =>
      typeof r.match === 'string' ? view.instruction.includes(r.match) : r.match.test(view.instruction),
    );
    if (!route)
      return {
        kind: 'error',
        status: 400,
        type: 'invalid_request_error',
        message: `no scripted route for ${JSON.stringify(view.instruction)}`,
      };
    const n = seen.get(route) ?? 0;
    seen.set(route, n + 1);
    if (route.heal && view.texts().some((t) => t.startsWith('Replaying the recorded steps')))
      return route.heal(view, n);
    if (route.answer) return route.answer(view, n);
    const turns = route.turns ?? [];
    const turn = turns[view.turn];
    return turn ? turn(view, n) : done('scripted turns ended')(view, n);
  };
}

export const tool = (name: string, input: unknown): Reply => ({ kind: 'tool', name, input });

const onNode =
  (
    name: string,
    pick: (s: ScreenView) => ScreenNode | undefined,
    what: string,
    extra: Record<string, unknown> = {},
  ): Turn =>
  (v) => {
    const n = pick(v.screen());
    return n ? tool(name, { node_id: n.id, ...extra }) : tool('give_up', { reason: `no ${what} on screen` });
  };

export const tap = (text: string | RegExp): Turn => onNode('tap', (s) => s.find(text), String(text));
export const longPress = (text: string | RegExp): Turn => onNode('long_press', (s) => s.find(text), String(text));
export const typeInto = (res: string, text: string): Turn =>
  onNode('type_text', (s) => s.byRes(res), `field ${res}`, { text });
export const press =
  (key: string): Turn =>
  () =>
    tool('press_key', { key });
export const done =
  (summary = 'done'): Turn =>
  () =>
    tool('done', { summary });
export const giveUp =
  (reason: string): Turn =>
  () =>
    tool('give_up', { reason });

/** A verdict from what the screen shows: pass when `text` is on it, citing that node. */
export const verdictOn =
  (text: string | RegExp, absentReason = 'it is not on the screen'): Turn =>
  (v) => {
    const node = v.screen().find(text);
    return node
      ? tool('verdict', {
          pass: true,
          evidence_node_ids: [node.id],
          reason: `the screen shows "${node.text ?? node.desc}"`,
        })
      : tool('verdict', { pass: false, evidence_node_ids: [], reason: `${String(text)}: ${absentReason}` });
  };
