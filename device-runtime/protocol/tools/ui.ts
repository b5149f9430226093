import { z } from 'zod';
import { defineTool } from '../tool.js';
import { BoundsSchema, PointSchema, SpaceIdSchema } from '../common.js';
import { ObservationSchema, UiNodeSchema } from '../observation.js';
import { WireStepSchema } from '../wire-steps.js';
import { ObservationDiffSchema, ObserveSinceSchema } from '../observe-diff.js';

const space_id = SpaceIdSchema;

/**
 * How an action names its target (docs/protocol.md#actions: node_id / bounds / text; node_id preferred). A node id
 * only means something within its snapshot: pass `snapshot_id` and the runtime answers
 * SNAPSHOT_STALE when the screen has changed since, instead of acting on the wrong node.
 */
const targetFields = {
  node_id: z.string().optional(),
  snapshot_id: z.string().optional(),
  bounds: BoundsSchema.optional(),
  text: z.string().optional(),
  point: PointSchema.optional(),
};
/**
 * Extension `selector_actions` (docs/protocol.md#actions): name the target by a locator's steps
 * and let the runtime wait for it, act and verify next to the screen, in one round trip. The
 * runtime waits as the framework does (device-runtime/protocol/actionability.ts: one match,
 * visible, enabled, stable; hiding the keyboard and scrolling lists to find it), brings `app` to
 * the front first, repeats an action that showed no effect (at most 3 times) and answers with
 * the node, the observation after and the wait's call log. TIMEOUT and AMBIGUOUS_TARGET carry
 * `details.log` and `details.observation` (AMBIGUOUS_TARGET also `details.matches`).
 */
const selectorFields = {
  selector: z
    .array(WireStepSchema)
    .min(1)
    .optional()
    .describe("Extension (selector_actions): the target as a locator's steps"),
  wait: z
    .object({
      timeout_ms: z.number().int().min(0).max(600_000).default(5_000),
      enabled: z.boolean().default(true).describe('Wait for the node to be enabled'),
      scroll: z.boolean().default(true).describe('Scroll lists and hide the keyboard to find the node'),
    })
    .optional()
    .describe('Extension (selector_actions): how long and for what to wait; with selector only'),
  app: z
    .object({ package: z.string(), instance: z.string().optional() })
    .optional()
    .describe('Extension (selector_actions): the app instance acted on, brought to the front first'),
  max_nodes: z
    .number()
    .int()
    .min(1)
    .max(5000)
    .default(400)
    .describe('Extension (selector_actions): nodes in the observation answered'),
  observe_before: z
    .boolean()
    .default(false)
    .describe('Extension (selector_actions): also answer the observation the node was found in'),
};
/**
 * Extensions `selector_actions` and `observe_diff` together: an action's `observation` (the
 * screen after it) sent as what changed since the last observation the client holds, as
 * ui_observe's `since` does. A `since` with another hash than the runtime's base gets the whole
 * observation (the action is done: it is not refused).
 */
const actionSince = {
  since: ObserveSinceSchema.optional().describe(
    "Extension (observe_diff, with selector): the last observation this client holds, taken as this call's max_nodes; `observation` is then answered as a diff against it",
  ),
};
type TargetFields = { node_id?: string; bounds?: unknown; text?: string; point?: unknown; selector?: unknown };
const oneTarget = (v: TargetFields) =>
  [v.node_id, v.bounds, v.text, v.point, v.selector].filter((x) => x !== undefined).length === 1;
const oneTargetMessage = { message: 'give exactly one of node_id, bounds, text, point or selector' };

export const ActionResultSchema = z.object({
  ok: z.literal(true),
  method: z.enum(['node', 'gesture']).describe('Node action, or the gesture fallback (docs/protocol.md#actions)'),
  node: UiNodeSchema.nullable().describe('The node acted on, when there was one'),
  matched: UiNodeSchema.optional().describe(
    'Extension (selector_actions): the node the selector matched (`node` is the one acted on: it, or its clickable ancestor)',
  ),
  snapshot_id: z
    .string()
    .optional()
    .describe('Extension (selector_actions): the snapshot the node was found in (the screen before the action)'),
  observation: ObservationSchema.extend({
    diff: ObservationDiffSchema.optional().describe(
      'Extension (observe_diff): given `since`, what changed since that snapshot (then `nodes` is empty)',
    ),
  })
    .optional()
    .describe('Extension (selector_actions): the screen after the action'),
  observation_before: ObservationSchema.optional().describe(
    'Extension (selector_actions): with observe_before, the screen the node was found in',
  ),
  effect: z
    .boolean()
    .optional()
    .describe(
      'Extension (selector_actions): the action showed an effect (false: it was repeated 3 times without one, or the effect could not be seen)',
    ),
  attempts: z
    .number()
    .int()
    .optional()
    .describe('Extension (selector_actions): how many times the action was performed'),
  log: z.array(z.string()).optional().describe("Extension (selector_actions): the wait's call log"),
});
export type ActionResult = z.infer<typeof ActionResultSchema>;

