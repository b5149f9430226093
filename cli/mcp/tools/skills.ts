import path from 'node:path';
import { z } from 'zod';
import { recordSkill } from '../../commands/skill-record.js';
import { AgentError } from '../errors.js';
import type { AgentState } from '../state.js';
import { defineAgentTool } from '../tool.js';
import { allowedPath } from './files.js';

/**
 * `record_skill`: what `nestwright skill record` does, for agents — run one passing test of the
 * project and write its steps as a skill under skills/ (selectors as the test resolved them,
 * typed texts as parameters, post-checks from what appeared after each step).
 */
export function skillTools(state: AgentState) {
  const record = defineAgentTool({
    name: 'record_skill',
    title: 'Record a skill',
    description:
      'Run one test of the project (it must pass) and write its steps as a skill (skills/<name>.yaml): what `npx nestwright skill record <spec> --grep <test> -o <output>` does. ' +
      'The skill replays with app.runSkill() or skill_run on a device.',
    input: z.strictObject({
      spec: z.string().describe('The spec file, relative to the project root (specs/…)'),
      test: z.string().min(1).describe('The title of the one test to record (matched as --grep)'),
      output: z.string().describe('Where to write the skill: skills/<name>.yaml'),
      name: z.string().optional().describe("The skill's name (default: from the file name)"),
    }),
    result: z.object({
      file: z.string().describe('The skill written, relative to the project root'),
      name: z.string(),
      steps: z.number().int(),
      params: z.array(z.string()).describe('Parameters made of the texts the test typed'),
      notes: z.array(z.string()),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input) {
      const root = state.project.root;
      const out = await allowedPath(root, input.output);
      if (!/\.ya?ml$/.test(out) || path.relative(root, out).split(path.sep)[0] !== 'skills')
        throw new AgentError(
          'PATH_NOT_ALLOWED',
          `${JSON.stringify(input.output)}: a skill is written under skills/ as .yaml`,
          'Give output as skills/<name>.yaml.',
        );
      const spec = await allowedPath(root, input.spec);
      const r = await recordSkill({
        output: out,
        spec: path.relative(root, spec),
        grep: input.test,
        cwd: root,
        ...(input.name ? { name: input.name } : {}),
        ...(state.project.config ? { config: state.project.config } : {}),
      });
      if (!r.ok)
        throw new AgentError(
          'TEST_FAILED',
          r.error,
          'Only one passing test is recorded: run_tests shows why it fails; name exactly one test.',
        );
      return {
        result: { file: path.relative(root, r.file), name: r.name, steps: r.steps, params: r.params, notes: r.notes },
      };
    },
  });
  return [record];
}
