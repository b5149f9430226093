/**
 * `nestwright <command>`: each command lives in its own module and is loaded only when run, so
 * `nestwright inspect` never loads the simulator and `--help` loads nothing.
 */
interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  init: {
    summary: 'Set up nestwright in this project: config, an example spec, the sample app, scripts',
    usage: 'nestwright init [--force] [--json]',
    run: async (argv) => (await import('./commands/init.js')).initCommand(argv),
  },
  'init-agents': {
    summary: 'Write the planner, generator and healer agents for Claude Code, Codex, opencode or VS Code',
    usage: 'nestwright init-agents --loop=claude|codex|opencode|vscode [--app A] [--force] [--json]',
    run: async (argv) => (await import('./commands/init-agents.js')).initAgentsCommand(argv),
  },
  sim: {
    summary: 'Start a simulated NestSpace device runtime (MCP over HTTP on 127.0.0.1)',
    usage: 'nestwright sim [--port N] [--state-dir D | --ephemeral] [--slots N] [--policy F] [--lan --token-file F]',
    run: async (argv) => (await import('../device-runtime/sim/cli.js')).simCommand(argv),
  },
  inspect: {
    summary: 'Inspect APKs and run the install preflight (exit 0 installable, 1 rejected, 2 usage)',
    usage: 'nestwright inspect <apk...> [--json] [--abi x86_64,arm64-v8a] [--page-size 16k] [--sdk 35]',
    run: async (argv) => (await import('./commands/inspect.js')).inspectCommand(argv),
  },
  report: {
    summary: 'Generate the Allure HTML report from allure-results (and open it)',
    usage: 'nestwright report [--results allure-results] [--output allure-report] [--open]',
    run: async (argv) => (await import('./commands/report.js')).reportCommand(argv),
  },
  heal: {
    summary: 'List the healed-locator proposals of the last run; apply them to the specs or reject them',
    usage: 'nestwright heal [--dir D] [--json] [--apply [id...]] [--reject id...]',
    run: async (argv) => (await import('./commands/heal.js')).healCommand(argv),
  },
  skill: {
    summary:
      'Replay a skill outside a test (exit 0 passed, 1 failed, 2 bad input), record one from a test, print its schema',
    usage:
      'nestwright skill run <file.yaml> [--app apk] [--param k=v …] [--device url] | skill record <spec> --grep <title> -o skills/x.yaml | skill schema',
    run: async (argv) => (await import('./commands/skill.js')).skillCommand(argv),
  },
  import: {
    summary: 'Import Maestro flows as skills (exit 0 imported, 1 some commands not imported, 2 bad input)',
    usage: 'nestwright import maestro <flow.yaml> -o skills/<name>.yaml [--apk path.apk]',
    run: async (argv) => (await import('./commands/import-maestro.js')).importCommand(argv),
  },
  maestro: {
    summary:
      'Run Maestro flows unchanged, each in a fresh instance, in parallel on one device (exit 0 passed, 1 failed, 2 bad input)',
    usage:
      'nestwright maestro test <flows or folder> [--env K=V …] [--app apk] [--workers N] [--format junit|html] [--include-tags a,b] [--exclude-tags c]',
    run: async (argv) => (await import('./commands/maestro.js')).maestroCommand(argv),
  },
  devices: {
    summary: 'List Android devices with model, API level, ABI and the NestSpace runtime version and state',
    usage: 'nestwright devices [--json] [--runtime-package com.coke.nestspace] | --companion [--port 8080] [--wait 5]',
    run: async (argv) => (await import('./commands/devices.js')).devicesCommand(argv),
  },
  doctor: {
    summary: "Check Node, Java, the Android SDK, adb, the emulator, KVM, each device's runtime and the simulator",
    usage: 'nestwright doctor [--json]',
    run: async (argv) => (await import('./commands/doctor.js')).doctorCommand(argv),
  },
  emulator: {
    summary: 'List, start (waiting for the boot) and stop Android emulators of the SDK',
    usage:
      'nestwright emulator list | start <avd> [--headless] [--snapshot [NAME]] [--port N] | stop [serial|avd|--all]',
    run: async (argv) => (await import('./commands/emulator.js')).emulatorCommand(argv),
  },
  conformance: {
    summary:
      'Check a NestSpace runtime against everything nestwright relies on (exit 0 conformant, 1 a required check failed, 2 usage)',
    usage: 'nestwright conformance [--device URL --token T | --adb [serial]] [--json] [--only group,…] [--apk-dir D]',
    run: async (argv) => (await import('./commands/conformance.js')).conformanceCommand(argv),
  },
  mcp: {
    summary: 'Serve test-level tools to coding agents over MCP (stdio, or --http)',
    usage: 'nestwright mcp [--root D] [--config F] [--http --port N --token-file F]',
    run: async (argv) => (await import('./commands/mcp.js')).mcpCommand(argv),
  },
  codegen: {
    summary: 'Inspect a live app, pick elements, get locators, record a spec or a skill (a local web page)',
    usage: 'nestwright codegen (--app path.apk | --package P) [--device URL] [--port N] [--no-open]',
    run: async (argv) => (await import('./commands/codegen.js')).codegenCommand(argv),
  },
  record: {
    summary: 'Record a skill from what you do in the inspector on a live app (Save or Ctrl-C writes it)',
    usage:
      'nestwright record (--app path.apk | --package P) -o skills/<name>.yaml [--name n] [--device URL] [--no-open]',
    run: async (argv) => (await import('./commands/record.js')).recordCommand(argv),
  },
  'show-trace': {
    summary: "Step through a test's trajectory (a trajectory file or an Allure result) in a local web page",
    usage: 'nestwright show-trace <trajectory.json | allure result> [--port N] [--no-open]',
    run: async (argv) => (await import('./commands/codegen.js')).showTraceCommand(argv),
  },
  flaky: {
    summary:
      'Per test over the last N runs: pass rate, failure classes, failing step; flaky or broken; propose quarantine entries',
    usage:
      'nestwright flaky <reports or folders…> [--last N] [--json] [--suggest-quarantine [--out F]] [--threshold 0.95] [--days 14]',
    run: async (argv) => (await import('./commands/flaky.js')).flakyCommand(argv),
  },
  crawl: {
    summary:
      'Explore an app in parallel fresh instances: app map, crashes with their paths, accessibility per screen, a suite',
    usage:
      'nestwright crawl <app.apk> [--minutes N] [--instances K] [--seed S] [--out crawl/] [--config F] [--profile P] [--device URL]',
    run: async (argv) => (await import('./commands/crawl.js')).crawlCommand(argv),
  },
  'show-crawl': {
    summary: "Serve a crawl's app map (screens, transitions, paths) in a local web page",
    usage: 'nestwright show-crawl [dir] [--port N] [--no-open]',
    run: async (argv) => (await import('./commands/show-crawl.js')).showCrawlCommand(argv),
  },
  test: {
    summary: 'Run the specs: the same as `npx playwright test` with its arguments',
    usage: 'nestwright test [playwright test arguments]',
    run: async (argv) => (await import('./commands/test.js')).testCommand(argv),
  },
};

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  return [
    'Usage: nestwright <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(
      ([name, c]) => `  ${name.padEnd(width)}  ${c.summary}\n  ${' '.repeat(width)}  ${c.usage}`,
    ),
    '',
    'Run `nestwright <command> --help` for the options of a command.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    const { createRequire } = await import('node:module');
    // By the package's own name (its exports list package.json): the same from cli/ and dist/cli/.
    console.log(createRequire(import.meta.url)('nestwright/package.json').version);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`nestwright: unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  return command.run(rest);
}
