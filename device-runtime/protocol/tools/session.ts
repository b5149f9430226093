import { z } from 'zod';
import { defineTool } from '../tool.js';
import { LeaseModeSchema, LeaseSchema, SpaceIdSchema, CallerSchema } from '../common.js';

const space_id = SpaceIdSchema;

export const session_acquire = defineTool({
  name: 'session_acquire',
  title: 'Acquire {mode} lease',
  description:
    'Acquire an EXCLUSIVE or OBSERVE lease on a space (docs/protocol.md#leases). Mutating tools need an EXCLUSIVE lease. With wait_ms the call queues instead of failing with SPACE_BUSY.',
  input: z.object({
    space_id,
    mode: LeaseModeSchema.default('EXCLUSIVE'),
    ttl_ms: z.number().int().min(1_000).max(86_400_000).default(300_000).describe('Idle expiry'),
    wait_ms: z.number().int().min(0).max(600_000).default(0),
    caller: CallerSchema.default('REMOTE_MCP'),
  }),
  result: LeaseSchema,
});

export const session_release = defineTool({
  name: 'session_release',
  title: 'Release lease',
  description:
    "Release this session's lease on a space; force=true reclaims any holder's lease (the user take-over of docs/protocol.md#leases).",
  input: z.object({ space_id, lease_id: z.string().optional(), force: z.boolean().default(false) }),
  result: z.object({ released: z.array(z.string()) }),
});

export const session_status = defineTool({
  name: 'session_status',
  title: 'Lease status',
  description: 'View the current lease holders of a space.',
  input: z.object({ space_id }),
  result: z.object({ leases: z.array(LeaseSchema), waiting: z.number().int() }),
});

export const ApprovalStatusSchema = z.enum(['pending', 'approved', 'denied']);

export const approval_request = defineTool({
  name: 'approval_request',
  title: 'Request approval for {tool}',
  description:
    'Ask a human to approve a dangerous tool call (docs/protocol.md#approvals). Poll with approval_wait; timeout means denial.',
  input: z.object({
    space_id,
    tool: z.string(),
    args: z.record(z.string(), z.unknown()).optional(),
    reason: z.string().max(2000),
    timeout_ms: z.number().int().min(1).max(3_600_000).default(120_000),
  }),
  result: z.object({
    approval_id: z.string(),
    status: ApprovalStatusSchema,
    expires_at: z.number().int(),
  }),
});

export const approval_wait = defineTool({
  name: 'approval_wait',
  title: 'Wait for approval {approval_id}',
  description: 'Wait for an approval decision.',
  input: z.object({ approval_id: z.string(), timeout_ms: z.number().int().min(0).max(600_000).default(30_000) }),
  result: z.object({
    approval_id: z.string(),
    status: ApprovalStatusSchema,
    decided_by: z.string().nullable(),
    reason: z.string().nullable(),
  }),
});

export const approval_decide = defineTool({
  name: 'approval_decide',
  title: 'Decide approval {approval_id}: {decision}',
  description:
    "The user's answer to an approval request, as given on the phone (caller USER). Extension: a real device takes this decision in its own UI.",
  extension: true,
  input: z.object({
    approval_id: z.string(),
    decision: z.enum(['approve', 'deny']),
    reason: z.string().max(2000).optional(),
  }),
  result: z.object({
    approval_id: z.string(),
    status: ApprovalStatusSchema,
    decided_by: z.string().nullable(),
  }),
});

export const sessionTools = [
  session_acquire,
  session_release,
  session_status,
  approval_request,
  approval_wait,
  approval_decide,
] as const;
