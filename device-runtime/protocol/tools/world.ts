import { z } from 'zod';
import { defineTool } from '../tool.js';
import { InstanceIdSchema, Ok, PackageNameSchema, SpaceIdSchema } from '../common.js';

/**
 * The `world` extension: what the phone tells one app instance about its surroundings — where it
 * is, what time it is, its locale, time zone and colour scheme, the notifications it posted, the
 * push messages it receives, whether a fingerprint matches, what the camera sees. A NestSpace
 * container proxies these system services per instance (the design's §3), so each instance has
 * its own world, set by these tools and gone with the instance (space_stop with remove_instance
 * or clear_data). The clipboard is the space's: sys_clipboard_get / sys_clipboard_set.
 */

/** Which instance a world tool acts on: the app's package and its instance id (`0` when left out). */
const instanceRef = {
  space_id: SpaceIdSchema,
  package: PackageNameSchema,
  instance: InstanceIdSchema.optional().describe('The instance (from space_launch); default "0"'),
};

/** Degrees within ±`limit`; the error names the value given (`91 is not a latitude: …`). */
function degrees(what: string, limit: number) {
  const error = (iss: { input?: unknown }) =>
    `${String(iss.input)} is not a ${what}: a ${what} is between -${limit} and ${limit} degrees`;
  return z.number().min(-limit, { error }).max(limit, { error });
}

export const GeolocationSchema = z.object({
  latitude: degrees('latitude', 90).describe('Degrees, -90..90'),
  longitude: degrees('longitude', 180).describe('Degrees, -180..180'),
  accuracy: z.number().min(0).default(10).describe('Metres (68% confidence radius)'),
});
export type Geolocation = z.infer<typeof GeolocationSchema>;

export const ColorSchemeSchema = z.enum(['light', 'dark']);
export type ColorScheme = z.infer<typeof ColorSchemeSchema>;

/** The instance's clock: the wall time its app reads, and whether it runs. */
export const WorldClockSchema = z.object({
  now: z.number().int().describe('Wall time the app reads now, epoch ms'),
  running: z.boolean().describe('false: the time stands still until set again'),
});

export const BiometricOutcomeSchema = z.enum(['match', 'fail', 'cancel']);
export type BiometricOutcome = z.infer<typeof BiometricOutcomeSchema>;

export const CameraImageSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  mime: z.enum(['image/png', 'image/jpeg']),
});

/** Everything the world tools set on one instance, as it stands. */
export const WorldStateSchema = z.object({
  location: GeolocationSchema.nullable().describe('null: no fix (location off or unknown)'),
  clock: WorldClockSchema,
  locale: z.string().describe('BCP 47, e.g. en-US'),
  timezone: z.string().describe('IANA time zone, e.g. Europe/Berlin'),
  color_scheme: ColorSchemeSchema,
  biometrics: z.object({
    enrolled: z.boolean(),
    next: z.array(BiometricOutcomeSchema).describe('Outcomes queued for the next authentications'),
  }),
  camera: CameraImageSchema.nullable().describe('The image the next capture returns; null: the default picture'),
});
export type WorldState = z.infer<typeof WorldStateSchema>;

export const NotificationSchema = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  channel: z.string().describe('The notification channel id, e.g. messages'),
  actions: z.array(z.object({ id: z.string(), title: z.string() })),
  posted_at: z.number().int().describe("The instance's wall time when posted, epoch ms"),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const world_get = defineTool({
  name: 'world_get',
  title: 'Read the world of {package}',
  description:
    'What the world tools have set on an instance: location, clock, locale, time zone, colour scheme, biometrics, camera.',
  extension: true,
  group: 'world',
  input: z.object(instanceRef),
  result: WorldStateSchema,
});

export const world_location_set = defineTool({
  name: 'world_location_set',
  title: 'Set location {location}',
  description: "Set the location the instance's location services report, or null for none.",
  mutating: true,
  extension: true,
  group: 'world',
  input: z.object({ ...instanceRef, location: GeolocationSchema.nullable() }),
  result: z.object({ location: GeolocationSchema.nullable() }),
});

export const world_clock_set = defineTool({
  name: 'world_clock_set',
  title: 'Set clock {time} {advance_ms} {running}',
  description:
    "Set the instance's wall clock: `time` jumps to a wall time (alarms that fall due fire, timers do not); `advance_ms` moves it forward, and the app's timers and alarms that fall due on the way fire, in order; `running` starts or stops it.",
  mutating: true,
  extension: true,
  group: 'world',
  input: z
    .object({
      ...instanceRef,
      time: z.number().int().min(0).optional().describe('Wall time to jump to, epoch ms'),
      advance_ms: z
        .number()
        .int()
        .min(0)
        .max(366 * 24 * 3_600_000)
        .optional()
        .describe('Move forward by this much, firing what falls due'),
      running: z.boolean().optional().describe('Whether the time flows (default: as it was)'),
    })
    .refine((v) => v.time !== undefined || v.advance_ms !== undefined || v.running !== undefined, {
      message: 'give time, advance_ms or running',
    }),
  result: WorldClockSchema.extend({ fired: z.number().int().describe('Timers and alarms that fired') }),
});

