import { z } from 'zod';
import { KeySchema, type Observation, type UiNode } from '../../../device-runtime/protocol/index.js';
import { parseLocatorInput } from '../../../framework/tools/expression.js';
import { Locator } from '../../../framework/core/locator.js';
import { resolveSteps } from '../../../framework/core/selector.js';
import { suggestLocators } from '../../../device-runtime/protocol/best-selector.js';
import { AgentError, toEnvelope } from '../errors.js';
import { compactScreen, nodeLine } from '../screen.js';
import type { LiveSession } from '../sessions.js';
import type { AgentState } from '../state.js';
import { defineAgentTool } from '../tool.js';
import { bestLocatorCode, js, record, startLog } from '../authoring/log.js';

const SessionArg = { session: z.string().min(1).describe('A session id from open_app') };

const SuggestionSchema = z.object({
  strategy: z.enum(['id', 'role', 'desc', 'text', 'chain', 'nth']),
  selector: z.string().describe('For app.locator() and the `selector` of act'),
  code: z.string().describe('The same locator as code'),
  matches: z.number().int(),
  strict_safe: z.boolean().describe('Exactly one match, and it is this node'),
  score: z.number(),
});

const ScreenResult = {
  package: z.string().nullable(),
  activity: z.string().nullable(),
  snapshot_id: z.string(),
  screen: z.string().describe('One node a line, its id first'),
};

const screenOf = (obs: Observation) => ({
  package: obs.package,
  activity: obs.activity,
  snapshot_id: obs.snapshot_id,
  screen: compactScreen(obs),
});

function suggestions(obs: Observation, node: UiNode) {
  return suggestLocators(obs, node.id).map(({ strictSafe, ...s }) => ({ ...s, strict_safe: strictSafe }));
}

async function observe(s: LiveSession): Promise<Observation> {
  s.last = await s.app.observe();
  return s.last;
}

/** The same node on a newer screen: same id, else same identity (ids are stable per snapshot only). */
function findAgain(obs: Observation, n: UiNode): UiNode | undefined {
  return (
    obs.nodes.find((x) => x.id === n.id && x.text === n.text && x.res_id === n.res_id) ??
    obs.nodes.find(
      (x) =>
        x.role === n.role &&
        x.text === n.text &&
        x.desc === n.desc &&
        x.res_id === n.res_id &&
        x.bounds.join() === n.bounds.join(),
    )
  );
}

const ACTIONS = ['tap', 'long_press', 'fill', 'clear', 'press', 'scroll_into_view', 'launch', 'open_link'] as const;

/** An act call as spec code, on the locator `target` (or `app` for a key press without one). */
function actCode(
  input: { action: (typeof ACTIONS)[number]; value?: string; timeout_ms?: number },
  target: string,
): string {
  const opts = input.timeout_ms !== undefined ? `{ timeout: ${input.timeout_ms} }` : '';
  const call = {
    tap: `tap(${opts})`,
    long_press: `longPress(${opts})`,
    fill: `fill(${js(input.value ?? '')}${opts ? `, ${opts}` : ''})`,
    clear: `clear(${opts})`,
    press: `press(${js(input.value ?? '')})`,
    scroll_into_view: `scrollIntoView(${opts})`,
    launch: `launch(${input.value ? `{ activity: ${js(input.value)} }` : ''})`,
    open_link: `intent({ data: ${js(input.value ?? '')} })`,
  }[input.action];
  return `await ${target}.${call};`;
}

