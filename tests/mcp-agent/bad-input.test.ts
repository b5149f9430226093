import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fails, makeProject, ok, stdioClient } from './helpers.js';

test.describe.configure({ timeout: 180_000 });

/** Processes whose environment says they belong to a `run_tests` run of ours. */
function processesOfRun(runMarker: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`NESTWRIGHT_MCP_RUN=${runMarker}`))
        pids.push(Number(pid));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return pids;
}

test('bad input gets a structured error: unknown arguments, paths outside specs/, unknown sessions and failures', async () => {
  const project = await makeProject({
    'specs/a.spec.ts': `import { test } from 'nestwright';\ntest('a', async () => {});\n`,
  });
  await mkdir(path.join(project.dir, 'specs'), { recursive: true });
  await symlink('/tmp', path.join(project.dir, 'specs', 'escape'));
  const client = await stdioClient(project.dir);
  try {
    expect(await fails(client, 'run_tests', { grep: 'a', bogus: true })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('bogus'),
    });
    expect(await fails(client, 'observe', {})).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('session'),
    });
    expect(await fails(client, 'no_such_tool', {})).toMatchObject({ code: 'UNKNOWN_TOOL' });
    for (const p of [
      '../outside.spec.ts',
      '/etc/passwd',
      'src/a.spec.ts',
      'specs/../../x.spec.ts',
      'specs/escape/x.spec.ts',
      'skills/flow.ts',
      'specs',
    ]) {
      const e = await fails(client, 'write_spec', { path: p, content: 'x' });
      expect(e.code, p).toBe('PATH_NOT_ALLOWED');
      expect(e.hint).toContain('specs/');
    }
    expect(readdirSync('/tmp')).not.toContain('x.spec.ts');
    expect(await fails(client, 'observe', { session: 's404' })).toMatchObject({
      code: 'SESSION_NOT_FOUND',
      hint: expect.stringContaining('open_app'),
    });
    expect(await fails(client, 'act', { session: 's404', action: 'tap', selector: 'text=x' })).toMatchObject({
      code: 'SESSION_NOT_FOUND',
    });
    expect(await fails(client, 'get_failure', { trajectory_id: 'nope' })).toMatchObject({
      code: 'TRAJECTORY_NOT_FOUND',
    });
    expect(await fails(client, 'record_skill', { test: 'a' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('output'),
    });
    expect(
      await fails(client, 'record_skill', { spec: 'specs/a.spec.ts', test: 'a', output: '../x.yaml' }),
    ).toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    expect(await fails(client, 'apply_heal', { ids: ['deadbeef'] })).toMatchObject({
      code: 'PROPOSAL_NOT_FOUND',
      message: expect.stringContaining('the last run proposed: nothing'),
      hint: expect.stringContaining('heal_proposals'),
    });
    expect(await fails(client, 'apply_heal', { ids: [] })).toMatchObject({ code: 'INVALID_ARGUMENT' });
    // A broken locator expression is an argument error, not a crash.
    const opened = await ok(client, 'open_app', { app: 'com.android.settings' });
    expect(
      await fails(client, 'try_locator', { session: opened.session, selector: "getByRole('button', { name: " }),
    ).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(
      await fails(client, 'act', { session: opened.session, action: 'fill', selector: 'text=Wi-Fi' }),
    ).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('value') });
    expect(await fails(client, 'suggest_locator', { session: opened.session, node_id: 'n_9999' })).toMatchObject({
      code: 'NODE_NOT_FOUND',
    });
    await ok(client, 'close_app', { session: opened.session });
    expect(await fails(client, 'close_app', { session: opened.session })).toMatchObject({ code: 'SESSION_NOT_FOUND' });
  } finally {
    await client.close();
    await project.remove();
  }
});

test('cancelling run_tests stops Playwright, its workers and its device, and leaves nothing running', async () => {
  const project = await makeProject({
    'specs/slow.spec.ts': `import { test } from 'nestwright';\nfor (let i = 0; i < 4; i++) test('slow ' + i, async ({ app }) => { await new Promise((r) => setTimeout(r, i === 0 ? 10 : 60_000)); });\n`,
  });
  const client = await stdioClient(project.dir);
  try {
    const controller = new AbortController();
    const progress: string[] = [];
    const call = client.callTool({ name: 'run_tests', arguments: {} }, undefined, {
      signal: controller.signal,
      timeout: 170_000,
      onprogress: (p) => {
        progress.push(p.message ?? '');
        // The first test is done: the run is well under way. Cancel it.
        if (p.progress >= 1) controller.abort('enough');
      },
    });
    await expect(call).rejects.toThrow();
    expect(progress.some((m) => m.includes('slow 0'))).toBe(true);
    const runs = readdirSync(path.join(project.dir, 'test-results', 'nestwright-mcp'));
    expect(runs).toHaveLength(1);
    await expect.poll(() => processesOfRun(runs[0]!), { timeout: 10_000 }).toEqual([]);
    // The server is still there and answers.
    expect((await ok(client, 'list_tests', {})).tests).toHaveLength(4);
  } finally {
    await client.close();
    await project.remove();
  }
});
