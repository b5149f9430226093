import { z } from 'zod';
import { BoundsSchema, ChannelSchema, SpaceIdSchema } from './common.js';

/**
 * One node of an observation (docs/protocol.md#observation). The tree is flattened: only nodes that are visible and
 * clickable, editable, or carry text or a description are kept (all nodes with `detail=full`).
 * Fields after `selected` extend docs/protocol.md#observation with what AccessibilityNodeInfo exposes on every device.
 */
export const UiNodeSchema = z.object({
  id: z.string().describe('Stable within one snapshot only'),
  role: z.string().describe('button, text, textbox, checkbox, switch, image, list, listitem, …'),
  text: z.string().nullable(),
  desc: z.string().nullable(),
  bounds: BoundsSchema,
  clickable: z.boolean(),
  editable: z.boolean(),
  scrollable: z.boolean(),
  enabled: z.boolean(),
  focused: z.boolean(),
  selected: z.boolean(),
  class: z.string().optional().describe('Android class name, e.g. android.widget.Button'),
  res_id: z.string().nullable().optional().describe('Full resource id, pkg:id/name'),
  long_clickable: z.boolean().optional(),
  checkable: z.boolean().optional(),
  checked: z.boolean().optional(),
  password: z.boolean().optional(),
  hint: z.string().nullable().optional(),
  parent: z.string().nullable().optional().describe('Id of the nearest kept ancestor'),
  depth: z.number().int().optional(),
});
export type UiNode = z.infer<typeof UiNodeSchema>;

export const ScreenSchema = z.object({
  width: z.number().int(),
  height: z.number().int(),
  rotation: z.number().int(),
});
export type Screen = z.infer<typeof ScreenSchema>;

export const ObservationSchema = z.object({
  snapshot_id: z.string(),
  space_id: SpaceIdSchema,
  package: z.string().nullable(),
  activity: z.string().nullable(),
  instance: z.string().nullable().optional().describe('Extension: the foreground instance'),
  screen: ScreenSchema,
  nodes: z.array(UiNodeSchema),
  truncated: z.boolean().optional().describe('True when max_nodes cut the list'),
  tree_missing: z
    .boolean()
    .optional()
    .describe('The accessibility root was null (a transition); nodes is empty, observe again'),
  screen_hash: z.string().optional().describe('Hash of node ids, texts and centers: equal hashes, same screen'),
  screenshot: z.string().nullable().describe('sha256:<hex> of the rendered screen, or null'),
  channel: ChannelSchema.optional(),
  keyboard: z
    .object({ bounds: BoundsSchema })
    .nullable()
    .optional()
    .describe(
      'Extension (keyboard): the soft keyboard window (an input-method AccessibilityWindowInfo) when it is up, else null; absent when the runtime does not report it',
    ),
  timestamp_ms: z.number().int(),
});
export type Observation = z.infer<typeof ObservationSchema>;
