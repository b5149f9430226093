import { z } from 'zod';
import { defineTool } from '../tool.js';
import { SpaceIdSchema } from '../common.js';
import { UiNodeSchema } from '../observation.js';

const space_id = SpaceIdSchema;

export const TaskStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);

const TaskSchema = z.object({
  task_id: z.string(),
  status: TaskStatusSchema,
  goal: z.string(),
  steps: z.number().int(),
  result: z.string().nullable(),
  error: z.string().nullable(),
});

export const task_run = defineTool({
  name: 'task_run',
  title: 'Run task {goal}',
  description: "The runtime's local agent executes a natural-language task.",
  mutating: true,
  input: z.object({
    space_id,
    goal: z.string().min(1).max(4000),
    max_steps: z.number().int().min(1).max(200).default(30),
  }),
  result: TaskSchema,
});

export const task_status = defineTool({
  name: 'task_status',
  title: 'Task status {task_id}',
  description: 'Query a task.',
  input: z.object({ task_id: z.string() }),
  result: TaskSchema,
});

export const task_cancel = defineTool({
  name: 'task_cancel',
  title: 'Cancel task {task_id}',
  description: 'Cancel a task.',
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
