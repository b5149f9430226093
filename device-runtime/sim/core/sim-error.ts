import { toolError, type ToolError } from '../../protocol/index.js';

/** Thrown inside the simulator to answer a tool call with a structured error envelope. */
export class SimError extends Error {
  constructor(readonly envelope: ToolError) {
    super(`${envelope.code}: ${envelope.message}`);
    this.name = 'SimError';
  }
}

/** A protocol tool this runtime does not offer (AppFunctions, the local agent's tasks…). */
export function notSupported(tool: string): never {
  throw new SimError(
    toolError('NOT_SUPPORTED', `${tool} is not offered by this runtime`, {
      hint: 'runtime_info lists the tools and capabilities offered.',
    }),
  );
}