export const world_locale_set = defineTool({
  name: 'world_locale_set',
  title: 'Set locale {locale} {timezone} {color_scheme}',
  description:
    "Set the instance's locale (BCP 47), time zone (IANA) and colour scheme (light or dark); what is left out stays.",
  mutating: true,
  extension: true,
  group: 'world',
  input: z
    .object({
      ...instanceRef,
      locale: z.string().min(1).max(64).optional(),
      timezone: z.string().min(1).max(64).optional(),
      color_scheme: ColorSchemeSchema.optional(),
    })
    .refine((v) => v.locale !== undefined || v.timezone !== undefined || v.color_scheme !== undefined, {
      message: 'give locale, timezone or color_scheme',
    }),
  result: z.object({ locale: z.string(), timezone: z.string(), color_scheme: ColorSchemeSchema }),
});

export const world_notifications_list = defineTool({
  name: 'world_notifications_list',
  title: 'List notifications of {package}',
  description: 'The notifications the instance has posted and that are still showing, oldest first.',
  extension: true,
  group: 'world',
  input: z.object(instanceRef),
  result: z.object({ notifications: z.array(NotificationSchema) }),
});

export const world_notification_tap = defineTool({
  name: 'world_notification_tap',
  title: 'Tap notification {notification_id} {action}',
  description:
    'Tap a posted notification (or one of its actions): its intent runs and the notification goes, as with autoCancel.',
  mutating: true,
  extension: true,
  group: 'world',
  input: z.object({
    ...instanceRef,
    notification_id: z.string().min(1),
    action: z.string().min(1).optional().describe('An action id; absent: the notification itself'),
  }),
  result: z.object({ activity: z.string().nullable().describe('The activity the tap brought to the front, if any') }),
});

export const world_notification_dismiss = defineTool({
  name: 'world_notification_dismiss',
  title: 'Dismiss notification {notification_id}',
  description: 'Swipe a posted notification away.',
  mutating: true,
  extension: true,
  group: 'world',
  input: z.object({ ...instanceRef, notification_id: z.string().min(1) }),
  result: Ok,
});

export const world_push = defineTool({
  name: 'world_push',
  title: 'Push {data}',
  description:
    "Deliver a push message to the instance as its messaging service (FCM) would: the data payload, to the app's handler.",
  mutating: true,
  extension: true,
  group: 'world',
  input: z.object({
    ...instanceRef,
    data: z
      .record(z.string(), z.string())
      .refine((d) => JSON.stringify(d).length <= 4096, { message: 'a push payload is at most 4096 bytes' }),
  }),
  result: z.object({ handled: z.boolean().describe('false: the app has no push handler') }),
});

export const world_biometrics_set = defineTool({
  name: 'world_biometrics_set',
  title: 'Biometrics {enrolled} {next}',
  description:
    'Enrol a fingerprint or remove it, and queue the outcome of the next authentication (match, fail or cancel); a prompt already showing takes the outcome at once.',
  mutating: true,
  extension: true,
  group: 'world',
  input: z
    .object({ ...instanceRef, enrolled: z.boolean().optional(), next: BiometricOutcomeSchema.optional() })
    .refine((v) => v.enrolled !== undefined || v.next !== undefined, { message: 'give enrolled or next' }),
  result: z.object({ enrolled: z.boolean(), next: z.array(BiometricOutcomeSchema) }),
});

export const world_camera_set = defineTool({
  name: 'world_camera_set',
  title: 'Set camera image',
  description:
    "The picture the instance's next captures return: a PNG or JPEG (base64), or null for the default picture.",
  mutating: true,
  extension: true,
  group: 'world',
  input: z.object({ ...instanceRef, image: z.string().max(20_000_000).nullable().describe('base64 PNG or JPEG') }),
  result: z.object({ camera: CameraImageSchema.nullable() }),
});

export const worldTools = [
  world_get,
  world_location_set,
  world_clock_set,
  world_locale_set,
  world_notifications_list,
  world_notification_tap,
  world_notification_dismiss,
  world_push,
  world_biometrics_set,
  world_camera_set,
] as const;
