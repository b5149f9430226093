import path from 'node:path';
import { test } from '@playwright/test';
import type { App } from '../app.js';
import { NestwrightError } from '../errors.js';
import { find, gone } from './element.js';
import { inTest } from '../core/in-test.js';
import type { Command, PlannedFlow } from './plan.js';
import type { MaestroRunOptions, RunState } from './state.js';
import { FlowScript, truthy } from './script.js';
import { readSelector, describeSelector } from './selector.js';
import { uiCommand } from './ui-commands.js';

/**
 * The executor: a planned flow run command by command on one app instance, with Maestro's
 * semantics for control flow (`runFlow` with `when` and `env`, `repeat` with `times`/`while`,
 * `retry`, `onFlowStart`/`onFlowComplete`), variables and JavaScript. Each command is a
 * `test.step` titled with its file and line; the UI commands act through the public App and
 * Locator API (ui-commands.ts). A failure names the command's file and line, and the runFlow
 * lines that led to it.
 */

/** A flow failed: at which command (file:line), why, and through which runFlow lines. */
export class MaestroFlowError extends NestwrightError {
  constructor(
    message: string,
    readonly file: string,
    readonly line: number,
    options?: { cause?: unknown; code?: 'MAESTRO_FAILED' | 'NOT_SUPPORTED' | 'TIMEOUT' | 'MAESTRO_INVALID' },
  ) {
    super('maestro', message, {
      code: options?.code ?? 'MAESTRO_FAILED',
      ...(options?.cause ? { cause: options.cause } : {}),
    });
  }
}

/** Run one planned flow on an instance, onFlowStart first and onFlowComplete always. */
export async function runMaestroFlow(app: App, flow: PlannedFlow, options: MaestroRunOptions = {}): Promise<App> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const state: RunState = {
    app,
    // A script's http goes through the instance's network proxy when one runs (routes and HAR see it).
    script: new FlowScript(options.scriptTimeout ?? 10_000, log, {}, () => state.app.scriptNetwork()),
    opts: {
      env: options.env ?? {},
      lookupTimeout: options.lookupTimeout ?? 17_000,
      optionalTimeout: options.optionalTimeout ?? 7_000,
      scriptTimeout: options.scriptTimeout ?? 10_000,
      outputDir: options.outputDir,
    },
    where: flow.file,
    log,
  };
  const vars = { ...flow.env, ...state.opts.env };
  try {
    await runList(state, flow.onFlowStart, vars);
    await runList(state, flow.commands, vars);
  } finally {
    try {
      await runList(state, flow.onFlowComplete, vars);
    } finally {
      state.script.dispose();
    }
  }
  return state.app;
}

async function runList(state: RunState, list: Command[], vars: Record<string, string>): Promise<void> {
  for (const cmd of list) await runCommand(state, cmd, vars);
}

/** A command's title: `login.yaml:12 tapOn text "Sign in"`. */
function title(cmd: Command): string {
  const arg = cmd.arg;
  let what = '';
  if (typeof arg === 'string' || typeof arg === 'number') what = JSON.stringify(String(arg));
  else if (arg && typeof arg === 'object') {
    const a = arg as Record<string, unknown>;
    if (typeof a.label === 'string') what = a.label;
    else if (
      ['tapOn', 'longPressOn', 'doubleTapOn', 'assertVisible', 'assertNotVisible', 'copyTextFrom'].includes(cmd.name)
    ) {
      try {
        what = describeSelector(readSelector(arg));
      } catch {
        what = '';
      }
    } else if (typeof a.file === 'string') what = a.file;
  }
  return `${path.basename(cmd.file)}:${cmd.line} ${cmd.name}${what ? ` ${what}` : ''}`;
}

async function runCommand(state: RunState, cmd: Command, vars: Record<string, string>): Promise<void> {
  const body = async () => {
    try {
      await execute(state, cmd, vars);
    } catch (e) {
      if (e instanceof MaestroFlowError) throw e;
      const err = e as Error & { code?: string };
      const code = err.code === 'NOT_SUPPORTED' || err.code === 'TIMEOUT' ? err.code : 'MAESTRO_FAILED';
      throw new MaestroFlowError(
        `${cmd.file}:${cmd.line} ${cmd.name} failed: ${(err.message ?? String(e)).replace(/^maestro: /, '')}`,
        cmd.file,
        cmd.line,
        { cause: e, code },
      );
    }
  };
  if (inTest()) await test.step(title(cmd), body, { box: true });
  else await body();
}

