import { z } from 'zod';

/**
 * The companion's WebSocket messages, as the published app speaks them (thisuxhq/droidclaw,
 * packages/shared/src/protocol.ts and types.ts, and its Android app's CommandRouter) and as its
 * design document writes them (`execute` with an action, `screenshot` with an image). Both are
 * accepted from a phone; nestwright sends the published form (one message type per action).
 */

/** One element of `get_screen`'s answer (the app's ScreenTreeBuilder: a kept node of the accessibility tree). */
export const UIElementSchema = z.object({
  /** viewIdResourceName, `pkg:id/name`, or "". */
  id: z.string().default(''),
  /** The node's text, or its content description when it has no text. */
  text: z.string().default(''),
  /** The class name's last part (`Button`). */
  type: z.string().default(''),
  /** `[left,top][right,bottom]` in screen px. */
  bounds: z.string(),
  center: z.tuple([z.number(), z.number()]).optional(),
  size: z.tuple([z.number(), z.number()]).optional(),
  clickable: z.boolean().default(false),
  editable: z.boolean().default(false),
  enabled: z.boolean().default(true),
  checked: z.boolean().default(false),
  focused: z.boolean().default(false),
  selected: z.boolean().default(false),
  scrollable: z.boolean().default(false),
  longClickable: z.boolean().default(false),
  password: z.boolean().default(false),
  hint: z.string().default(''),
  action: z.string().optional(),
  /** The parent's class name (context, not an id). */
  parent: z.string().default(''),
  depth: z.number().int().default(0),
});
export type UIElement = z.infer<typeof UIElementSchema>;

export const DeviceInfoSchema = z
  .object({
    model: z.string().default('unknown'),
    manufacturer: z.string().default(''),
    androidVersion: z.string().default(''),
    screenWidth: z.number().int().default(0),
    screenHeight: z.number().int().default(0),
    batteryLevel: z.number().optional(),
    isCharging: z.boolean().optional(),
    /** Not in the published type: a name the phone's user gave it (the design's device_name setting). */
    name: z.string().optional(),
  })
  .passthrough();
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

const requestId = z.string().min(1);

export const DeviceMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), apiKey: z.string(), deviceInfo: DeviceInfoSchema.optional() }),
  z.object({
    type: z.literal('screen'),
    requestId,
    elements: z.array(UIElementSchema),
    screenHash: z.string().nullable().optional(),
    /** base64 JPEG, sent by the app when the tree is empty (its vision fallback). */
    screenshot: z.string().nullable().optional(),
    packageName: z.string().nullable().optional(),
  }),
  z.object({
    type: z.literal('result'),
    requestId,
    success: z.boolean(),
    error: z.string().nullable().optional(),
    data: z.string().nullable().optional(),
  }),
  /** The design's answer to get_screenshot: a JPEG, or an error such as "secure_window". */
  z.object({
    type: z.literal('screenshot'),
    requestId,
    image: z.string().nullable().optional(),
    error: z.string().nullable().optional(),
  }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('heartbeat'), batteryLevel: z.number().optional(), isCharging: z.boolean().optional() }),
  z.object({ type: z.literal('goal'), text: z.string() }),
  z.object({ type: z.literal('apps'), apps: z.array(z.unknown()) }),
  z.object({ type: z.literal('stop_goal') }),
]);
export type DeviceMessage = z.infer<typeof DeviceMessageSchema>;
/** A message that answers a request (it carries the request's id). */
export type Answer = Extract<DeviceMessage, { requestId: string }>;

/** What nestwright asks a phone (the published app's message types; `get_screenshot` is the design's). */
export type Request =
  | { type: 'get_screen' }
  | { type: 'get_screenshot' }
  | { type: 'tap' | 'longpress'; x: number; y: number }
  | { type: 'type'; text: string }
  | { type: 'swipe'; x1: number; y1: number; x2: number; y2: number; duration?: number }
  | { type: 'enter' | 'back' | 'home' | 'clear' | 'clipboard_get' | 'paste' | 'notifications' }
  | { type: 'launch'; packageName: string; intentUri?: string }
  /** nestwright's: reset an app's data (a companion that can; the published app ignores it). */
  | { type: 'clear_data'; packageName: string }
  | { type: 'clipboard_set'; text: string }
  | { type: 'open_url'; url: string }
  | { type: 'keyevent'; code: number }
  | {
      type: 'intent';
      intentAction: string;
      intentUri?: string;
      packageName?: string;
      intentExtras?: Record<string, string>;
    };

/**
 * A phone's message, parsed; the design's `execute` form (`{ type: 'execute', requestId, action }`)
 * is a request, never an answer, so it is not taken from a phone. Malformed JSON or an unknown
 * shape is an Error naming what was wrong.
 */
export function parseDeviceMessage(raw: string): DeviceMessage | Error {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return new Error(`not JSON: ${raw.slice(0, 80)}`);
  }
  const parsed = DeviceMessageSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const type = (json as { type?: unknown } | null)?.type;
  const issue = parsed.error.issues[0]!;
  return new Error(
    `a ${typeof type === 'string' ? JSON.stringify(type) : 'typeless'} message that does not parse: ${issue.path.join('.') || 'type'}: ${issue.message}`,
  );
}
