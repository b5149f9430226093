import type { ToolError } from '../../protocol/index.js';

/** Thrown inside the simulator to answer a tool call with a structured error envelope. */
export class SimError extends Error {
  constructor(readonly envelope: ToolError) {
    super(`${envelope.code}: ${envelope.message}`);
    this.name = 'SimError';
  }
}
