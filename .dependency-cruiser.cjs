/**
 * The boundaries between the project's layers, checked by `npm run lint:deps` (part of `npm test`), the way
 * Playwright keeps DEPS.list files: a change that crosses a boundary fails here, with the rule's
 * name and comment, before any test runs.
 *
 * Type-only imports count (`tsPreCompilationDeps`): a type names a dependency as much as a value
 * does, and a cycle through types is still two modules that cannot be understood apart.
 */

/**
 * The simulator's layers, bottom first (device-runtime/sim/README.md#layers says what each is).
 * A module may import its own layer and the ones below it, never one above.
 */
const SIM = '^device-runtime/sim/';
const SIM_LAYERS = [
  {
    name: 'environment',
    path: `${SIM}(faults|channels|web|net)/`,
    why: 'clock, randomness, fault profiles, control channels, the browser engine behind WebViews and the network with its app backends are what everything else runs on; they know nothing of apps or screens',
  },
  {
    name: 'apps',
    path: `${SIM}apps/`,
    why: 'app models and the SDK they are written in (defineApp, views) are what a device runs; they see only their ActivityContext, never the runtime that implements it',
  },
  {
    name: 'core',
    path: `${SIM}core/`,
    why: 'spaces, instances, slots, leases, approvals and audit run app models; the screen that shows them is handed in through SpaceDisplay',
  },
  {
    name: 'ui',
    path: `${SIM}ui/`,
    why: 'the screen composes, observes and acts on what core runs; core never reaches up to it',
  },
  {
    name: 'skills',
    path: `${SIM}(skills|agent)/`,
    why: "the device-side skill runner and the device's own agent (task_run) call tools through a ToolCaller, not through the handlers or the runtime class",
  },
  {
    name: 'handlers',
    path: `${SIM}handlers/`,
    why: 'one handler group per protocol tool file, each given a narrow host interface, never SimRuntime',
  },
  {
    name: 'runtime',
    path: `${SIM}runtime\\.ts$`,
    why: 'SimRuntime validates, leases, approves, dispatches and audits every call; only transports and entry points sit above it',
  },
  {
    name: 'entry',
    path: `${SIM}((mcp|server|cli|cli-main|index)\\.ts$|adbd/)`,
    why: 'transports (MCP over HTTP, the adb daemon) and entry points (CLI, index) adapt to the runtime',
  },
];

const simLayerRules = SIM_LAYERS.slice(0, -1).map((layer, i) => ({
  name: `sim-layer-${layer.name}`,
  comment: `device-runtime/sim layer "${layer.name}" imports only its own layer and those below it: ${layer.why}.`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: SIM_LAYERS.slice(i + 1).map((l) => l.path) },
}));

/**
 * The framework's parts (ARCHITECTURE.md draws them): the core (framework/core/: App, Locator,
 * Space, expect, the driver and its parts), the feature port and its leaves, the features (one
 * folder each), the runner (framework/runner/: fixtures, options, global setup) and the tools
 * only the CLI uses (framework/tools/). Maestro flows (framework/maestro/) run on the public API
 * (App, Locator, gestures), as a user's spec does: above the core, below the runner. The rules below are allow-lists: an import they do not
 * name fails, so a new file cannot quietly cross a boundary.
 */
const FEATURE_FOLDERS = [
  'a11y',
  'ai',
  'device-logs',
  'failure',
  'functions',
  'heal',
  'network',
  'quarantine',
  'skills',
  'video',
  'visual',
  'webview',
  'world',
];
const FEATURE = `^framework/(${FEATURE_FOLDERS.join('|')})/`;
const LEAVES =
  '^framework/(core/(port|errors|selector|trajectory|trajectory-schema|trajectory-attachment|poll|call-site|api-call|lifecycle|test-slot|secret|package-root|in-test)|(ai|network|visual)/record|failure/thrown)\\.ts$';
