import { z } from 'zod';
import { AgentError } from '../errors.js';
import { defineAgentTool } from '../tool.js';

/**
 * Tools whose features are not in this version yet. They are listed (so an agent learns they
 * exist and why they fail) rather than absent without a word; each call answers NOT_AVAILABLE.
 */
function notYet(name: string, title: string, feature: string, input: z.ZodObject) {
  return defineAgentTool({
    name,
    title,
    description: `Not available in this version of nestwright: ${feature}. Calls answer NOT_AVAILABLE.`,
    input: input.strict(),
    result: z.object({}),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run() {
      throw new AgentError(
        'NOT_AVAILABLE',
        `${feature} is not available in this version of nestwright`,
        'Use try_locator and suggest_locator to find a locator, and write_spec to change the spec.',
      );
    },
  });
}

export function laterTools() {
  return [
    notYet('record_skill', 'Record a skill', 'recording a passing test as a skill', z.object({ test: z.string() })),
  ];
}
