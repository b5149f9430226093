import { z } from 'zod';
import { ADB_COMMON_OPTIONS } from '../adb/options.js';

/**
 * `{ provider: 'emulator', avd }`: an Android emulator running that AVD — started for the run
 * (and stopped after it) when none is running; then reached like any adb device.
 */
export const EmulatorDeviceOptionsSchema = z
  .object({
    provider: z.literal('emulator'),
    /** The AVD to run (`emulator -list-avds` lists them). */
    avd: z
      .string()
      .min(1)
      .regex(/^[\w.-]+$/, 'an AVD name: letters, digits, . _ -'),
    /** No window (`-no-window`); default true. */
    headless: z.boolean().optional(),
    /** Boot from the AVD's quick-boot snapshot when it has one (saved at each stop); a string names another snapshot. Default false: a cold boot. */
    snapshot: z.union([z.boolean(), z.string().min(1)]).optional(),
    /** Console port (even, 5554–5682); adb calls it emulator-<port>. Default: the first free one. */
    consolePort: z
      .number()
      .int()
      .min(5554)
      .max(5682)
      .refine((n) => n % 2 === 0, 'an even port')
      .optional(),
    /** More emulator flags, e.g. ['-gpu', 'swiftshader_indirect', '-memory', '4096']. */
    args: z.array(z.string()).optional(),
    ...ADB_COMMON_OPTIONS,
  })
  .strict();
export type EmulatorDeviceOptions = z.infer<typeof EmulatorDeviceOptionsSchema>;
