import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { importCommand } from '../../cli/commands/import-maestro.js';
import { resolveAppId, shellEnv } from '../../framework/maestro/plan.js';

/**
 * As Maestro, a flow sees the shell's `MAESTRO_*` variables without `--env`: 76 of 244 public
 * flows declare `appId: ${MAESTRO_APP_ID}`, and failed to import whole before.
 */
test('only MAESTRO_* variables of the shell are taken, and an unresolved one says how to give it', () => {
  expect(shellEnv({ MAESTRO_APP_ID: 'com.example', HOME: '/root', APP_ID: 'x' })).toEqual({
    MAESTRO_APP_ID: 'com.example',
  });
  expect(resolveAppId('${MAESTRO_APP_ID}', {})).toEqual({
    error:
      'appId ${MAESTRO_APP_ID}: MAESTRO_APP_ID has no value; give it with --env MAESTRO_APP_ID=<package> or export MAESTRO_APP_ID',
  });
});

test('nestwright import maestro resolves appId: ${MAESTRO_APP_ID} from the shell; --env wins over it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nw-maestro-env-'));
  const before = process.env.MAESTRO_APP_ID;
  try {
    writeFileSync(path.join(dir, 'flow.yaml'), 'appId: ${MAESTRO_APP_ID}\n---\n- launchApp\n- tapOn: "New note"\n');
    process.env.MAESTRO_APP_ID = 'com.nestwright.notes';
    const io = { text: '', out: (s: string) => void (io.text += s), err: (s: string) => void (io.text += s) };
    const out = path.join(dir, 'skills', 'flow.yaml');
    expect(await importCommand(['maestro', path.join(dir, 'flow.yaml'), '-o', out], io), io.text).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('app: com.nestwright.notes');
    const io2 = { text: '', out: (s: string) => void (io2.text += s), err: (s: string) => void (io2.text += s) };
    const code = await importCommand(
      ['maestro', path.join(dir, 'flow.yaml'), '-o', out, '--env', 'MAESTRO_APP_ID=com.nestwright.shop'],
      io2,
    );
    expect(code, io2.text).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('app: com.nestwright.shop');
  } finally {
    if (before === undefined) delete process.env.MAESTRO_APP_ID;
    else process.env.MAESTRO_APP_ID = before;
    rmSync(dir, { recursive: true, force: true });
  }
});
