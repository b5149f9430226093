/**
 * What `nestwright crawl` writes beside its app map (`crawl.json`), as zod schemas with their
 * types inferred: the map page, `show-crawl`, the suite writer and the bench read the same file.
 */
import { z } from 'zod';
import { UiNodeSchema } from '../../device-runtime/protocol/index.js';

/** A value typed into a field: plain text, or a reference to a secret (an environment variable) whose value is never written. */
export const InputValueSchema = z.union([
  z.string(),
  z.object({ secret: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) }),
]);
export type InputValue = z.infer<typeof InputValueSchema>;

/** One thing the crawler does on a screen; targets are `app.locator()` selectors, the framework's best for the node. */
export const ActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tap'), selector: z.string(), code: z.string(), label: z.string() }),
  z.object({ kind: z.literal('longPress'), selector: z.string(), code: z.string(), label: z.string() }),
  z.object({
    kind: z.literal('fill'),
    selector: z.string(),
    code: z.string(),
    label: z.string(),
    value: InputValueSchema,
  }),
  /** Fill every field of the screen (configured inputs, else a value of its kind), tick its checkboxes, then tap. */
  z.object({
    kind: z.literal('submit'),
    fields: z.array(z.object({ selector: z.string(), code: z.string(), value: InputValueSchema })),
    checks: z.array(z.object({ selector: z.string(), code: z.string() })),
    selector: z.string(),
    code: z.string(),
    label: z.string(),
  }),
  z.object({ kind: z.literal('swipe'), selector: z.string(), code: z.string(), label: z.string() }),
  z.object({ kind: z.literal('back') }),
]);
export type Action = z.infer<typeof ActionSchema>;

/** How a branch starts: a fresh instance at its launcher or one of its activities, or through a deep link. */
export const EntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('launch'), activity: z.string().nullable(), exported: z.boolean() }),
  z.object({ kind: z.literal('deepLink'), uri: z.string() }),
]);
export type Entry = z.infer<typeof EntrySchema>;

/** The way to a screen from a fresh instance: the start path (if configured), an entry, then actions. */
export const PathSchema = z.object({ entry: EntrySchema, actions: z.array(ActionSchema) });
export type CrawlPath = z.infer<typeof PathSchema>;

export const ScreenKindSchema = z.enum(['screen', 'dialog', 'permission', 'other-app']);

export const FindingSchema = z.object({
  rule: z.string(),
  severity: z.string(),
  message: z.string(),
  selector: z.string(),
});

export const ScreenSchema = z.object({
  /** `s1`, `s2`… in the order found. */
  id: z.string(),
  /** The structure hash (activity + node shapes): equal keys, same screen. */
  key: z.string(),
  kind: ScreenKindSchema,
  package: z.string().nullable(),
  activity: z.string().nullable(),
  /** A name for people: the activity and the screen's title or first text. */
  title: z.string(),
  /** The shortest known path from a fresh instance. */
  path: PathSchema,
  /** What a spec asserts to know it is here: a few of the screen's own locators, and what its look-alikes have and it lacks (`hidden`). */
  identify: z.array(z.object({ selector: z.string(), code: z.string(), hidden: z.boolean().optional() })),
  /** The nodes of the first look (the map's detail view, the bench's ground-truth match). */
  nodes: z.array(UiNodeSchema),
  screenshot: z.string().nullable(),
  /** Accessibility findings of the screen (framework/a11y's rules, without pixels unless a screenshot was taken). */
  accessibility: z.array(FindingSchema),
  /** Visual baseline candidate: the screen settled (two looks alike) and shows the app. */
  stable: z.boolean(),
  foundAtMs: z.number(),
  /** Actions tried from it / left when the crawl stopped. */
  explored: z.number().int(),
  unexplored: z.number().int(),
});
export type CrawlScreen = z.infer<typeof ScreenSchema>;

export const TransitionSchema = z.object({
  from: z.string(),
  /** A screen id, or `crash:<n>` */
  to: z.string(),
  action: ActionSchema,
});
export type Transition = z.infer<typeof TransitionSchema>;

export const CrashSchema = z.object({
  id: z.string(),
  /** What the runtime said: the exception and its stack. */
  reason: z.string(),
  /** The path that reproduces it: its last action crashes the app. */
  path: PathSchema,
  screen: z.string(),
  /** The instance's logcat at the crash. */
  log: z.array(z.string()),
  /** Replayed from a fresh instance after it was found: crashed again. */
  reproduced: z.boolean(),
  foundAtMs: z.number(),
});
export type Crash = z.infer<typeof CrashSchema>;

export const CrawlResultSchema = z.object({
  version: z.literal(1),
  app: z.object({
    package: z.string(),
    apk: z.string().nullable(),
    label: z.string().nullable(),
    activities: z.array(z.object({ name: z.string(), exported: z.boolean() })),
    deepLinks: z.array(z.string()),
  }),
  settings: z.object({
    instances: z.number().int(),
    seed: z.number().int(),
    minutes: z.number(),
    /** `instances`: a fresh instance per branch; `clear-data`: one copy, its data cleared between branches. */
    mode: z.enum(['instances', 'clear-data']),
    profile: z.string().nullable(),
    avoided: z.array(z.string()),
  }),
  /** Why it stopped: `exhausted` (nothing new left to try) or `time`. */
  stopped: z.enum(['exhausted', 'time']),
  elapsedMs: z.number(),
  branches: z.number().int(),
  actions: z.number().int(),
  screens: z.array(ScreenSchema),
  transitions: z.array(TransitionSchema),
  crashes: z.array(CrashSchema),
  activitiesReached: z.array(z.string()),
  /** Time (ms from the start) at which each screen count was reached: the discovery curve. */
  timeline: z.array(z.object({ ms: z.number(), screens: z.number().int(), activities: z.number().int() })),
  /** Problems met on the way (a path that no longer reached its screen, an action that failed): not fatal. */
  notes: z.array(z.string()),
});
export type CrawlResult = z.infer<typeof CrawlResultSchema>;

/** An action in words, for logs and the map: `tap id=login`, `fill id=email`, `back`. */
export function describeAction(a: Action): string {
  switch (a.kind) {
    case 'back':
      return 'back';
    case 'submit':
      return `fill the form, tap ${a.label}`;
    default:
      return `${a.kind} ${a.label}`;
  }
}

export function describeEntry(e: Entry): string {
  return e.kind === 'deepLink' ? `open ${e.uri}` : e.activity ? `launch ${e.activity}` : 'launch';
}
