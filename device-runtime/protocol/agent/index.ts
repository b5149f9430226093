/**
 * The model-neutral agent core both sides run: the framework's AI steps (`app.ai.act`, assert,
 * extract, waitFor) and the device's own agent (`task_run`). Like the selector engine beside it,
 * it is one implementation, so a task on the device and an act step in a test see the same
 * tools, prompts, screens, grounding, budgets and usage figures. It imports only the protocol and
 * libraries; model SDKs are loaded at the first request.
 */
export * from './adapter.js';
export * from './anthropic.js';
export * from './budget.js';
export * from './grounding.js';
export * from './loop.js';
export * from './model-error.js';
export * from './models.js';
export * from './openai.js';
export * from './providers.js';
export * from './prompts.js';
export * from './record.js';
export * from './screen.js';
export * from './tools.js';
