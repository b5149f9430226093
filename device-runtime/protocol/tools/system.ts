import { z } from 'zod';
import { defineTool } from '../tool.js';
import { InstanceIdSchema, SpaceIdSchema } from '../common.js';

const space_id = SpaceIdSchema;

export const app_intent = defineTool({
  name: 'app_intent',
  title: 'Send intent {data}',
  description: 'Send an Intent or deep link into the space.',
  mutating: true,
  input: z
    .object({
      space_id,
      action: z.string().default('android.intent.action.VIEW'),
      data: z.string().optional(),
      package: z.string().optional(),
      component: z.string().optional(),
      instance: InstanceIdSchema.optional(),
      extras: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    })
    .refine((v) => v.data !== undefined || v.package !== undefined || v.component !== undefined, {
      message: 'give data (a URI), package or component',
    }),
  result: z.object({
    resolved: z.object({ package: z.string(), activity: z.string(), instance: InstanceIdSchema }),
  }),
});

export const sys_shell = defineTool({
  name: 'sys_shell',
  title: 'Shell {command}',
  description: 'Run an allowlisted shell command through Shizuku. Disabled by default.',
  mutating: true,
  dangerous: true,
  input: z.object({
    space_id,
    command: z.string().min(1).max(4096),
    timeout_ms: z.number().int().max(60_000).default(10_000),
  }),
  result: z.object({ exit_code: z.number().int(), stdout: z.string(), stderr: z.string() }),
});

export const LogLineSchema = z.object({
  ts: z.number().int(),
  level: z.enum(['V', 'D', 'I', 'W', 'E', 'F']),
  tag: z.string(),
  pid: z.number().int(),
  package: z.string().nullable(),
  instance: z.string().nullable(),
  message: z.string(),
});
export type LogLine = z.infer<typeof LogLineSchema>;

export const sys_logcat = defineTool({
  name: 'sys_logcat',
  title: 'Read logcat',
  description: 'Read logcat lines, filtered by package (and instance).',
  input: z.object({
    space_id,
    package: z.string().optional(),
    instance: InstanceIdSchema.optional(),
    since_ms: z.number().int().optional(),
    max_lines: z.number().int().min(1).max(10_000).default(500),
  }),
  result: z.object({ lines: z.array(LogLineSchema) }),
});

export const sys_clipboard_get = defineTool({
  name: 'sys_clipboard_get',
  title: 'Read clipboard',
  description: 'Read the clipboard of the space. Sensitive: requires approval.',
  dangerous: true,
  input: z.object({ space_id }),
  result: z.object({ text: z.string().nullable() }),
});

export const sys_clipboard_set = defineTool({
  name: 'sys_clipboard_set',
  title: 'Set clipboard',
  description: 'Set the clipboard of the space. Sensitive: requires approval.',
  mutating: true,
  dangerous: true,
  input: z.object({ space_id, text: z.string().max(1_000_000) }),
  result: z.object({ ok: z.literal(true) }),
});

export const space_permissions = defineTool({
  name: 'space_permissions',
  title: '{action} permission {permission}',
  description: 'List, grant or revoke runtime permissions of an app in a space.',
  mutating: true,
  dangerous: true,
  // The NestSpace design makes permission changes a dangerous operation (docs/protocol.md#approvals) but has no tool for them.
  extension: true,
  input: z.object({
    space_id,
    package: z.string(),
    action: z.enum(['list', 'grant', 'revoke']),
    permission: z.string().optional(),
  }),
  result: z.object({ granted: z.array(z.string()), requested: z.array(z.string()) }),
});

export const systemTools = [
  app_intent,
  sys_shell,
  sys_logcat,
  sys_clipboard_get,
  sys_clipboard_set,
  space_permissions,
] as const;
