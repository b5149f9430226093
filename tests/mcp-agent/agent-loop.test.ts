import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { makeProject, NOTES_APK, ok, stdioClient } from './helpers.js';

test.describe.configure({ timeout: 180_000 });

const spec = (locator: string) => `import { test, expect } from 'nestwright';

test('adds a note', async ({ app }) => {
  await ${locator}.tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Buy milk')).toBeVisible();
});
`;

/**
 * The loop an agent runs when a test breaks, over stdio with the SDK's stock client and only
 * nestwright's tools: run → read the failure → open the app → find and verify a locator → act
 * with it → write the fix → run again, green.
 */
test('an agent goes from a failed test to a verified locator fix with the MCP tools alone', async () => {
  const project = await makeProject({ 'specs/notes.spec.ts': spec(`app.getByText('Create note')`) });
  const client = await stdioClient(project.dir);
  try {
    // 1. The suite fails, and says where and why.
    const run = await ok(client, 'run_tests', {});
    expect(run).toMatchObject({ passed: 0, failed: 1 });
    const failure = run.failures[0];
    expect(failure.location).toBe('specs/notes.spec.ts:3');
    // The test's code is its failing step's (TIMEOUT once every nestwright error carries a code).
    expect(failure.error.code).toBe(failure.failing_step.error.code ?? 'TEST_FAILED');
    expect(failure.error.message).toContain('locator.tap: timeout');
    expect(failure.failing_step).toMatchObject({ api: 'locator.tap', result: 'failed' });
    // Whose it is: the test's (a locator that matches nothing on a screen that was stable).
    expect(failure.failure).toMatchObject({ class: 'test', api: 'locator.tap' });
    expect(failure.failing_step.selector).toContain('Create note');

    // 2. The failure: steps, the screen at the failure, and a screenshot that is a PNG.
    const details = await ok(client, 'get_failure', { trajectory_id: failure.trajectory_id, screenshot: true });
    expect(details.screen).toContain('"New note"');
    expect(details.has_screenshot).toBe(true);
    const image = details._content.find((c: { type: string }) => c.type === 'image') as {
      data: string;
      mimeType: string;
    };
    expect(image.mimeType).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(image.data, 'base64'));
    expect(png.width).toBeGreaterThan(100);

    // 3. A live instance: the broken locator matches nothing; the screen shows what is there.
    const opened = await ok(client, 'open_app', { app: NOTES_APK });
    const session = opened.session;
    expect((await ok(client, 'try_locator', { session, selector: "getByText('Create note')" })).verdict).toBe('none');
    const screen = await ok(client, 'observe', { session });
    const line = screen.screen.split('\n').find((l: string) => l.includes('"New note"'));
    const nodeId = line.trim().split(' ')[0];

    // 4. nestwright's suggestion for that node is strict-safe, and resolves to it alone.
    const { suggestions } = await ok(client, 'suggest_locator', { session, node_id: nodeId });
    const best = suggestions[0];
    expect(best).toMatchObject({ strategy: 'id', strict_safe: true, code: "app.getById('new_note')" });
    const tried = await ok(client, 'try_locator', { session, selector: best.code });
    expect(tried).toMatchObject({ verdict: 'unique', count: 1 });

    // 5. Acting with it leads where the test expects.
    const acted = await ok(client, 'act', { session, action: 'tap', selector: best.selector });
    expect(acted.activity).toBe('.EditNoteActivity');
    await ok(client, 'close_app', { session });

    // 6. The fix, written where specs live, turns the run green.
    const fixed = spec(best.code);
    const written = await ok(client, 'write_spec', { path: 'specs/notes.spec.ts', content: fixed });
    expect(written).toMatchObject({ path: path.join('specs', 'notes.spec.ts'), created: false });
    expect(await readFile(path.join(project.dir, 'specs/notes.spec.ts'), 'utf8')).toContain(
      "app.getById('new_note').tap()",
    );
    const rerun = await ok(client, 'run_tests', {});
    expect(rerun).toMatchObject({ passed: 1, failed: 0, failures: [] });
  } finally {
    await client.close();
    await project.remove();
  }
});
