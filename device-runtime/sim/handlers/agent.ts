import { toolError } from '../../protocol/index.js';
import type { ToolCaller } from '../core/call-context.js';
import type { SimSettings } from '../core/options.js';
import { notSupported, SimError } from '../core/sim-error.js';
import { libraryOf } from '../skills/library.js';
import { DeviceSkillRunner } from '../skills/runner.js';
import type { HandlerGroup, SpaceLookup } from './types.js';

type AgentTools = 'task_run' | 'task_status' | 'task_cancel' | 'skill_list' | 'skill_run' | 'trajectory_get';

/** A skill run replays its steps as tool calls through the runtime (validated, leased, audited like any client's). */
export interface AgentHost extends SpaceLookup, ToolCaller {
  readonly options: Pick<SimSettings, 'skills'>;
}

/**
 * The runtime's local agent (task_*) and trajectories are not simulated: they answer
 * NOT_SUPPORTED. skill_list / skill_run: the skills of the runtime's skill directory
 * (`nestwright sim --skills dir`), served to a space when their app is installed in it. A run
 * answers with the step evidence a test trajectory records (extension `skill_evidence`).
 */
export const agentHandlers: HandlerGroup<AgentTools, AgentHost> = {
  task_run: () => notSupported('task_run'),
  task_status: () => notSupported('task_status'),
  task_cancel: () => notSupported('task_cancel'),
  trajectory_get: () => notSupported('trajectory_get'),
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
    const r = await runner.run(entry, params);
    return {
      ok: r.failed === null,
      steps: runner.evidence.length,
      failed_step: r.failed,
      message: r.message,
      evidence: runner.evidence,
    };
  },
};
