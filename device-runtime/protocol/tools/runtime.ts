import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ChannelSchema } from '../common.js';

export const PROTOCOL_VERSION = '1.0';

/**
 * Names of extensions beyond the NestSpace design. A client checks `runtime_info.extensions`
 * before relying on one, so it still works with a real device that lacks it.
 */
export const ExtensionSchema = z.enum([
  'instance', // `instance` on space_launch/space_stop/app_intent: many copies of one app
  'clear_data', // `clear_data` on space_stop
  'snapshot_check', // actions with snapshot_id answer SNAPSHOT_STALE
  'skill_evidence', // skill_run answers each step's evidence (node, snapshots before and after)
  'allow_downgrade', // `allow_downgrade` on space_install_apk (adb install -d)
  'split_selection', // space_install_apk of a bundle installs the device's splits and lists them
  'space_rename',
  'space_permissions',
  'audit_query',
  'approval_decide',
  'runtime_info',
]);
export type Extension = z.infer<typeof ExtensionSchema>;

export const RuntimeInfoSchema = z.object({
  protocol_version: z.string(),
  runtime: z.object({ name: z.string(), version: z.string(), kind: z.enum(['simulated', 'device']) }),
  device: z.object({
    model: z.string(),
    sdk_int: z.number().int(),
    abis: z.array(z.string()),
    page_size: z.union([z.literal(4096), z.literal(16384)]),
    screen: z.object({ width: z.number().int(), height: z.number().int(), density: z.number().int() }),
  }),
  capabilities: z.object({
    virtual_displays: z.boolean().describe('Each space has its own display; false means spaces take turns on the main one'),
    process_slots: z.number().int(),
    channels: z.array(ChannelSchema),
    shell_enabled: z.boolean(),
  }),
  extensions: z.array(z.string()).describe('Extension names (see ExtensionSchema); unknown names are ignored'),
  tools: z.array(z.string()),
});
export type RuntimeInfo = z.infer<typeof RuntimeInfoSchema>;

export const runtime_info = defineTool({
  name: 'runtime_info',
  title: 'Runtime info',
  description: 'Protocol version, device traits, capabilities and extensions of this runtime.',
  extension: true,
  input: z.object({}),
  result: RuntimeInfoSchema,
});

export const runtimeTools = [runtime_info] as const;
