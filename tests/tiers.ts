/**
 * The tiers of nestwright's own tests, as Playwright's repository and the MCP SDK split theirs.
 * Each is a project of tests/playwright.config.ts and a script of package.json; `npm test` runs
 * all three, so no check is dropped, and each check has one tier.
 *
 * - **fast** (`npm run test:fast`, the inner loop): pure tests and tests against an in-process
 *   simulator, the fake device or a real server on loopback. Every test file not named below.
 * - **integration** (`npm run test:integration`): tests that start a child Playwright run of
 *   inline specs or a CLI process that runs one, and (as scripts) the example suite.
 * - **e2e** (`npm run test:e2e`): what needs another engine or tool: Chromium, Java (Allure,
 *   apksigner), Appium, Google's adb, `npm pack`, the docs builds, the example through each provider.
 *
 * A child run started from a fast-tier file is refused (tests/framework/inline.ts says where the
 * file goes), so the fast tier cannot slowly fill with child runs.
 */

/**
 * Files (repository paths, globs allowed) whose tests start child runs (directly, or through the
 * agent MCP server's `run_tests`), or run the conformance kit against broken runtimes.
 */
export const INTEGRATION = [
  'tests/a11y/audit.test.ts',
  'tests/ai/act.test.ts',
  'tests/ai/device-act.test.ts',
  'tests/ai/examples.test.ts',
  'tests/ai/openai.test.ts',
  'tests/ai/verdicts.test.ts',
  'tests/chaos/*.test.ts',
  'tests/cli/init-run.test.ts',
  'tests/failures/classes-run.test.ts',
  'tests/conformance/kit.test.ts',
  'tests/framework/basics.test.ts',
  'tests/framework/device-waits.test.ts',
  'tests/framework/empty-text.test.ts',
  'tests/framework/errors.test.ts',
  'tests/framework/faults.test.ts',
  'tests/framework/features.test.ts',
  'tests/framework/isolation.test.ts',
  'tests/framework/keyboard.test.ts',
  'tests/framework/merge-tests.test.ts',
  'tests/framework/options.test.ts',
  'tests/framework/paged-list.test.ts',
  'tests/framework/secret-artifacts.test.ts',
  'tests/framework/text.test.ts',
  'tests/framework/visual-playwright.test.ts',
  'tests/framework/visual.test.ts',
  'tests/functions/*.test.ts',
  'tests/heal/e2e.test.ts',
  'tests/heal/model-e2e.test.ts',
  'tests/heal/siblings-e2e.test.ts',
  'tests/inspector/record.test.ts',
  'tests/maestro/run.test.ts',
  'tests/mcp-agent/agent-loop.test.ts',
  'tests/mcp-agent/agents-loop.test.ts',
  'tests/mcp-agent/bad-input.test.ts',
  'tests/mcp-agent/heal.test.ts',
  'tests/mcp-agent/http.test.ts',
  'tests/mcp-agent/record-skill.test.ts',
  'tests/network/isolation.test.ts',
  'tests/network/shop-network.test.ts',
  'tests/reporters/allure-reporter.test.ts',
  'tests/reporters/allure-shards.test.ts',
  'tests/reporters/allure-size.test.ts',
  'tests/reporters/allure-visual.test.ts',
  'tests/reporters/report-command.test.ts',
  'tests/skills/fallback.test.ts',
  'tests/skills/maestro.test.ts',
  'tests/skills/record.test.ts',
  'tests/skills/replay.test.ts',
  'tests/skills/runtime-vars.test.ts',
  'tests/world/chat-parallel-world.test.ts',
  'tests/world/shop-notes-world.test.ts',
];

/**
 * Files whose tests need another engine or tool: Chromium, Java, Appium, adb, `npm pack`, and the
 * docs builds (type-checking every example of the pages and the API reference with tsc).
 */
export const E2E = [
  'tests/adb/*.test.ts',
  'tests/appium/*.test.ts',
  'tests/apk/real-apks.test.ts',
  'tests/apk/signature.test.ts',
  'tests/companion/example.test.ts',
  'tests/crawl/map-page.test.ts',
  'tests/docs/api-examples.test.ts',
  'tests/docs/api-reference.test.ts',
  'tests/docs/pages.test.ts',
  'tests/docs/site.test.ts',
  'tests/inspector/codegen.test.ts',
  'tests/inspector/show-trace.test.ts',
  'tests/package/pack.test.ts',
  'tests/providers/adb-provider.test.ts',
  'tests/providers/adb-webview.test.ts',
  'tests/providers/doctor.test.ts',
  'tests/providers/emulator.test.ts',
  'tests/providers/example-adb.test.ts',
  'tests/providers/multi-device.test.ts',
  'tests/reporters/allure-html.test.ts',
  'tests/security/adbd.test.ts',
  'tests/security/proxy.test.ts',
  'tests/security/zip-bomb.test.ts',
  'tests/video/playback.test.ts',
  'tests/webview/*.test.ts',
];

/**
 * A tier's files as Playwright `testMatch` patterns: one RegExp for the list, matched against
 * the absolute path. Globs cost Playwright a minimatch parse for every file and pattern (about
 * 5 CPU-s per run over this repository's files); a RegExp is compiled once.
 */
export function pattern(files: readonly string[]): RegExp {
  const one = (g: string) => g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`(^|/)(${files.map(one).join('|')})$`);
}
