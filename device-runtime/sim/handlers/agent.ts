import { toolError } from '../../protocol/index.js';
import type { ToolCaller } from '../core/call-context.js';
import type { SimSettings } from '../core/options.js';
import type { SimAudit } from '../core/audit.js';
import { notSupported, SimError } from '../core/sim-error.js';
import type { TaskManager } from '../agent/tasks.js';
import { libraryOf } from '../skills/library.js';
import { DeviceSkillRunner } from '../skills/runner.js';
import type { HandlerGroup, SpaceLookup } from './types.js';

type AgentTools = 'task_run' | 'task_status' | 'task_cancel' | 'skill_list' | 'skill_run' | 'trajectory_get';

/** A skill run replays its steps as tool calls through the runtime (validated, leased, audited like any client's). */
export interface AgentHost extends SpaceLookup, ToolCaller {
  readonly options: Pick<SimSettings, 'skills' | 'withoutExtensions'>;
  readonly tasks: TaskManager;
  readonly audit: Pick<SimAudit, 'query'>;
}

/** A runtime started `withoutExtensions: ['local_agent']` stands in for a device without its own agent. */
function agentOffered(rt: AgentHost, tool: string): void {
  if (rt.options.withoutExtensions.includes('local_agent')) notSupported(tool);
}

/**
 * task_run / task_status / task_cancel: the runtime's own agent (sim/agent), the shared act loop
 * with the model the runtime is configured with (TOOL_DISABLED with how to configure one when
 * there is none). trajectory_get: a task's tool calls, or the recent calls on a space from the
 * audit log. skill_list / skill_run: the skills of the runtime's skill directory
 * (`nestwright sim --skills dir`), served to a space when their app is installed in it. A run
 * answers with the step evidence a test trajectory records (extension `skill_evidence`).
 */
export const agentHandlers: HandlerGroup<AgentTools, AgentHost> = {
  task_run: (args, rt, ctx) => {
    agentOffered(rt, 'task_run');
    rt.space(args.space_id);
    return rt.tasks.run(args, ctx).view();
  },
  task_status: (args, rt) => {
    agentOffered(rt, 'task_status');
    return rt.tasks.get(args.task_id, 'task_status').view();
  },
  task_cancel: (args, rt) => {
    agentOffered(rt, 'task_cancel');
    const task = rt.tasks.get(args.task_id, 'task_cancel');
    task.cancel();
    return task.view();
  },
  trajectory_get: (args, rt) => {
    if (args.task_id !== undefined) {
      agentOffered(rt, 'trajectory_get');
      const task = rt.tasks.get(args.task_id, 'trajectory_get');
      if (task.spaceId !== args.space_id)
        throw new SimError(
          toolError(
            'TASK_NOT_FOUND',
            `trajectory_get: task ${args.task_id} ran in space ${task.spaceId}, not ${args.space_id}`,
          ),
        );
      return { steps: task.trajectory.slice(-args.limit) };
    }
    const { entries } = rt.audit.query({ space_id: args.space_id, kind: 'call', limit: args.limit });
    return {
      steps: entries.map((e, i) => ({
        index: i + 1,
        tool: e.tool ?? '',
        args: (e.args ?? {}) as Record<string, unknown>,
        code: e.code ?? 'OK',
        duration_ms: e.duration_ms ?? 0,
        snapshot_hash: null,
        ts: e.ts,
      })),
    };
  },
  skill_list: (args, rt) => {
    const installed = args.space_id ? new Set(rt.space(args.space_id).apps.keys()) : null;
    const skills = libraryOf(rt, rt.options.skills)
      .skills.filter(
        ({ skill }) => (!installed || installed.has(skill.app)) && (!args.package || skill.app === args.package),
      )
      .map(({ skill }) => ({
        name: skill.name,
        package: skill.app,
        description:
          skill.description ??
          skill.steps
            .map((s) => s.intent)
            .filter(Boolean)
            .join('; '),
        params: Object.keys(skill.params),
      }));
    return { skills };
  },
  skill_run: async (args, rt, ctx) => {
    const library = libraryOf(rt, rt.options.skills);
    const entry = library.byName(args.skill);
    if (!entry) {
      throw new SimError(
        toolError('SKILL_NOT_FOUND', `no skill ${JSON.stringify(args.skill)} on this runtime`, {
          hint: library.skills.length
            ? 'skill_list lists the skills of a space.'
            : 'This runtime serves no skills: start it with --skills <dir>.',
        }),
      );
    }
    if (!rt.space(args.space_id).apps.has(entry.skill.app)) {
      throw new SimError(
        toolError(
          'APP_NOT_INSTALLED',
          `skill ${entry.skill.name} drives ${entry.skill.app}, which is not installed in space ${args.space_id}`,
          { hint: 'Install it with space_install_apk first.' },
        ),
      );
    }
    const runner = new DeviceSkillRunner(rt, ctx, args.space_id, library);
    const params = runner.plan(entry, args.params);
    let r: Awaited<ReturnType<DeviceSkillRunner['run']>>;
    try {
      r = await runner.run(entry, params);
    } finally {
      runner.scope.dispose();
    }
    return {
      ok: r.failed === null,
      steps: runner.evidence.length,
      failed_step: r.failed,
      message: r.message,
      evidence: runner.evidence,
    };
  },
};