/** Maestro's flow language (parsing, planning, its selectors): pure, so skills read flows with it too. */
const MAESTRO_LANGUAGE = '^framework/maestro/(parse|plan|commands|selector|script)\\.ts$';
/** The core's composition roots: App and the members it is built from (accessibility.ts gives Locator its audit), and expect()'s matchers. */
const CORE_ROOTS = '^framework/core/(app|expect|matchers|accessibility)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import cycles anywhere: a cycle means two modules that can only be read, tested and changed together; break it with a small interface in the lower one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'framework-features-use-the-port',
      comment:
        'A feature folder (framework/<feature>/) imports, of the framework, only its own folder, other features, the feature port (framework/core/port.ts) and the leaves beside it (errors, selector, trajectory, poll, call-site, the call context, the lifecycle, the test slots, secrets): never App, Locator, Space, the driver or its parts, the runner or the tools. The core attaches the features; the core can change behind the port (ARCHITECTURE.md). An allow-list: anything not named here fails.',
      severity: 'error',
      from: { path: FEATURE },
      to: { path: '^framework/', pathNot: [FEATURE, LEAVES, MAESTRO_LANGUAGE] },
    },
    {
      name: 'framework-leaves-are-leaves',
      comment:
        'The port and its leaves (framework/core/port.ts, errors, selector, trajectory, poll, call-site, api-call, lifecycle, test-slot, secret, package-root, in-test, the trajectory record schemas of the AI, network and visual features, and failure/thrown, where every error notes itself for classifying) import only each other (and the protocol): every feature depends on them, so they depend on nothing that depends on a feature. An allow-list.',
      severity: 'error',
      from: { path: LEAVES },
      to: { path: '^framework/', pathNot: [LEAVES] },
    },
    {
      name: 'framework-maestro-language-is-pure',
      comment:
        "Maestro's flow language (framework/maestro/parse, plan, commands, selector, script) imports only the protocol and itself: the features (skills) and the flow runner both read flows with it.",
      severity: 'error',
      from: { path: MAESTRO_LANGUAGE },
      to: { path: '^framework/', pathNot: [MAESTRO_LANGUAGE] },
    },
    {
      name: 'framework-core-attaches-features-at-its-roots',
      comment:
        "The core (framework/core/) imports the core and its leaves; only its composition roots — App (app.ts and the members it is built from), expect() and the index — import features, as Playwright's Page composes its features as members. Never the runner (framework/runner/: the fixtures, options, global setup) or the tools only the CLI uses (framework/tools/). An allow-list.",
      severity: 'error',
      from: { path: '^framework/core/', pathNot: CORE_ROOTS },
      to: { path: '^framework/', pathNot: ['^framework/core/', LEAVES] },
    },
    {
      name: 'framework-core-roots-not-above',
      comment:
        "The core's composition roots attach features, but import neither the runner (framework/runner/) nor the CLI's tools (framework/tools/).",
      severity: 'error',
      from: { path: CORE_ROOTS },
      to: { path: '^framework/(runner|tools)/' },
    },
    {
      name: 'framework-features-not-the-runner',
      comment:
        'Nothing below the runner imports it: the fixtures, options and global setup (framework/runner/) are the top of the framework, with the index, the entry it re-exports and what the entry loads for the workers (runtime.ts); a feature registers with them, they are not called from it.',
      severity: 'error',
      from: {
        path: '^framework/',
        pathNot: [
          '^framework/runner/',
          '^framework/(index|entry|runtime)\\.ts$',
          '^framework/conformance/',
          '^framework/tools/',
        ],
      },
      to: { path: '^framework/runner/' },
    },
    {
      name: 'protocol-is-self-contained',
      comment:
        'device-runtime/protocol is THE contract both sides share: it imports only itself and libraries (zod), so a real device, the simulator and the framework can all depend on it without depending on each other.',
      severity: 'error',
      from: { path: '^device-runtime/protocol/' },
      to: { dependencyTypes: ['local'], pathNot: '^device-runtime/protocol/' },
    },
    {
      name: 'framework-not-sim',
      comment:
        'framework/ never imports device-runtime/sim: the simulator serves the protocol as a real device would, so nothing in the framework may depend on a simulator-only behaviour. It starts one only through the provider factory.',
      severity: 'error',
      from: { path: '^framework/' },
      to: { path: '^device-runtime/sim/' },
    },
    {
      name: 'framework-device-runtime-entry-points',
      comment:
        "framework/ imports from device-runtime/ only protocol/, client/ and provider selection through its one factory (providers/index.ts), or the run-wide devices' environment and early start (providers/run-wide.ts, light enough for the global setup and a worker's start), never a provider's internals, apk/ or the MCP host.",
      severity: 'error',
      from: { path: '^framework/' },
      to: {
        path: '^device-runtime/',
        pathNot: ['^device-runtime/(protocol|client)/', '^device-runtime/providers/(index|run-wide|options)\\.ts$'],
      },
    },
    {
      name: 'device-runtime-not-above',
      comment: 'device-runtime/ never imports framework/, reporters/ or cli/: it is the layer they stand on.',
      severity: 'error',
      from: { path: '^device-runtime/' },
      to: { path: '^(framework|reporters|cli)/' },
    },
    {
      name: 'sim-entry-points',
      comment:
        'Outside the simulator, product code reaches it only through its entry points (sim/index.ts for providers, sim/cli.ts for `nestwright sim`), so its folders can change behind them. Tests and benchmarks may reach inside.',
      severity: 'error',
      from: { path: '^(framework|reporters|cli|device-runtime)/', pathNot: SIM },
      to: { path: SIM, pathNot: `${SIM}(index|cli)\\.ts$` },
    },
    {
      name: 'reporters-never-call-devices',
      comment:
        "reporters/ turn trajectories into Allure results: they consume test results and never call devices, so they import from device-runtime/ only the protocol's types and data, and nothing of cli/.",
      severity: 'error',
      from: { path: '^reporters/' },
      to: { path: ['^device-runtime/', '^cli/'], pathNot: '^device-runtime/protocol/' },
    },
    {
      name: 'cli-is-the-top',
      comment:
        'cli/ (`npx nestwright …`) is the top of the stack: nothing in the library imports it, so the framework, runtime and reporters run without the command line.',
      severity: 'error',
      from: { path: '^(framework|device-runtime|reporters)/' },
      to: { path: '^cli/' },
    },
    {
      name: 'product-not-tests',
      comment: 'Shipped code never imports tests, benchmarks or example specs.',
      severity: 'error',
      from: { path: '^(framework|device-runtime|reporters|cli)/' },
      to: { path: '^(tests|bench|specs)/' },
    },
    ...simLayerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The docs site's build output, cache and temp files (npm run docs:site; tests/docs/site.test.ts builds it while the static checks run) and the Appium driver's build: generated code.
    exclude: {
      path: [
        '(^|/)node_modules/',
        '^dist/',
        '^device-runtime/appium-driver/dist/',
        '\\.d\\.ts$',
        '^docs/\\.vitepress/(dist|cache|\\.temp)/',
      ],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
