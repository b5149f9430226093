import { toolError } from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';
import type { HandlerGroup } from '../handlers/types.js';
import { libraryOf } from './library.js';
import { DeviceSkillRunner } from './runner.js';

/**
 * skill_list / skill_run: the skills of the runtime's skill directory (`nestwright sim --skills
 * dir`), served to a space when their app is installed in it. A run answers with the step
 * evidence a test trajectory records (extension `skill_evidence`).
 */
export const skillHandlers: HandlerGroup<'skill_list' | 'skill_run'> = {
  skill_list: (args, rt) => {
    const installed = args.space_id ? new Set(rt.space(args.space_id).apps.keys()) : null;
    const skills = libraryOf(rt, rt.options.skills)
      .skills.filter(({ skill }) => (!installed || installed.has(skill.app)) && (!args.package || skill.app === args.package))
      .map(({ skill }) => ({ name: skill.name, package: skill.app, description: skill.description ?? skill.steps.map((s) => s.intent).filter(Boolean).join('; '), params: Object.keys(skill.params) }));
    return { skills };
  },
  skill_run: async (args, rt, ctx) => {
    const library = libraryOf(rt, rt.options.skills);
    const entry = library.byName(args.skill);
    if (!entry) {
      throw new SimError(toolError('SKILL_NOT_FOUND', `no skill ${JSON.stringify(args.skill)} on this runtime`, { hint: library.skills.length ? 'skill_list lists the skills of a space.' : 'This runtime serves no skills: start it with --skills <dir>.' }));
    }
    if (!rt.space(args.space_id).apps.has(entry.skill.app)) {
      throw new SimError(toolError('APP_NOT_INSTALLED', `skill ${entry.skill.name} drives ${entry.skill.app}, which is not installed in space ${args.space_id}`, { hint: 'Install it with space_install_apk first.' }));
    }
    const runner = new DeviceSkillRunner(rt, ctx, args.space_id, library);
    const params = runner.plan(entry, args.params);
    const r = await runner.run(entry, params);
    return { ok: r.failed === null, steps: runner.evidence.length, failed_step: r.failed, message: r.message, evidence: runner.evidence };
  },
};
