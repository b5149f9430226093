import { test, expect } from '@playwright/test';
import { simCommand } from '../../device-runtime/sim/cli.js';

/** Run simCommand with flags that make it return before it starts; capture what it wrote. */
async function run(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const write = (s: string | Uint8Array) => ((out += String(s)), true);
  const saved = [process.stdout.write, process.stderr.write];
  process.stdout.write = write as typeof process.stdout.write;
  process.stderr.write = write as typeof process.stderr.write;
  try {
    return { code: await simCommand(argv), out };
  } finally {
    [process.stdout.write, process.stderr.write] = saved as [typeof process.stdout.write, typeof process.stderr.write];
  }
}

test('nestwright sim refuses bad flags with the flag at fault and exit code 2', async () => {
  expect(await run(['--port', 'x'])).toMatchObject({
    code: 2,
    out: expect.stringContaining('--port x: expected a port number'),
  });
  expect(await run(['--slots', '0'])).toMatchObject({ code: 2, out: expect.stringContaining('--slots 0') });
  expect(await run(['--lan'])).toMatchObject({ code: 2, out: expect.stringContaining('--lan needs --token-file') });
  expect(await run(['--lan', '--no-auth', '--token-file', '/tmp/x'])).toMatchObject({
    code: 2,
    out: expect.stringContaining('--no-auth'),
  });
  expect(await run(['--ephemeral', '--state-dir', '/tmp/x'])).toMatchObject({
    code: 2,
    out: expect.stringContaining('contradict'),
  });
  expect(await run(['--policy', '/no/such/policy.json', '--ephemeral'])).toMatchObject({
    code: 2,
    out: expect.stringContaining('--policy /no/such/policy.json'),
  });
  const unknown = await run(['--bogus']);
  expect(unknown.code).toBe(2);
  expect(unknown.out).toContain('usage: nestwright sim');
});

test('nestwright sim --help lists every flag and the default policy', async () => {
  const { code, out } = await run(['--help']);
  expect(code).toBe(0);
  for (const flag of [
    '--port',
    '--lan',
    '--token-file',
    '--state-dir',
    '--ephemeral',
    '--slots',
    '--policy',
    '--no-virtual-displays',
    '--no-auth',
    '--allow-host',
  ]) {
    expect(out).toContain(flag);
  }
  expect(out).toContain('pre-approved');
});