export const KeySchema = z.enum([
  'back',
  'home',
  'recents',
  'enter',
  'delete',
  'tab',
  'search',
  'menu',
  'notifications',
]);
export type Key = z.infer<typeof KeySchema>;

export const ui_observe = defineTool({
  name: 'ui_observe',
  title: 'Observe screen',
  description:
    'Return the flattened node tree of the space display. With include_screenshot, `screenshot` is the sha256 of the rendered screen and the MCP result also carries that PNG as an image content block.',
  input: z.object({
    space_id,
    max_nodes: z.number().int().min(1).max(50_000).default(120),
    detail: z.enum(['compact', 'full']).default('compact'),
    include_screenshot: z.boolean().default(false),
    since: ObserveSinceSchema.optional(),
  }),
  result: ObservationSchema.extend({
    diff: ObservationDiffSchema.optional().describe(
      'Extension (observe_diff): given `since`, what changed since that snapshot (then `nodes` is empty)',
    ),
  }),
});

/**
 * Extension `screen_regions`: a part of a screenshot that shows system UI rather than the app —
 * what changes between runs for reasons no test controls (the clock, battery and signal in the
 * status bar; the navigation bar; a blinking caret; a scrollbar fading out).
 */
export const ScreenRegionSchema = z.object({
  kind: z.enum(['status_bar', 'navigation_bar', 'caret', 'scrollbar']),
  bounds: BoundsSchema.describe('In screen px (scale 1), as node bounds are'),
});
export type ScreenRegion = z.infer<typeof ScreenRegionSchema>;

export const ui_screenshot = defineTool({
  name: 'ui_screenshot',
  title: 'Screenshot',
  description:
    'Return a PNG screenshot of the space display. Over MCP the PNG is an image content block (mimeType image/png) and the structured content holds its size and sha256.',
  input: z.object({ space_id, scale: z.number().min(0.05).max(1).default(1) }),
  imageField: 'data',
  result: z.object({
    mime: z.literal('image/png'),
    data: z.string().describe('base64'),
    width: z.number().int(),
    height: z.number().int(),
    sha256: z.string(),
    snapshot_id: z.string().nullable(),
    regions: z
      .array(ScreenRegionSchema)
      .optional()
      .describe(
        'Extension (screen_regions): where the picture shows system UI a test should not compare (status bar, navigation bar, caret, scrollbar), in screen px',
      ),
  }),
});

export const ui_tap = defineTool({
  name: 'ui_tap',
  title: 'Tap {target}',
  description: 'Tap a node (preferred), bounds, text, or a point.',
  mutating: true,
  input: z.object({ space_id, ...targetFields, ...selectorFields, ...actionSince }).refine(oneTarget, oneTargetMessage),
  result: ActionResultSchema,
});

export const ui_long_press = defineTool({
  name: 'ui_long_press',
  title: 'Long-press {target}',
  description: 'Long-press a node, bounds, text, or a point.',
  mutating: true,
  input: z
    .object({
      space_id,
      ...targetFields,
      ...selectorFields,
      ...actionSince,
      duration_ms: z.number().int().min(100).max(10_000).default(800),
    })
    .refine(oneTarget, oneTargetMessage),
  result: ActionResultSchema,
});

export const ui_swipe = defineTool({
  name: 'ui_swipe',
  title: 'Swipe {from} → {to}',
  description: 'Swipe along a straight path.',
  mutating: true,
  input: z.object({
    space_id,
    from: PointSchema,
    to: PointSchema,
    duration_ms: z.number().int().min(10).max(10_000).default(300),
  }),
  result: z.object({ ok: z.literal(true) }),
});

export const ui_scroll = defineTool({
  name: 'ui_scroll',
  title: 'Scroll {direction}',
  description:
    "Scroll the given scrollable node, or the largest one on screen (ACTION_SCROLL_FORWARD/BACKWARD). Extension (selector_actions): with `selector` instead of `direction`, scroll the screen's list (down to its end, then back up; waiting while it loads its next page) until the selector names one visible, stable node, and answer with it and the observation it was found in.",
  mutating: true,
  input: z
    .object({
      space_id,
      direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('Required unless selector is given'),
      node_id: z.string().optional(),
      snapshot_id: z.string().optional(),
      amount: z.number().min(0.1).max(10).default(1).describe('Pages (with selector: one page per scroll)'),
      ...selectorFields,
    })
    .refine(
      (v) =>
        (v.direction === undefined) !== (v.selector === undefined) &&
        !(v.selector !== undefined && v.node_id !== undefined),
      {
        message:
          'give direction (and optionally node_id), or selector (extension selector_actions) to scroll until its node is in view',
      },
    ),
  result: z.object({
    ok: z.literal(true),
    moved: z.boolean().describe('False at the end of the list (with selector: whether the list was scrolled at all)'),
    node: UiNodeSchema.optional().describe('Extension (selector_actions): the node the selector named, now in view'),
    snapshot_id: z.string().optional().describe('Extension (selector_actions): the snapshot the node was found in'),
    observation: ObservationSchema.optional().describe(
      'Extension (selector_actions): the screen the node was found in (the screen after)',
    ),
    log: z.array(z.string()).optional().describe("Extension (selector_actions): the wait's call log"),
  }),
});

