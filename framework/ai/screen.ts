import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import * as core from '../../device-runtime/protocol/agent/screen.js';
import { redact } from '../core/secret.js';

/**
 * The screen as the model sees it (device-runtime/protocol/agent/screen.ts, shared with the
 * device's own agent), with the test's secret values replaced by `***` before anything leaves
 * the process.
 */
export const nodeLine = (n: UiNode): string => core.nodeLine(n, redact);
export const renderScreen = (obs: Observation): string => core.renderScreen(obs, redact);
export { normalize, screenSignature, screenTexts } from '../../device-runtime/protocol/agent/screen.js';
