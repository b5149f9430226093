/** Auto-waiting's retry cadence lives with the loop both sides of the protocol share. */
export { poll } from '../../device-runtime/protocol/actionability.js';
