import { z } from 'zod';

/** The NestSpace runtime on the device: how to install, start and authenticate to it. */
export const RuntimeOptionsSchema = z
  .object({
    apk: z
      .string()
      .min(1)
      .optional()
      .describe('Install this runtime APK when the device lacks it or has another version'),
    package: z.string().min(1).optional().describe('Application id of the runtime (default com.coke.nestspace)'),
    service: z
      .string()
      .min(1)
      .optional()
      .describe('Its MCP foreground service (default .service.McpForegroundService)'),
    tokenPath: z
      .string()
      .min(1)
      .optional()
      .describe("Token file in the app's private dir, read with run-as (default files/mcp_token)"),
    startTimeoutMs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('How long the service may take to answer after it is started'),
  })
  .strict();

const common = {
  /** The NestSpace runtime on the device: how to install, start and authenticate to it. */
  runtime: RuntimeOptionsSchema.optional(),
  /** The runtime's port on the device (default 8765; see docs/protocol.md#transport); forwarded to a free local port. */
  port: z.number().int().min(1).max(65535).optional(),
  /** The runtime's bearer token; default NESTSPACE_TOKEN, else read from the device. */
  token: z.string().min(1).optional(),
  /** Wait this long for a booting device's sys.boot_completed (default 120 s). */
  bootTimeoutMs: z.number().int().positive().optional(),
};

/**
 * `{ provider: 'adb' }`: a phone or emulator that adb lists. One device: it; several: `serial`,
 * or `serials` / `pool: true` to spread workers over them (each worker in a space of its own).
 */
export const AdbDeviceOptionsSchema = z
  .object({
    provider: z.literal('adb'),
    /** The device to use when adb lists several (as `adb devices` prints it). */
    serial: z.string().min(1).optional(),
    /** Spread workers over these devices, each worker in a space of its own. */
    serials: z.array(z.string().min(1)).min(1).optional(),
    /** Spread workers over every device adb lists as online. */
    pool: z.boolean().optional(),
    ...common,
  })
  .strict()
  .refine((o) => [o.serial, o.serials, o.pool].filter((x) => x !== undefined && x !== false).length <= 1, {
    message: 'give one of serial, serials or pool',
    path: ['serial'],
  });
export type AdbDeviceOptions = z.infer<typeof AdbDeviceOptionsSchema>;

export const ADB_COMMON_OPTIONS = common;