export function liveTools(state: AgentState) {
  const openApp = defineAgentTool({
    name: 'open_app',
    title: 'Open an app',
    description:
      'Start a fresh instance of an app (an APK path relative to the project, or an installed package) in a space of its own, held for this connection until close_app or disconnect. Default device: a simulated one started on first use.',
    input: z
      .object({
        app: z.string().min(1).describe("'fixtures/apks/notes.apk' or a package name"),
        device: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("Like use.deviceOptions: { provider: 'nestspace', url, token }"),
        activity: z
          .string()
          .min(1)
          .optional()
          .describe("Start at this activity instead of the launcher's: '.CatalogActivity'"),
      })
      .strict(),
    result: z.object({
      session: z.string(),
      app_package: z.string(),
      instance: z.string().nullable(),
      space: z.string(),
      ...ScreenResult,
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(input, ctx) {
      const s = await state.sessions.open(ctx.sessionId, input.app, input.device);
      startLog(s, input.app);
      if (input.activity) {
        await s.app.launch({ activity: input.activity });
        record(s, { intent: null, kind: 'setup', code: `await app.launch({ activity: ${js(input.activity)} });` });
      }
      const obs = await observe(s);
      return {
        result: {
          session: s.id,
          app_package: s.app.package,
          instance: s.app.instance,
          space: s.space.id,
          ...screenOf(obs),
        },
      };
    },
  });

  const observeTool = defineAgentTool({
    name: 'observe',
    title: 'Observe the screen',
    description:
      "The app's current screen: one node a line (id, role, text, description, resource id, bounds); with screenshot: true also a PNG image block.",
    input: z.object({ ...SessionArg, screenshot: z.boolean().optional() }).strict(),
    result: z.object({ ...ScreenResult, node_count: z.number().int() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input, ctx) {
      const s = state.sessions.get(ctx.sessionId, input.session);
      const obs = await observe(s);
      const png = input.screenshot ? await s.app.screenshot({ optional: true }) : null;
      return {
        result: { ...screenOf(obs), node_count: obs.nodes.length },
        ...(png ? { images: [{ data: png.toString('base64'), mimeType: 'image/png' as const }] } : {}),
      };
    },
  });

  const tryLocator = defineAgentTool({
    name: 'try_locator',
    title: 'Try a locator',
    description:
      'Resolve a locator on the current screen without acting: a selector (text="Save", role=button[name="Save"], id=title, a >> b) or code (getByRole(\'button\', { name: \'Save\' }).first()). Returns the matches, the strict-mode verdict, and for each match the most stable locator nestwright suggests.',
    input: z.object({ ...SessionArg, selector: z.string().min(1) }).strict(),
    result: z.object({
      verdict: z
        .enum(['unique', 'none', 'ambiguous'])
        .describe('unique: an action on it would run; ambiguous: strict mode would refuse it'),
      count: z.number().int(),
      matches: z.array(z.object({ node_id: z.string(), node: z.string(), suggested: SuggestionSchema.nullable() })),
      snapshot_id: z.string(),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input, ctx) {
      const s = state.sessions.get(ctx.sessionId, input.session);
      const steps = (() => {
        try {
          return parseLocatorInput(input.selector, 'try_locator');
        } catch (e) {
          throw new AgentError(
            'INVALID_ARGUMENT',
            (e as Error).message.replace(/^try_locator: /, ''),
            'Write a selector such as text="Save" or code such as getByText(\'Save\').',
          );
        }
      })();
      const obs = await observe(s);
      const matches = obs.tree_missing ? [] : resolveSteps(obs.nodes, steps);
      return {
        result: {
          verdict:
            matches.length === 1
              ? ('unique' as const)
              : matches.length === 0
                ? ('none' as const)
                : ('ambiguous' as const),
          count: matches.length,
          matches: matches.slice(0, 20).map((n) => ({
            node_id: n.id,
            node: nodeLine(n),
            suggested: suggestions(obs, n).find((x) => x.strict_safe) ?? null,
          })),
          snapshot_id: obs.snapshot_id,
        },
      };
    },
  });

  const suggest = defineAgentTool({
    name: 'suggest_locator',
    title: 'Suggest locators',
    description:
      'Ranked locators for a node of the last screen shown (by resource id, role and name, description, text, a chain inside its row, position), each checked for uniqueness on the current screen.',
    input: z.object({ ...SessionArg, node_id: z.string().min(1) }).strict(),
    result: z.object({ node: z.string(), suggestions: z.array(SuggestionSchema) }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input, ctx) {
      const s = state.sessions.get(ctx.sessionId, input.session);
      const shown = s.last ?? (await observe(s));
      const node = shown.nodes.find((n) => n.id === input.node_id);
      if (!node)
        throw new AgentError(
          'NODE_NOT_FOUND',
          `no node ${input.node_id} on the last screen shown (snapshot ${shown.snapshot_id})`,
          'Node ids hold for one screen only: call observe and use an id from it.',
        );
      const now = await observe(s);
      const current = findAgain(now, node);
      if (!current)
        throw new AgentError(
          'NODE_NOT_FOUND',
          `node ${input.node_id} (${nodeLine(node)}) is no longer on the screen`,
          'The screen changed: observe again.',
        );
      return { result: { node: nodeLine(current), suggestions: suggestions(now, current) } };
    },
  });

  const act = defineAgentTool({
    name: 'act',
    title: 'Act on the app',
    description:
      "Do what a spec does, with the same auto-waiting and strictness: tap, long_press, fill (value), clear, press (value: a key such as 'enter' or 'back'; with a selector the node is tapped first), scroll_into_view, launch (value: an activity such as '.CartActivity', or none for the launcher's: a start of the same instance, its data kept), open_link (value: a deep link as app_map lists them, e.g. 'nwshop://product/42'). Returns the node acted on and the screen after.",
    input: z
      .object({
        ...SessionArg,
        action: z.enum(ACTIONS),
        selector: z.string().min(1).optional().describe('Required except for press'),
        value: z.string().optional().describe('The text for fill, the key for press'),
        timeout_ms: z.number().int().min(0).max(60_000).optional(),
        intent: z
          .string()
          .max(500)
          .optional()
          .describe("The plan's step in words: a comment above the step's code in generate_spec"),
      })
      .strict(),
    result: z.object({ action: z.enum(ACTIONS), node: z.string().nullable(), ...ScreenResult }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(input, ctx) {
      const s = state.sessions.get(ctx.sessionId, input.session);
      const opts = input.timeout_ms !== undefined ? { timeout: input.timeout_ms } : {};
      const need = (what: string, v: string | undefined): string => {
        if (v === undefined) throw new AgentError('INVALID_ARGUMENT', `action ${input.action} needs ${what}`);
        return v;
      };
      let locator: Locator | null = null;
      let steps: ReturnType<typeof parseLocatorInput> = [];
      if (input.selector) {
        try {
          steps = parseLocatorInput(input.selector, 'act');
          locator = new Locator(s.app.driver, steps);
        } catch (e) {
          throw new AgentError('INVALID_ARGUMENT', (e as Error).message.replace(/^act: /, ''));
        }
      } else if (!['press', 'launch', 'open_link'].includes(input.action)) need('a selector', undefined);
      const key = input.action === 'press' ? KeySchema.safeParse(need('value (a key)', input.value)) : null;
      if (key && !key.success)
        throw new AgentError(
          'INVALID_ARGUMENT',
          `unknown key ${JSON.stringify(input.value)}; keys: ${KeySchema.options.join(', ')}`,
        );
      // The screen before: the best locator for the node is computed on it, for generate_spec.
      const target = input.selector ? bestLocatorCode(await observe(s), steps, input.selector) : 'app';
      const before = s.app.driver.trajectory.steps.length;
      const logged = { intent: input.intent ?? null, kind: 'action' as const, code: actCode(input, target) };
      try {
        switch (input.action) {
          case 'tap':
            await locator!.tap(opts);
            break;
          case 'long_press':
            await locator!.longPress(opts);
            break;
          case 'fill':
            await locator!.fill(need('value', input.value), opts);
            break;
          case 'clear':
            await locator!.clear(opts);
            break;
          case 'press':
            await (locator ? locator.press(key!.data!) : s.app.press(key!.data!));
            break;
          case 'scroll_into_view':
            await locator!.scrollIntoView(opts);
            break;
          case 'launch':
            await s.app.launch(input.value ? { activity: input.value } : {});
            break;
          case 'open_link':
            await s.app.intent({ data: need('value (a deep link)', input.value) });
            break;
          default: {
            const never: never = input.action;
            throw new AgentError('INVALID_ARGUMENT', `unknown action ${String(never)}`);
          }
        }
      } catch (e) {
        // The action reached the app and the app crashed in answer: the step belongs to the scenario.
        if (toEnvelope('act', e).code === 'APP_CRASHED') record(s, logged);
        throw e;
      }
      const acted = s.app.driver.trajectory.steps.slice(before).find((x) => x.node)?.node ?? null;
      record(s, logged);
      const obs = await observe(s);
      return { result: { action: input.action, node: acted ? nodeLine(acted) : null, ...screenOf(obs) } };
    },
  });

  const closeApp = defineAgentTool({
    name: 'close_app',
    title: 'Close an app',
    description: 'Stop the instance, wipe its data and delete its space.',
    input: z.object(SessionArg).strict(),
    result: z.object({ closed: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run(input, ctx) {
      await state.sessions.close(ctx.sessionId, input.session);
      return { result: { closed: input.session } };
    },
  });

  return [openApp, observeTool, tryLocator, suggest, act, closeApp];
}
