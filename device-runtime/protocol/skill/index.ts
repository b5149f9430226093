/**
 * The skill format, shared by everything that reads skills: the framework replays them as tests,
 * the CLI records and imports them, and a device runtime serves them over `skill_list` /
 * `skill_run`. It lives in the protocol because it is a contract between those sides, like the
 * tool schemas: one definition, parsed the same way everywhere.
 */
export * from './schema.js';
export * from './parse.js';
export * from './params.js';
export * from './describe.js';
export * from './checks.js';
export * from './expressions.js';
export * from './script.js';
