import { toolError } from '../../protocol/index.js';
import type { SimInstance } from '../core/instance.js';
import { SimError } from '../core/sim-error.js';
import { deliverPush, tickWorld } from '../world/app-world.js';
import { decodeCameraImage } from '../world/camera-image.js';
import { checkLocale, checkTimeZone } from '../world/locale.js';
import type { NotificationIntent } from '../world/sim-world.js';
import type { DeviceSpace, HandlerGroup, SlotHost, SpaceLookup } from './types.js';

type WorldTools =
  | 'world_get'
  | 'world_location_set'
  | 'world_clock_set'
  | 'world_locale_set'
  | 'world_notifications_list'
  | 'world_notification_tap'
  | 'world_notification_dismiss'
  | 'world_push'
  | 'world_biometrics_set'
  | 'world_camera_set';

/** The world tools find an instance in a space; a tapped notification may start it (a slot). */
export type WorldHost = SpaceLookup & SlotHost;

interface Ref {
  space_id: string;
  package: string;
  instance?: string | undefined;
}

/** The instance a world tool names: APP_NOT_INSTALLED, then INSTANCE_NOT_FOUND, with hints. */
function target(rt: WorldHost, args: Ref): { space: DeviceSpace; inst: SimInstance } {
  const space = rt.space(args.space_id);
  space.app(args.package);
  return { space, inst: space.instance(args.package, args.instance ?? '0') };
}

/** The posted notification `id`, or NOTIFICATION_NOT_FOUND naming it and what is posted. */
function posted(api: string, inst: SimInstance, id: string) {
  const n = inst.world.notifications.find((x) => x.id === id);
  if (n) return n;
  const ids = inst.world.notifications.map((x) => x.id);
  throw new SimError(
    toolError(
      'NOTIFICATION_NOT_FOUND',
      `${api}: ${inst.key} has no notification ${JSON.stringify(id)} (it was dismissed or tapped, or never posted)`,
      {
        hint: `Posted now: ${ids.join(', ') || '(none)'}. List them with world_notifications_list.`,
        details: { notification_id: id, posted: ids },
      },
    ),
  );
}

/** What a tap runs: app code, then the activity (a PendingIntent.getActivity), which brings the instance up. */
function open(
  rt: WorldHost,
  space: DeviceSpace,
  inst: SimInstance,
  intent: NotificationIntent | undefined,
): string | null {
  if (intent?.run) inst.runApp(intent.run);
  if (!intent?.activity) return null;
  const { pid } = rt.assignSlot(inst, space);
  inst.start(undefined, pid);
  const top = inst.top;
  const same = top?.name === intent.activity && JSON.stringify(top.extras) === JSON.stringify(intent.extras ?? {});
  if (!(intent.singleTop && same)) inst.push(intent.activity, { ...(intent.extras ?? {}) });
  space.bringToFront(inst);
  return intent.activity;
}

export const worldHandlers: HandlerGroup<WorldTools, WorldHost> = {
  world_get: (args, rt) => target(rt, args).inst.world.state(),

  world_location_set: (args, rt) => {
    const { space, inst } = target(rt, args);
    inst.world.location = args.location;
    space.invalidate();
    return { location: inst.world.location };
  },

  world_clock_set: (args, rt) => {
    const { space, inst } = target(rt, args);
    const w = inst.world;
    // Stopped or started first: a time given with `running: false` is then the time that stands,
    // not the time plus the device's milliseconds between the two steps.
    if (args.running !== undefined) w.setRunning(args.running);
    if (args.time !== undefined) w.setTime(args.time);
    if (args.advance_ms) {
      w.advance(args.advance_ms);
      inst.advanceTimers(args.advance_ms);
    }
    const now = inst.env.clock.now();
    let fired = tickWorld(inst, now);
    fired += inst.timers.filter((t) => t.due <= now && inst.stack.includes(t.record)).length;
    inst.pump(now);
    space.invalidate();
    return { now: Math.round(w.now()), running: w.isRunning(), fired };
  },

  world_locale_set: (args, rt) => {
    const { space, inst } = target(rt, args);
    // Both checked before either is set: a bad time zone leaves the locale as it was.
    const locale = args.locale !== undefined ? checkLocale('world_locale_set', args.locale) : inst.world.locale;
    const timeZone =
      args.timezone !== undefined ? checkTimeZone('world_locale_set', args.timezone) : inst.world.timeZone;
    inst.world.locale = locale;
    inst.world.timeZone = timeZone;
    if (args.color_scheme) inst.world.colorScheme = args.color_scheme;
    space.invalidate();
    return { locale, timezone: timeZone, color_scheme: inst.world.colorScheme };
  },

  world_notifications_list: (args, rt) => {
    const { inst } = target(rt, args);
    // What fell due meanwhile (an alarm, a message) is posted before the list is read.
    inst.pump(inst.env.clock.now());
    return { notifications: inst.world.listed() };
  },

  world_notification_tap: (args, rt) => {
    const { space, inst } = target(rt, args);
    const n = posted('world_notification_tap', inst, args.notification_id);
    let intent = n.tap;
    if (args.action !== undefined) {
      const action = (n.actions ?? []).find((a) => a.id === args.action);
      if (!action) {
        throw new SimError(
          toolError(
            'INVALID_ARGUMENT',
            `world_notification_tap: notification ${n.id} has no action ${JSON.stringify(args.action)}`,
            {
              hint: `Its actions: ${(n.actions ?? []).map((a) => `${a.id} (${a.title})`).join(', ') || '(none)'}.`,
            },
          ),
        );
      }
      intent = action;
    }
    inst.world.notifications = inst.world.notifications.filter((x) => x !== n);
    return { activity: open(rt, space, inst, intent) };
  },

  world_notification_dismiss: (args, rt) => {
    const { inst } = target(rt, args);
    const n = posted('world_notification_dismiss', inst, args.notification_id);
    inst.world.notifications = inst.world.notifications.filter((x) => x !== n);
    return { ok: true as const };
  },

  world_push: (args, rt) => {
    const { inst } = target(rt, args);
    return { handled: deliverPush(inst, args.data) };
  },

  world_biometrics_set: (args, rt) => {
    const { space, inst } = target(rt, args);
    const w = inst.world;
    if (args.enrolled !== undefined) w.enrolled = args.enrolled;
    if (args.next) {
      const prompt = w.prompt;
      // A prompt on screen takes the outcome now, as a finger on the sensor would.
      if (prompt && w.enrolled) inst.runApp(() => prompt(args.next!));
      else w.nextAuth.push(args.next);
    }
    space.invalidate();
    return { enrolled: w.enrolled, next: [...w.nextAuth] };
  },

  world_camera_set: (args, rt) => {
    const { inst } = target(rt, args);
    inst.world.camera = args.image === null ? null : decodeCameraImage('world_camera_set', args.image);
    return { camera: inst.world.camera };
  },
};
