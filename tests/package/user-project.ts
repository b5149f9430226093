import { spawn } from 'node:child_process';
import { childEnv } from '../inline-run.js';

/** What a command in the fresh project printed and how it ended. */
export interface Ran {
  code: number | null;
  out: string;
  ms: number;
}

/** npm's own variables from the `npm test` that runs us: a child npm must find its project itself. */
const KEEP_NPM = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);

/** The environment of a command run in the user's project: no trace of this repository's run. */
export function userEnv(): Record<string, string> {
  const env = childEnv();
  for (const k of Object.keys(env)) {
    if ((k.startsWith('npm_') && !KEEP_NPM.has(k)) || k === 'INIT_CWD') delete env[k];
  }
  return env;
}

/** Run a command (no shell) in `cwd` (with `env` added); resolve with its output whatever the exit code. */
export function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeoutMs = 300_000,
  env: Record<string, string> = {},
): Promise<Ran> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...userEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out, ms: Math.round(performance.now() - t0) }));
  });
}

/**
 * A spec a user writes by hand: their own fixture on a test.extend() of nestwright's test, whose
 * test.use still takes nestwright's options (type-checked against dist/), locators, expect, the
 * public subpath exports.
 */
export const HAND_SPEC = `import { test as base, expect, DeviceError, type Locator } from 'nestwright';
import { TOOL_NAMES, type ToolName } from 'nestwright/protocol';
import { DeviceClient } from 'nestwright/client';

const test = base.extend<{ titles: Locator }>({
  titles: async ({ app }, use) => use(app.getById('note_title')),
});
test.use({ apk: 'fixtures/apks/notes.apk', screenshot: 'on' });

test.describe('notes, by hand', () => {
  test('adds two notes and finds one among them', async ({ app, titles }) => {
    for (const title of ['Groceries', 'Gym']) {
      await app.getByText('New note').tap();
      await app.getById('title').fill(title);
      await app.getByRole('button', { name: 'Save' }).tap();
    }
    await expect(titles).toHaveCount(2);
    await expect(titles.filter({ hasText: 'Gro' })).toHaveText('Groceries');
    await expect(app.locator('text="Gym"')).toBeVisible();
    await expect(app).toHaveActivity('.MainActivity');
  });

  test('reaches the device through the fixtures', async ({ device, space }) => {
    expect(device.client).toBeInstanceOf(DeviceClient);
    const info = await device.client.call('runtime_info', {});
    expect(info.protocol_version).toBeTruthy();
    const name: ToolName = 'ui_observe';
    expect(TOOL_NAMES).toContain(name);
    const error = await device.client.call('space_status', { space_id: 'sp_nosuch' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeviceError);
    expect((error as DeviceError).code).toBe('SPACE_NOT_FOUND');
    expect(space.id).toMatch(/^sp_/);
  });

  test('a failing expectation fails the test with the call log', async ({ app }) => {
    test.fail();
    await expect(app.getByText('No such note')).toBeVisible({ timeout: 300 });
  });
});
`;

/** The user's tsconfig: what \`tsc --noEmit\` in a new TypeScript project would check with. */
export const USER_TSCONFIG = JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
    },
    include: ['**/*.ts'],
    exclude: ['node_modules'],
  },
  null,
  2,
);
