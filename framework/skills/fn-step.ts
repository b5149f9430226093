import type { SkillStep, UiSkillStep } from '../../device-runtime/protocol/skill/index.js';
import type { ApiCall } from '../core/api-call.js';
import { NestwrightError } from '../core/errors.js';
import type { AppPort } from '../core/port.js';

type FnStep = Extract<SkillStep, { kind: 'fn' }>;

/**
 * A `fn:` step: the app's declared function when the runtime and the app have it (one
 * `appfn_execute`, a step with source `function`), else the step's `ui` steps, each run by
 * `runUi` as a step of its own. Which way it went is the answer; the caller's post-checks hold
 * either way. Neither a function nor `ui` steps: an error that says which is missing.
 */
export async function runFnStep(
  app: AppPort,
  step: FnStep,
  call: ApiCall,
  runUi: (ui: UiSkillStep, index: number) => Promise<void>,
): Promise<'function' | 'ui'> {
  const fns = await app.functions.available(call);
  if (fns?.some((f) => f.name === step.fn.name)) {
    await app.functions.run(call, step.fn.name, step.fn.params);
    return 'function';
  }
  if (!step.ui) {
    const why = fns
      ? `${app.package} declares no function ${step.fn.name} (${fns.length ? `its functions: ${fns.map((f) => f.name).join(', ')}` : 'it declares none'})`
      : 'this device runtime offers no AppFunctions';
    throw new NestwrightError(
      call,
      `the step calls ${step.fn.name}, but ${why}, and the step has no ui: steps to do it through the screens instead. Add ui: with the same task as UI steps.`,
      { code: 'NOT_SUPPORTED' },
    );
  }
  for (const [i, ui] of step.ui.entries()) await runUi(ui, i);
  return 'ui';
}
