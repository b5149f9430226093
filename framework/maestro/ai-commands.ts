import { z } from 'zod';
import { NestwrightError } from '../core/errors.js';
import { NO_DEFECTS } from './commands.js';
import type { RunState } from './state.js';

/**
 * Maestro's AI commands on nestwright's AI steps (`app.ai`, docs/ai.md), configured the way a
 * spec's are (`use.ai`, or `ANTHROPIC_API_KEY` in the environment): `assertWithAI` is
 * `app.ai.assert()`, `assertNoDefectsWithAI` asks it whether the screen shows the defects
 * Maestro's prompt names, `extractTextWithAI` is `app.ai.extract()` of a text, kept in the
 * flow's variable `outputVariable` (`aiOutput` by default). As in Maestro, the two assertions
 * are optional unless `optional: false`: a false verdict is printed and the flow goes on; a
 * model that cannot be asked (no key, no budget left) fails the command either way.
 */

type Json = Record<string, unknown>;
export const AI_COMMANDS = ['assertWithAI', 'assertNoDefectsWithAI', 'extractTextWithAI'] as const;
export type AiCommand = (typeof AI_COMMANDS)[number];

export async function aiCommand(
  state: RunState,
  name: AiCommand,
  arg: unknown,
  where: string,
  log: (line: string) => void,
): Promise<void> {
  const a = (arg && typeof arg === 'object' ? arg : {}) as Json;
  if (name === 'extractTextWithAI') {
    const query = typeof arg === 'string' ? arg : String(a.query ?? '');
    if (!query)
      throw new NestwrightError('maestro', `extractTextWithAI names no query (${where})`, { code: 'MAESTRO_INVALID' });
    const text = await state.app.ai.extract(query, z.string());
    state.script.setVariables({ [String(a.outputVariable ?? 'aiOutput')]: text });
    return;
  }
  const statement = name === 'assertWithAI' ? (typeof arg === 'string' ? arg : String(a.assertion ?? '')) : NO_DEFECTS;
  if (!statement)
    throw new NestwrightError('maestro', `assertWithAI names no assertion (${where})`, { code: 'MAESTRO_INVALID' });
  const optional = a.optional !== false && a.optional !== 'false';
  try {
    await state.app.ai.assert(statement);
  } catch (e) {
    if (!optional || (e as { code?: string }).code !== 'AI_ASSERTION_FAILED') throw e;
    log(`${where} ${name} (optional) did not hold: ${(e as Error).message.split('\n')[0]}`);
  }
}
