/**
 * Maestro flows run by nestwright (docs/maestro.md): parsed and planned into commands, then run
 * on an app as steps of a test. The runner's side (`runner/maestro-spec.ts`, one test per flow) and the
 * skills' Maestro steps use it through this file.
 */
export { MaestroFlowError, runMaestroFlow } from './execute.js';
export { planFlow } from './plan.js';
