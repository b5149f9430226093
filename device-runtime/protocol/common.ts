import { z } from 'zod';

/** Ids are opaque strings chosen by the runtime. */
export const SpaceIdSchema = z
  .string()
  .min(1)
  .max(128)
  .describe('Id of a virtual space, from space_create or space_list');
export const PackageNameSchema = z
  .string()
  .regex(/^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/, 'expected an Android package name such as com.example.app');
/** Instance ids name one copy of an app in a space (docs/protocol.md#instances: one data root per instance). */
export const InstanceIdSchema = z.string().min(1).max(64);
export const IdempotencyKeySchema = z.string().min(1).max(200);

/** [left, top, right, bottom] in screen pixels. */
export const BoundsSchema = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);
export type Bounds = z.infer<typeof BoundsSchema>;

export const PointSchema = z.tuple([z.number().int(), z.number().int()]);
export type Point = z.infer<typeof PointSchema>;

export const LeaseModeSchema = z.enum(['EXCLUSIVE', 'OBSERVE']);
export type LeaseMode = z.infer<typeof LeaseModeSchema>;

export const CallerSchema = z.enum(['LOCAL_AGENT', 'REMOTE_MCP', 'USER']);
export type Caller = z.infer<typeof CallerSchema>;

export const ChannelSchema = z.enum(['accessibility', 'shizuku', 'vision']);
export type Channel = z.infer<typeof ChannelSchema>;

export const LeaseSchema = z.object({
  lease_id: z.string(),
  space_id: SpaceIdSchema,
  owner: CallerSchema,
  session_id: z.string(),
  mode: LeaseModeSchema,
  expires_at: z.number().int().describe('Epoch milliseconds'),
});
export type Lease = z.infer<typeof LeaseSchema>;

/** The result of a tool that has nothing to return: `{ ok: true }`. */
export const Ok = z.object({ ok: z.literal(true) });
