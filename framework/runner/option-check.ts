import { inspect } from 'node:util';
import { z } from 'zod';
import { nearest } from '../../device-runtime/protocol/nearest.js';
import { DeviceOptionsSchema } from '../../device-runtime/providers/options.js';
import { AiOptionsSchema } from '../ai/options.js';
import { NestwrightError } from '../core/errors.js';
import { SkillOptionsSchema } from '../skills/options.js';
import { VideoOptionSchema } from '../video/options.js';
import type { CHECKED_OPTIONS, NestwrightOptions } from './use-options.js';

/** The nearest-name helper lives in the protocol, so the simulator's errors name the nearest too. */
export { nearest };

const HEAL_MODES = z.enum(['off', 'suggest', 'auto']);

/**
 * nestwright's own keys of `use` whose values can be mistyped: the enums, and the objects that are
 * entirely nestwright's (`deviceOptions`, `heal`, `ai`, `skills`), where a key nothing reads is a
 * typo. The rest of `use` is not checked key by key: Playwright's own options (baseURL, video, …)
 * and a user's `test.extend()` options share it, and nothing here can tell those from a typo.
 */
const OPTION_VALUES = z.object({
  deviceOptions: DeviceOptionsSchema,
  channel: z.enum(['accessibility', 'shizuku', 'vision']),
  trajectory: z.enum(['on', 'retain-on-failure', 'off']),
  deviceActions: z.enum(['auto', 'off']),
  colorScheme: z.enum(['light', 'dark', 'no-preference']).nullable(),
  heal: z.union([HEAL_MODES, z.object({ mode: HEAL_MODES.optional(), model: z.unknown() })]),
  ai: AiOptionsSchema,
  skills: SkillOptionsSchema,
  deviceLogs: z.enum(['off', 'on', 'retain-on-failure']),
  video: VideoOptionSchema,
} satisfies Record<(typeof CHECKED_OPTIONS)[number], z.ZodType>);
// A compile error here means an option's type in use-options.ts and its values here have drifted apart.
type Values = z.input<typeof OPTION_VALUES>;
type Same<K extends keyof Values & keyof NestwrightOptions> = [Values[K], Exclude<NestwrightOptions[K], undefined>];
const inSync: [Same<'trajectory'>, Same<'deviceActions'>, Same<'colorScheme'>, Same<'channel'>] extends [
  [infer A, infer B],
  [infer C, infer D],
  [infer E, infer F],
  [infer G, infer H],
]
  ? [A, C, E, G] extends [B, D, F, H]
    ? [B, D, F, H] extends [A, C, E, G]
      ? true
      : never
    : never
  : never = true;
void inSync;

/** One mistyped key or value: where (`use.deviceOptions.fault`), what, and the fix. */
export interface OptionTypo {
  path: string;
  message: string;
}

/**
 * The typos in one `use` (a project's, or what a fixture was given): keys of nestwright's own
 * option objects that nothing reads, and values outside an option's enum, each naming the nearest
 * known key or the allowed values. Types that are wrong otherwise are left to where the option is
 * read (connectDevice, the AI options), which says what it expected.
 */
export function optionTypos(use: Readonly<Record<string, unknown>>): OptionTypo[] {
  const found: OptionTypo[] = [];
  for (const [key, schema] of Object.entries(OPTION_VALUES.shape)) {
    const value = use[key];
    if (value !== undefined) walk(schema, value, `use.${key}`, found);
  }
  return found;
}

/** {@link optionTypos} as the error that fails the run or the test: the first typo, code `OPTION_INVALID`. */
export function checkOptions(use: Readonly<Record<string, unknown>>): void {
  const [first, ...more] = optionTypos(use);
  if (!first) return;
  const also = more.length ? ` (and ${more.map((t) => t.path).join(', ')})` : '';
  throw new NestwrightError(first.path, `${first.message}${also}`, { code: 'OPTION_INVALID' });
}

function walk(schema: z.ZodType, value: unknown, path: string, found: OptionTypo[]): void {
  const def = schema.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      if (value === null && def.type === 'nullable') return;
      return walk((schema as z.ZodOptional).unwrap() as z.ZodType, value, path, found);
    case 'enum':
    case 'literal': {
      const allowed = [...(def.type === 'enum' ? (schema as z.ZodEnum).options : (schema as z.ZodLiteral).values)];
      if (typeof value === 'string' && !allowed.includes(value)) found.push(badValue(path, value, allowed.map(String)));
      return;
    }
    case 'object':
      return walkObject(schema as z.ZodObject, value, path, found);
    case 'union': {
      const members = (schema as z.ZodUnion).options as z.ZodType[];
      const discriminator = (def as { discriminator?: string }).discriminator;
      if (discriminator) {
        if (!isObject(value)) return;
        const tag = value[discriminator];
        const tags = members.flatMap((m) => [...((m as z.ZodObject).shape[discriminator] as z.ZodLiteral).values]);
        const member = members.find((m) =>
          ((m as z.ZodObject).shape[discriminator] as z.ZodLiteral).values.has(tag as never),
        );
        if (member) return walk(member, value, path, found);
        if (typeof tag === 'string') found.push(badValue(`${path}.${discriminator}`, tag, tags.map(String)));
        return;
      }
      // A string against the union's string values, an object against its object member.
      if (typeof value === 'string') {
        const allowed = members.flatMap((m) => (m.def.type === 'enum' ? (m as z.ZodEnum).options : []));
        if (allowed.length && !allowed.includes(value)) found.push(badValue(path, value, allowed.map(String)));
      } else if (isObject(value)) {
        const object = members.find((m) => m.def.type === 'object');
        if (object) walk(object, value, path, found);
      }
      return;
    }
    default:
      // Records (appium's capabilities), strings, numbers, functions: no key or value to mistype.
      return;
  }
}

function walkObject(schema: z.ZodObject, value: unknown, path: string, found: OptionTypo[]): void {
  if (!isObject(value)) return;
  const known = Object.keys(schema.shape);
  for (const [key, v] of Object.entries(value)) {
    const field = schema.shape[key] as z.ZodType | undefined;
    if (field) {
      if (v !== undefined) walk(field, v, `${path}.${key}`, found);
      continue;
    }
    const near = nearest(key, known);
    found.push({
      path: `${path}.${key}`,
      message: `no such option${near ? `; did you mean \`${near}\`?` : '.'} The options here are ${known.join(', ')}.`,
    });
  }
}

function badValue(path: string, value: string, allowed: string[]): OptionTypo {
  const near = nearest(value, allowed);
  return {
    path,
    message: `${inspect(value)} is not one of ${allowed.map((a) => inspect(a)).join(', ')}${near ? `; did you mean ${inspect(near)}?` : '.'}`,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
