import { z } from 'zod';
import { defineTool } from '../tool.js';
import { CallerSchema, SpaceIdSchema } from '../common.js';
import { ErrorCodeSchema } from '../errors.js';

/**
 * One line of the audit log (docs/protocol.md#leases, docs/protocol.md#approvals): every tool call, lease change and approval decision,
 * with who did it, where, with which (masked) arguments, and how it ended.
 */
export const AuditEntrySchema = z.object({
  seq: z.number().int().describe('Monotonic sequence number; gaps mean older entries were dropped'),
  ts: z.number().int().describe('Epoch milliseconds when the call started'),
  kind: z.enum(['call', 'lease', 'approval']),
  caller: CallerSchema,
  session_id: z.string(),
  space_id: z.string().nullable(),
  tool: z.string().describe('Tool name for calls; lease.acquire, lease.expire, approval.decide… otherwise'),
  args: z.record(z.string(), z.unknown()).describe('Arguments with secrets masked as "***"'),
  code: z.union([z.literal('OK'), ErrorCodeSchema]),
  duration_ms: z.number(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const audit_query = defineTool({
  name: 'audit_query',
  title: 'Query audit log',
  description:
    'Read the audit log: every tool call with caller, session, space, tool, masked arguments, result code and duration, plus lease and approval changes. Newest last.',
  extension: true,
  input: z.object({
    space_id: SpaceIdSchema.optional(),
    session_id: z.string().optional(),
    tool: z.string().optional(),
    code: z.string().optional().describe("'OK' or an error code"),
    kind: z.enum(['call', 'lease', 'approval']).optional(),
    since: z.number().int().optional().describe('Epoch ms; entries at or after it'),
    limit: z.number().int().min(1).max(10_000).default(100).describe('The newest `limit` matching entries'),
  }),
  result: z.object({
    entries: z.array(AuditEntrySchema),
    total: z.number().int().describe('Matching entries still held, before limit'),
    recorded: z.number().int().describe('Entries ever recorded by this runtime'),
  }),
});

export const auditTools = [audit_query] as const;
