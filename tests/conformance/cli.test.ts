import { test, expect } from '@playwright/test';
import { conformanceCommand } from '../../cli/commands/conformance.js';

function buffers() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

test('nestwright conformance --json --only: the embedded simulator, the groups asked for, exit 0', async () => {
  const b = buffers();
  expect(await conformanceCommand(['--json', '--only', 'handshake,errors.unknown_space'], b.io)).toBe(0);
  const report = JSON.parse(b.out.join(''));
  expect(report.checks.map((c: { id: string }) => c.id)).toEqual([
    'handshake.runtime_info',
    'handshake.protocol_version',
    'handshake.tools_listed',
    'errors.unknown_space',
  ]);
  expect(report.checks[3]).toMatchObject({
    status: 'pass',
    section: expect.stringContaining('§'),
    fix: expect.any(String),
    sent: [expect.stringContaining('space_status')],
  });
  expect(report.failed).toBe(0);
});

test('nestwright conformance: usage errors exit 2; an unreachable runtime exits 1', async () => {
  const b = buffers();
  expect(await conformanceCommand(['--only', 'nonsense'], b.io)).toBe(2);
  expect(b.err.join('')).toContain('no group or check nonsense');
  expect(await conformanceCommand(['--device', 'http://127.0.0.1:9/mcp', '--adb'], b.io)).toBe(2);
  expect(await conformanceCommand(['--device', 'http://127.0.0.1:9/mcp'], b.io)).toBe(1);
  expect(b.err.join('')).toContain('cannot check the runtime');
});
