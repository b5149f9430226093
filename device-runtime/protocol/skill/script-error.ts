/**
 * What stopped a script, to switch on:
 * - `SCRIPT_FAILED`: the script threw (a ReferenceError for `require`, `process`, a SyntaxError…);
 * - `SCRIPT_TIMEOUT`: it, or a job it queued, ran past the time limit;
 * - `SCRIPT_MEMORY`: its heap reached the memory limit;
 * - `SCRIPT_STACK`: it nested deeper than the stack limit;
 * - `SCRIPT_ENGINE`: the script engine could not be loaded or failed (a new one serves the next script).
 */
export type ScriptErrorCode = 'SCRIPT_FAILED' | 'SCRIPT_TIMEOUT' | 'SCRIPT_MEMORY' | 'SCRIPT_STACK' | 'SCRIPT_ENGINE';

/** A script was refused or stopped; the message starts with where it was (`setup.js: …`, `flow.yaml:12: …`). */
export class ScriptError extends Error {
  override name = 'ScriptError';
  constructor(
    readonly code: ScriptErrorCode,
    message: string,
    /** The script's file, or the flow file and line of a `${…}`. */
    readonly where: string,
  ) {
    super(message);
  }
}
