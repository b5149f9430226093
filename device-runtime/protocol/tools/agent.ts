import { z } from 'zod';
import { defineTool } from '../tool.js';
import { SpaceIdSchema } from '../common.js';
import { UiNodeSchema } from '../observation.js';
import { AiStepRecordSchema } from '../agent/record.js';

const space_id = SpaceIdSchema;

export const TaskStatusSchema = z.enum(['queued', 'running', 'awaiting_approval', 'succeeded', 'failed', 'cancelled']);

const BudgetSchema = z.object({
  tokens: z.number().int().positive().optional().describe('Input + output + cache tokens'),
  usd: z.number().positive().optional().describe("Cost in US dollars, from the model's prices"),
});

export const TaskSchema = z.object({
  task_id: z.string(),
  space_id: z.string().optional(),
  status: TaskStatusSchema,
  goal: z.string(),
  steps: z.number().int().describe('Actions taken so far'),
  result: z.string().nullable().describe("The agent's summary when it succeeded"),
  error: z.string().nullable(),
  error_code: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Why it failed or was cancelled: AI_GAVE_UP, AI_MAX_TURNS, AI_BUDGET_EXCEEDED, AI_MODEL_ERROR, APPROVAL_DENIED, CANCELLED, or a tool error code',
    ),
  approval: z
    .object({ approval_id: z.string(), tool: z.string(), reason: z.string(), expires_at: z.number().int() })
    .nullable()
    .optional()
    .describe('While awaiting_approval: the request a human answers with approval_decide'),
  record: AiStepRecordSchema.optional().describe(
    "Extension (local_agent): the task's progress as an act step records it — model, turns, every tool call with its node and screens, usage and cost",
  ),
});

export const task_run = defineTool({
  name: 'task_run',
  title: 'Run task {goal}',
  description:
    "The runtime's local agent executes a natural-language task on the space's foreground app: observe, one action, verify, repeat, until done. Answers at once (status running); follow it with task_status. Steps the policy marks dangerous wait for approval_decide (status awaiting_approval).",
  mutating: true,
  input: z.object({
    space_id,
    goal: z.string().min(1).max(4000),
    max_steps: z.number().int().min(1).max(200).default(30).describe('Model turns before the task fails'),
    budget: BudgetSchema.optional().describe("Extension (local_agent): limits of this task (default: the runtime's)"),
  }),
  result: TaskSchema,
});

export const task_status = defineTool({
  name: 'task_status',
  title: 'Task status {task_id}',
  description: 'Query a task: status, progress, pending approval and (extension local_agent) its record.',
  input: z.object({ task_id: z.string() }),
  result: TaskSchema,
});

export const task_cancel = defineTool({
  name: 'task_cancel',
  title: 'Cancel task {task_id}',
  description: 'Cancel a task: it stops before its next model turn or action.',
  input: z.object({ task_id: z.string() }),
  result: TaskSchema,
});

export const SkillSummarySchema = z.object({
  name: z.string().describe('app.skill, e.g. settings.open_wifi'),
  package: z.string().nullable(),
  description: z.string(),
  params: z.array(z.string()),
});

/** One replayed step's evidence: what it acted on and the screens before and after. */
export const SkillStepEvidenceSchema = z.object({
  index: z.number().int().describe('1-based'),
  title: z.string(),
  intent: z.string().nullable(),
  status: z.enum(['passed', 'skipped', 'failed']),
  selector: z.string().nullable(),
  node: UiNodeSchema.nullable().describe('The node the step acted on, in the snapshot it acted on'),
  before: z.string().nullable().describe('snapshot_id before the step'),
  after: z.string().nullable().describe('snapshot_id after the step'),
  duration_ms: z.number(),
  message: z.string().nullable().describe('Why it failed or was skipped'),
});

export const skill_list = defineTool({
  name: 'skill_list',
  title: 'List skills',
  description: 'List recorded skills available on the runtime.',
  input: z.object({ space_id: space_id.optional(), package: z.string().optional() }),
  result: z.object({ skills: z.array(SkillSummarySchema) }),
});

export const skill_run = defineTool({
  name: 'skill_run',
  title: 'Run skill {skill}',
  description: 'Replay a recorded skill, checking its preconditions at each step.',
  mutating: true,
  input: z.object({ space_id, skill: z.string(), params: z.record(z.string(), z.string()).default({}) }),
  result: z.object({
    ok: z.boolean(),
    steps: z.number().int(),
    failed_step: z.number().int().nullable(),
    message: z.string().nullable(),
    evidence: z
      .array(SkillStepEvidenceSchema)
      .optional()
      .describe('Extension (skill_evidence): what each step did, as a test trajectory records it'),
  }),
});

export const TrajectoryStepSchema = z.object({
  index: z.number().int(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  code: z.string().describe("'OK' or an error code"),
  duration_ms: z.number(),
  snapshot_hash: z.string().nullable(),
  ts: z.number().int(),
});

export const trajectory_get = defineTool({
  name: 'trajectory_get',
  title: 'Get trajectory',
  description: 'Get the execution trace of a task, or the recent tool calls on a space.',
  input: z.object({
    space_id,
    task_id: z.string().optional(),
    limit: z.number().int().min(1).max(10_000).default(200),
  }),
  result: z.object({ steps: z.array(TrajectoryStepSchema) }),
});

export const agentTools = [task_run, task_status, task_cancel, skill_list, skill_run, trajectory_get] as const;
