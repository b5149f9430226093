/** Durable selectors for a node, shared with the device's own agent (device-runtime/protocol/agent/selectors.ts). */
export { selectorFor } from '../../device-runtime/protocol/agent/selectors.js';
