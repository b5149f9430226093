/**
 * `nestwright/protocol`: the device protocol as zod schemas, one file per domain, with every type
 * inferred from them: the tools (`TOOLS`, arguments, results, title templates), the observation,
 * the error codes and the selector engine. docs/protocol.md is generated from the same schemas.
 *
 * @module nestwright/protocol
 */
export * from './errors.js';
export * from './common.js';
export * from './observation.js';
export * from './observe-diff.js';
export * from './preflight.js';
export * from './tool.js';
export * from './registry.js';
export * from './titles.js';
export * from './json-schema.js';
export * from './tools/space.js';
export * from './tools/ui.js';
export * from './tools/system.js';
export * from './tools/appfn.js';
export * from './tools/session.js';
export * from './tools/agent.js';
export * from './tools/runtime.js';
export * from './tools/audit.js';
export * from './tools/world.js';
export * from './tools/webview.js';
export * from './tools/network.js';
export * from './tools/screen-record.js';
export * from './tool-errors.js';
export * from './wire.js';
export * from './selector.js';
export { RELATIONS, STATES, type NodeState, type Relation } from './selector-relative.js';
export * from './wire-steps.js';
export * from './actionability.js';
export * from './issues.js';
