import { z } from 'zod';
import { describeIssues } from '../protocol/index.js';

/**
 * The capabilities the NestSpace driver reads. `appium:` ones arrive without their prefix (Appium
 * strips it); `nestspace:` ones keep theirs. Appium only warns about unknown `appium:`
 * capabilities (they may be meant for a plugin); an unknown `nestspace:` one is ours and is
 * refused, with the nearest known name.
 */
export const NestSpaceCapsSchema = z.object({
  app: z.string().min(1).optional().describe('An APK path (installed into the space) or a package name already there'),
  appPackage: z
    .string()
    .min(1)
    .optional()
    .describe('Package to launch when app is an APK holding several, or instead of app'),
  appActivity: z.string().min(1).optional(),
  'nestspace:url': z
    .string()
    .url()
    .optional()
    .describe('MCP endpoint of a NestSpace runtime; default: an embedded simulator'),
  'nestspace:token': z.string().optional(),
  'nestspace:space': z
    .string()
    .min(1)
    .optional()
    .describe('Space to use (shared, not deleted); default: a space of the session'),
  'nestspace:instance': z
    .string()
    .min(1)
    .default('new')
    .describe("'new' (a fresh instance with its own data) or an instance id"),
  'nestspace:faults': z
    .enum(['instant', 'realistic', 'hostile'])
    .optional()
    .describe('Fault profile of the embedded simulator'),
});
export type NestSpaceCaps = z.infer<typeof NestSpaceCapsSchema>;

export const NESTSPACE_CAP_NAMES = Object.keys(NestSpaceCapsSchema.shape).filter((k) => k.startsWith('nestspace:'));

/** Appium's constraint format, for its own validation and its "not recognized" warning. */
export const desiredCapConstraints = {
  platformName: { presence: true, isString: true, inclusionCaseInsensitive: ['Android'] },
  automationName: { presence: true, isString: true, inclusionCaseInsensitive: ['NestSpace'] },
  deviceName: { isString: true },
  app: { isString: true },
  appPackage: { isString: true },
  appActivity: { isString: true },
  noReset: { isBoolean: true },
  fullReset: { isBoolean: true },
  newCommandTimeout: { isNumber: true },
  'nestspace:url': { isString: true },
  'nestspace:token': { isString: true },
  'nestspace:space': { isString: true },
  'nestspace:instance': { isString: true },
  'nestspace:faults': { isString: true, inclusion: ['instant', 'realistic', 'hostile'] },
} as const;

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

/** Parse the processed capabilities; the error message lists every problem, or null when fine. */
export function parseNestSpaceCaps(caps: Record<string, unknown>): { caps: NestSpaceCaps } | { error: string } {
  const problems: string[] = [];
  for (const k of Object.keys(caps)) {
    if (k.startsWith('nestspace:') && !NESTSPACE_CAP_NAMES.includes(k)) {
      const near = [...NESTSPACE_CAP_NAMES].sort((a, b) => distance(k, a) - distance(k, b))[0];
      problems.push(
        `unknown capability '${k}'${distance(k, near) <= 4 ? ` (did you mean '${near}'?)` : ''}; known: ${NESTSPACE_CAP_NAMES.join(', ')}`,
      );
    }
  }
  const parsed = NestSpaceCapsSchema.safeParse(caps);
  if (!parsed.success) {
    problems.push(describeIssues(parsed.error, undefined, Infinity));
  }
  if (problems.length > 0) return { error: problems.join('; ') };
  return { caps: parsed.data! };
}
