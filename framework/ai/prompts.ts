import { isSecret } from '../core/secret.js';
import type { Params } from './perform.js';

/** The system prompts are shared with the device's own agent (device-runtime/protocol/agent/prompts.ts). */
export { ACT_SYSTEM, EXTRACT_SYSTEM, VERDICT_SYSTEM } from '../../device-runtime/protocol/agent/prompts.js';

/** The instruction (statement, question) block, with its parameters; secrets only by placeholder. */
export function instructionBlock(
  tag: 'instruction' | 'statement' | 'question',
  text: string,
  params: Params = {},
): string {
  const lines = [`<${tag}>`, text, `</${tag}>`];
  const entries = Object.entries(params);
  if (entries.length) {
    lines.push('<parameters>');
    for (const [k, v] of entries)
      lines.push(
        isSecret(v) ? `{${k}} = (secret: type the placeholder {${k}})` : `{${k}} = ${JSON.stringify(String(v))}`,
      );
    lines.push('</parameters>');
  }
  return lines.join('\n');
}
