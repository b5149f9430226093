import { randomBytes } from 'node:crypto';
import { FailureStore } from './failures.js';
import type { Project } from './runner.js';
import { SessionManager } from './sessions.js';

/** What the tools of one `nestwright mcp` process share. */
export class AgentState {
  readonly failures: FailureStore;
  readonly sessions: SessionManager;
  private runs = 0;
  private readonly prefix = randomBytes(3).toString('hex');

  constructor(readonly project: Project) {
    this.failures = new FailureStore(project.root);
    this.sessions = new SessionManager(project.root);
  }

  /** `run-3f2a1c-2`: unique across restarts (trajectory ids are kept on disk). */
  newRunId(kind: string): string {
    return `${kind}-${this.prefix}-${++this.runs}`;
  }
}
