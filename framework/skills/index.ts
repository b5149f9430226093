import type { AppPort } from '../core/port.js';
import { planSkill, replaySkill, type SkillRunResult } from './replay.js';

/**
 * Skills: recorded tasks (`skills/*.yaml`) replayed as tests. The format itself is the protocol's
 * (`device-runtime/protocol/skill/`), so a device runtime serving `skill_run` reads the same files.
 */
export {
  planSkill,
  replaySkill,
  SkillFailedError,
  type PlannedSkill,
  type SkillRunResult,
  type SkillStepResult,
} from './replay.js';
export { loadSkill, SkillInvalidError } from './load.js';
export type { SkillOptions } from './options.js';

/**
 * `app.runSkill(file, params)`: check the parameters (of this skill and every skill it runs),
 * then replay it; throws the first failed step's error (expected, received, screen).
 */
export function runSkill(app: AppPort, file: string, params: Record<string, unknown> = {}): Promise<SkillRunResult> {
  return app.wrap('app.runSkill', {}, async (call) => {
    const planned = planSkill(call, file, params);
    const result = await replaySkill(app, planned, call);
    if (result.error) throw result.error;
    return result;
  });
}

/** `expect(app).toPassSkill(file, params)`: the skill's replay as an assertion. */
export async function toPassSkill(isNot: boolean, app: AppPort, file: string, params: Record<string, unknown> = {}) {
  const result = await app.wrap('expect.toPassSkill', { kind: 'expect' }, (call) =>
    replaySkill(app, planSkill(call, file, params), call),
  );
  const pass = result.ok;
  const message = () =>
    pass
      ? `expect(app).${isNot ? 'not.' : ''}toPassSkill(${JSON.stringify(file)}) failed: every one of its ${result.steps.length} steps passed`
      : `expect(app).toPassSkill(${JSON.stringify(file)}) failed\n\n${result.error!.message.replace(/^expect\.toPassSkill: /, '')}`;
  return {
    pass,
    message,
    name: 'toPassSkill',
    expected: file,
    actual: result.steps.map((s) => `${s.index} ${s.status}`).join(', '),
  };
}