/** The argument with `${…}` evaluated, nested command lists left for when they run. */
async function evaluate(state: RunState, cmd: Command, vars: Record<string, string>): Promise<unknown> {
  state.script.setVariables(vars);
  const where = `${cmd.file}:${cmd.line}`;
  const arg = cmd.arg;
  if (arg && typeof arg === 'object' && !Array.isArray(arg)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(arg))
      out[k] = k === 'commands' || k === 'when' || k === 'while' ? v : await state.script.deep(v, where);
    return out;
  }
  return state.script.deep(arg, where);
}

/** Whether a `when`/`while` condition holds now (visible waits up to the optional timeout, as Maestro's does). */
export async function condition(
  state: RunState,
  cond: Record<string, unknown>,
  vars: Record<string, string>,
  where: string,
): Promise<boolean> {
  state.script.setVariables(vars);
  const c = await state.script.deep(cond, where);
  if (c.platform !== undefined && String(c.platform).toLowerCase() !== 'android') return false;
  if (c.true !== undefined && !truthy(String(c.true))) return false;
  if (c.visible !== undefined && !(await find(state.app, readSelector(c.visible), state.opts.optionalTimeout)))
    return false;
  if (
    c.notVisible !== undefined &&
    !(await gone(state.app, readSelector(c.notVisible), state.opts.optionalTimeout)).gone
  )
    return false;
  return true;
}

async function execute(state: RunState, cmd: Command, vars: Record<string, string>): Promise<void> {
  const where = `${cmd.file}:${cmd.line}`;
  const raw = (cmd.arg && typeof cmd.arg === 'object' ? cmd.arg : {}) as Record<string, unknown>;
  switch (cmd.name) {
    case 'runFlow': {
      if (raw.when && !(await condition(state, raw.when as Record<string, unknown>, vars, where))) return;
      const a = (await evaluate(state, cmd, vars)) as Record<string, unknown>;
      const env = Object.fromEntries(
        Object.entries((a.env ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
      if (cmd.flow) {
        const inner = { ...cmd.flow.env, ...vars, ...env };
        await runList(state, cmd.flow.onFlowStart, inner);
        try {
          await runList(state, cmd.flow.commands, inner);
        } finally {
          await runList(state, cmd.flow.onFlowComplete, inner);
        }
      } else await runList(state, cmd.children ?? [], { ...vars, ...env });
      return;
    }
    case 'repeat': {
      const a = (await evaluate(state, cmd, vars)) as Record<string, unknown>;
      const times = a.times !== undefined ? Number(a.times) : Number.POSITIVE_INFINITY;
      if (!Number.isFinite(times) && !raw.while) throw new Error('repeat needs times or while');
      for (let i = 0; i < times; i++) {
        if (raw.while && !(await condition(state, raw.while as Record<string, unknown>, vars, where))) return;
        await runList(state, cmd.children ?? [], vars);
      }
      return;
    }
    case 'retry': {
      const a = (await evaluate(state, cmd, vars)) as Record<string, unknown>;
      const retries = Math.min(3, Math.max(0, a.maxRetries !== undefined ? Number(a.maxRetries) : 1));
      const env = Object.fromEntries(
        Object.entries((a.env ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
      const list = cmd.flow ? cmd.flow.commands : (cmd.children ?? []);
      const scope = { ...(cmd.flow?.env ?? {}), ...vars, ...env };
      for (let attempt = 0; ; attempt++) {
        try {
          await runList(state, list, scope);
          return;
        } catch (e) {
          if (attempt >= retries || (e as { code?: string }).code === 'APP_CRASHED') throw e;
        }
      }
    }
    case 'evalScript': {
      state.script.setVariables(vars);
      const text = String(cmd.arg);
      const m = /^\s*\$\{([\s\S]*)\}\s*$/.exec(text);
      await state.script.expression(m ? m[1]! : text, where);
      return;
    }
    case 'runScript': {
      if (raw.when && !(await condition(state, raw.when as Record<string, unknown>, vars, where))) return;
      const a = (await evaluate(state, cmd, vars)) as Record<string, unknown>;
      const env = Object.fromEntries(
        Object.entries((a.env ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
      state.script.setVariables({ ...vars, ...env });
      await state.script.run(cmd.script!.code, cmd.script!.file);
      return;
    }
    case 'assertTrue': {
      const a = await evaluate(state, cmd, vars);
      const value = a && typeof a === 'object' ? String((a as Record<string, unknown>).condition) : String(a);
      if (!truthy(value))
        throw new Error(
          `assertion is false: ${JSON.stringify(String((cmd.arg as Record<string, unknown>)?.condition ?? cmd.arg))} is ${JSON.stringify(value)}`,
        );
      return;
    }
    default:
      return uiCommand(state, cmd, await evaluate(state, cmd, vars), where);
  }
}
