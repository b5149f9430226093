import { z } from 'zod';
import { AdbDeviceOptionsSchema } from './adb/options.js';
import { EmulatorDeviceOptionsSchema } from './emulator/options.js';

const SimDeviceOptionsSchema = z.object({
  provider: z.literal('sim'),
  /** Connect to a simulator started elsewhere (`npx nestwright sim`) instead of the embedded one. */
  url: z.string().url().optional(),
  /** The bearer token of the simulator at `url`. */
  token: z.string().optional(),
  /** Fault profile of a simulator of this worker's own (default `NESTWRIGHT_FAULTS`, else instant); see docs/timing.md. */
  faults: z.enum(['instant', 'realistic', 'hostile']).optional(),
  /** Seed of the fault profile's randomness (default `NESTWRIGHT_SEED`): the same seed, the same run. */
  seed: z.number().int().optional(),
  /** Process slots: how many instances run at once (default 4); workers beyond them wait for one. */
  slots: z.number().int().min(1).max(64).optional(),
});
const NestspaceDeviceOptionsSchema = z.object({
  provider: z.literal('nestspace'),
  url: z.string().url().describe('MCP endpoint, e.g. http://127.0.0.1:8765/mcp after `adb forward tcp:8765 tcp:8765`'),
  /** The runtime's bearer token. */
  token: z.string().min(1),
  /** Run `adb forward` for this serial first. */
  adbSerial: z.string().optional(),
});
const AppiumDeviceOptionsSchema = z.object({
  provider: z.literal('appium'),
  url: z.string().url().describe('Appium 3 server or Grid, e.g. http://127.0.0.1:4723'),
  /** W3C capabilities of every session (appium:automationName, appium:deviceName, …); appium:app comes from use.apk. */
  capabilities: z.record(z.string(), z.unknown()).default({}),
  /** 'instance' (default with automationName NestSpace): a session per test; 'reset': data cleared per test. */
  isolation: z.enum(['instance', 'reset']).optional(),
});

const CompanionDeviceOptionsSchema = z.object({
  provider: z.literal('companion'),
  /** Where phones dial in (default 0.0.0.0:8080); the companion app's server URL is ws://<this machine>:<port>/ws/device. */
  listen: z.object({ host: z.string().optional(), port: z.number().int().min(0).max(65535).optional() }).optional(),
  /** Keys a phone may authenticate with (the app's API key); default NESTWRIGHT_COMPANION_KEYS (comma-separated). Never logged. */
  keys: z.array(z.string().min(8, 'a companion key has at least 8 characters')).min(1).optional(),
  /** PEM certificate and key files: phones then connect over wss://. */
  tls: z.object({ cert: z.string(), key: z.string() }).optional(),
  /** Which phone the run takes, by the name it reports or the id it was given (default: any free one). */
  device: z.object({ name: z.string().optional(), id: z.string().optional() }).optional(),
  /** 'published' (default): the companion app's one message per action; 'design': the design's `execute` form. */
  dialect: z.enum(['published', 'design']).optional(),
  /** How long a request may wait for the phone's answer (default 10 s). */
  requestTimeoutMs: z.number().int().min(100).optional(),
  /** How long a phone may stay silent (no pong, no message) before it is dropped and its test fails with DEVICE_DISCONNECTED (default 5 s). */
  heartbeatTimeoutMs: z.number().int().min(500).max(600_000).optional(),
  /** How long a test waits for a free phone (default 30 s). */
  phoneWaitMs: z.number().int().min(0).optional(),
});

/**
 * How a test run reaches a device (`use.deviceOptions` in playwright.config.ts). `sim` without a url is
 * the embedded simulated runtime, started once for the run.
 */
export const DeviceOptionsSchema = z.discriminatedUnion('provider', [
  SimDeviceOptionsSchema,
  NestspaceDeviceOptionsSchema,
  AppiumDeviceOptionsSchema,
  AdbDeviceOptionsSchema,
  EmulatorDeviceOptionsSchema,
  CompanionDeviceOptionsSchema,
]);

// Written out as a union of the providers' types rather than z.infer<typeof DeviceOptionsSchema>
// (the same type, checked below): a union TypeScript infers has no name, so the API reference
// would spell all five out wherever the type is used.
/** What `use.deviceOptions` takes: one of the providers' options, told apart by `provider` (`sim`, `nestspace`, `adb`, `emulator`, `appium`, `companion`). */
export type DeviceOptions =
  | z.infer<typeof SimDeviceOptionsSchema>
  | z.infer<typeof NestspaceDeviceOptionsSchema>
  | z.infer<typeof AppiumDeviceOptionsSchema>
  | z.infer<typeof AdbDeviceOptionsSchema>
  | z.infer<typeof EmulatorDeviceOptionsSchema>
  | z.infer<typeof CompanionDeviceOptionsSchema>;
type Inferred = z.infer<typeof DeviceOptionsSchema>;
// A compile error here means the written-out union and the schema's have drifted apart.
const sameAsSchema: [DeviceOptions, Inferred] extends [Inferred, DeviceOptions] ? true : never = true;
void sameAsSchema;
