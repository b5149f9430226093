import type { Check } from './check.js';
import { errorChecks } from './groups/errors.js';
import { handshakeChecks } from './groups/handshake.js';
import { semanticsChecks } from './groups/semantics.js';
import { timingChecks } from './groups/timings.js';
import { toolChecks } from './groups/tools.js';
import { extensionChecks } from './extensions/index.js';

/** Every check of the kit, in report order. */
export const ALL_CHECKS: readonly Check[] = [
  ...handshakeChecks,
  ...toolChecks,
  ...errorChecks,
  ...semanticsChecks,
  ...extensionChecks,
  ...timingChecks,
];
