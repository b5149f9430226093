import { z } from 'zod';
import { defineTool } from '../tool.js';
import {
  IdempotencyKeySchema,
  InstanceIdSchema,
  LeaseSchema,
  Ok,
  PackageNameSchema,
  SpaceIdSchema,
  ChannelSchema,
} from '../common.js';
import { PreflightReportSchema } from '../preflight.js';

const space_id = SpaceIdSchema;

export const SpaceSummarySchema = z.object({
  space_id,
  name: z.string(),
  display_id: z
    .number()
    .int()
    .nullable()
    .describe('Virtual display of the space; null when it shares the main display'),
  app_count: z.number().int(),
  foreground: z.string().nullable().describe('package@instance in front, or null'),
  created_at: z.number().int(),
});
export type SpaceSummary = z.infer<typeof SpaceSummarySchema>;

export const InstanceInfoSchema = z.object({
  instance: InstanceIdSchema,
  state: z.enum(['stopped', 'background', 'foreground', 'crashed']),
  slot: z.number().int().nullable().describe('Process slot (:cN) the instance is pinned to while running'),
  activity: z.string().nullable(),
});
export type InstanceInfo = z.infer<typeof InstanceInfoSchema>;

export const AppInfoSchema = z.object({
  package: z.string(),
  label: z.string(),
  version_code: z.number().int(),
  version_name: z.string().nullable(),
  system: z.boolean(),
  instances: z.array(InstanceInfoSchema),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const space_list = defineTool({
  name: 'space_list',
  title: 'List spaces',
  description: 'List virtual spaces and their status.',
  input: z.object({}),
  result: z.object({ spaces: z.array(SpaceSummarySchema) }),
});

export const space_create = defineTool({
  name: 'space_create',
  title: 'Create space {name}',
  description: 'Create a virtual space with its own virtual display. Idempotent with idempotency_key.',
  mutating: true,
  input: z.object({
    name: z.string().min(1).max(80).optional(),
    idempotency_key: IdempotencyKeySchema.optional(),
  }),
  result: SpaceSummarySchema,
});

export const space_delete = defineTool({
  name: 'space_delete',
  title: 'Delete space {space_id}',
  description: 'Delete a space, its apps, instances and data.',
  mutating: true,
  input: z.object({ space_id, confirm: z.boolean().optional() }),
  result: Ok,
});

export const space_rename = defineTool({
  name: 'space_rename',
  title: 'Rename space {space_id} to {name}',
  description: 'Rename a space.',
  mutating: true,
  extension: true,
  input: z.object({ space_id, name: z.string().min(1).max(80) }),
  result: SpaceSummarySchema,
});

export const space_install_apk = defineTool({
  name: 'space_install_apk',
  title: 'Install {apk_paths}',
  description:
    'Install an APK or split APK set into a space. Validates REQUIRE_SECURE_ENV, ABI, and 16KB alignment before install.',
  mutating: true,
  dangerous: true,
  input: z.object({
    space_id,
    apk_paths: z
      .array(z.string().min(1))
      .min(1)
      .describe('Absolute paths or content URIs. For split APKs, include base + all splits.'),
    grant_runtime_permissions: z.boolean().default(false),
    allow_downgrade: z
      .boolean()
      .optional()
      .describe(
        "Extension 'allow_downgrade': install over a higher installed versionCode (adb install -d); otherwise VERSION_DOWNGRADE",
      ),
    idempotency_key: IdempotencyKeySchema.optional(),
  }),
  result: z.object({
    package: z.string(),
    label: z.string(),
    version_code: z.number().int(),
    version_name: z.string().nullable(),
    outcome: z.enum(['installed', 'updated', 'unchanged']),
    preflight: PreflightReportSchema,
    splits: z
      .array(z.object({ split: z.string(), chosen: z.boolean(), reason: z.string() }))
      .optional()
      .describe(
        "Extension 'split_selection': for a bundle, each config split and whether this device got it (ABI, density, language)",
      ),
    installed_apks: z
      .array(z.string())
      .optional()
      .describe("Extension 'split_selection': the APKs installed, base first ('base' or the split name)"),
  }),
});

export const space_uninstall = defineTool({
  name: 'space_uninstall',
  title: 'Uninstall {package}',
  description: 'Uninstall an app from a space; wipes every instance and its data.',
  mutating: true,
  dangerous: true,
  input: z.object({ space_id, package: PackageNameSchema }),
  result: Ok,
});

export const space_list_apps = defineTool({
  name: 'space_list_apps',
  title: 'List apps',
  description: 'List the apps of a space with their instances.',
  input: z.object({ space_id }),
  result: z.object({ apps: z.array(AppInfoSchema) }),
});

export const space_launch = defineTool({
  name: 'space_launch',
  title: 'Launch {package}',
  description:
    'Launch an app (optionally an activity) in the space and bring it to the foreground of the space display. Idempotent: launching a running instance brings it to the front.',
  mutating: true,
  input: z.object({
    space_id,
    package: PackageNameSchema,
    activity: z.string().optional(),
    instance: z
      .union([InstanceIdSchema, z.literal('new')])
      .optional()
      .describe("Extension 'instance': which copy to launch; 'new' creates a fresh instance"),
    idempotency_key: IdempotencyKeySchema.optional(),
  }),
  result: z.object({
    package: z.string(),
    instance: InstanceIdSchema,
    activity: z.string(),
    slot: z.number().int(),
    cold_start: z.boolean(),
    restarted_after_crash: z.boolean(),
    crash_reason: z.string().nullable(),
    evicted: z.string().nullable().describe('package@instance evicted from its process slot, if any'),
  }),
});

export const space_stop = defineTool({
  name: 'space_stop',
  title: 'Stop {package}',
  description: 'Stop an app instance (all instances when instance is omitted).',
  mutating: true,
  input: z.object({
    space_id,
    package: PackageNameSchema,
    instance: InstanceIdSchema.optional().describe("Extension 'instance'"),
    clear_data: z.boolean().optional().describe("Extension 'clear_data': wipe the instance's data"),
    remove_instance: z.boolean().optional().describe("Extension 'instance': forget the instance entirely"),
  }),
  result: z.object({ stopped: z.array(z.string()).describe('package@instance stopped') }),
});

export const space_status = defineTool({
  name: 'space_status',
  title: 'Space status',
  description: 'Space and foreground app status.',
  input: z.object({ space_id }),
  result: z.object({
    space: SpaceSummarySchema,
    foreground: z
      .object({ package: z.string(), instance: InstanceIdSchema, activity: z.string().nullable() })
      .nullable(),
    running: z.array(z.object({ package: z.string(), instance: InstanceIdSchema, slot: z.number().int() })),
    channel: ChannelSchema,
    lease: LeaseSchema.nullable(),
  }),
});

export const spaceTools = [
  space_list,
  space_create,
  space_delete,
  space_rename,
  space_install_apk,
  space_uninstall,
  space_list_apps,
  space_launch,
  space_stop,
  space_status,
] as const;