export const ui_set_text = defineTool({
  name: 'ui_set_text',
  title: 'Type {text} into {target}',
  description: 'Set the text of an editable node (ACTION_SET_TEXT → clipboard paste → keystrokes).',
  mutating: true,
  input: z
    .object({
      space_id,
      node_id: z.string().optional(),
      snapshot_id: z.string().optional(),
      bounds: BoundsSchema.optional(),
      text: z.string().max(100_000),
      submit: z.boolean().default(false).describe('Press enter afterwards'),
      ...selectorFields,
      ...actionSince,
    })
    .refine((v) => [v.node_id, v.bounds, v.selector].filter((x) => x !== undefined).length === 1, {
      message: 'give one of node_id, bounds or selector for the field to type into',
    }),
  result: ActionResultSchema,
});

export const ui_key = defineTool({
  name: 'ui_key',
  title: 'Press {key}',
  description: 'Press a key: back, home, recents, enter, delete, …',
  mutating: true,
  input: z.object({ space_id, key: KeySchema }),
  result: z.object({ ok: z.literal(true) }),
});

export const ui_wait_for = defineTool({
  name: 'ui_wait_for',
  title: 'Wait for {condition}',
  description:
    'Wait until the text is on screen, the package or activity is in front, or the UI is idle; every condition given must hold at once. At the timeout it answers matched: false (not an error). Extension (selector_actions): `selector` waits until it names exactly `count` nodes (default 1: the node is visible; 0: none is) — `gone` waits for that to stop holding — and answers with the matches and the last observation.',
  input: z
    .object({
      space_id,
      text: z.string().optional(),
      gone: z
        .boolean()
        .default(false)
        .describe('Wait for the text to go away (with selector: for the count to stop holding) instead'),
      package: z.string().optional(),
      activity: z.string().optional(),
      idle: z.boolean().optional(),
      timeout_ms: z.number().int().min(0).max(600_000).default(5_000),
      selector: selectorFields.selector,
      count: z
        .number()
        .int()
        .min(0)
        .max(5_000)
        .optional()
        .describe(
          'Extension (selector_actions): how many nodes the selector must name (default 1, the strict "visible"); with selector only',
        ),
      app: selectorFields.app,
      max_nodes: selectorFields.max_nodes,
    })
    .refine(
      (v) =>
        v.text !== undefined ||
        v.package !== undefined ||
        v.activity !== undefined ||
        v.idle ||
        v.selector !== undefined,
      {
        message: 'give at least one of text, package, activity, idle or selector',
      },
    )
    .refine((v) => v.count === undefined || v.selector !== undefined, {
      message: 'count needs a selector: the number of nodes it must name',
      path: ['count'],
    })
    .refine((v) => v.text === undefined || v.selector === undefined, {
      message: 'give text or selector, not both (text="…" is a selector step)',
    }),
  result: z.object({
    matched: z.boolean(),
    elapsed_ms: z.number().int(),
    snapshot_id: z.string().nullable(),
    count: z
      .number()
      .int()
      .optional()
      .describe('Extension (selector_actions): how many nodes the selector named in the last look'),
    matches: z
      .array(UiNodeSchema)
      .optional()
      .describe('Extension (selector_actions): the nodes the selector named in the last look'),
    observation: ObservationSchema.optional().describe('Extension (selector_actions): the last look'),
    log: z.array(z.string()).optional().describe('Extension (selector_actions): what each look saw'),
  }),
});

export const ui_find = defineTool({
  name: 'ui_find',
  title: 'Find {text}',
  description:
    'Find nodes on the current screen by a selector and/or exact fields; every argument given must hold for the same node (none: every node).',
  input: z.object({
    space_id,
    selector: z
      .string()
      .optional()
      .describe(
        'app.locator() syntax, resolved by the shared selector engine: text=Save (substring, case-insensitive), text="Save" (exact), desc=, id=, class=, role=button[name="Save"], has-text=, nth=, joined by >>',
      ),
    text: z.string().optional().describe('Text equal to this (as text="…")'),
    desc: z.string().optional().describe('Content description equal to this (as desc="…")'),
    res_id: z.string().optional().describe('Resource id, full (pkg:id/save) or its entry name (save), as id='),
    role: z.string().optional().describe('Role, as role='),
  }),
  result: z.object({ snapshot_id: z.string().nullable(), nodes: z.array(UiNodeSchema) }),
});

export const uiTools = [
  ui_observe,
  ui_screenshot,
  ui_tap,
  ui_long_press,
  ui_swipe,
  ui_scroll,
  ui_set_text,
  ui_key,
  ui_wait_for,
  ui_find,
] as const;
