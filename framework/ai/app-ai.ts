import type { z } from 'zod';
import type { AppPort } from '../core/port.js';
import { act, type ActOptions } from './act.js';
import { extract } from './extract.js';
import type { Budget } from './options.js';
import { assertStatement, waitForCondition } from './verdict.js';

/**
 * `app.ai`: the model-driven verbs on one app instance. They sit above the deterministic actions:
 * the model chooses among the framework's actions, on node ids of the current snapshot, and every
 * choice is verified (re-observe, foreground package, evidence in the snapshot).
 */
export class AppAi {
  /** @internal Made by `app.ai`, over the app's port. */
  constructor(private readonly app: AppPort) {}

  /** Carry out an instruction through the tool loop (or replay it from the action cache). */
  act(instruction: string, opts: ActOptions = {}): Promise<void> {
    return act(this.app, instruction, opts);
  }

  /** Fail the test unless the model's grounded verdict on the current screen is true. */
  assert(statement: string, opts: { budget?: Budget } = {}): Promise<void> {
    return assertStatement(this.app, statement, opts);
  }

  /** A typed value read from the screen, validated with `schema` and grounded on its evidence nodes. */
  extract<S extends z.ZodType>(question: string, schema: S, opts: { budget?: Budget } = {}): Promise<z.output<S>> {
    return extract(this.app, question, schema, opts);
  }

  /** Wait until the condition is true (asking again only when the screen changed). */
  waitFor(condition: string, opts: { timeout?: number; budget?: Budget } = {}): Promise<void> {
    return waitForCondition(this.app, condition, opts);
  }
}
