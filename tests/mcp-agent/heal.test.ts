import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { fails, makeProject, ok, ROOT, stdioClient } from './helpers.js';

test.describe.configure({ timeout: 420_000 });

/** Written against Notes 1.0; `v2` runs the same steps on Notes 2.0 (renamed ids, "Create note") with healing on. */
const spec = (v2: boolean) => `import { test, expect } from 'nestwright';
test.use(${v2 ? `{ apk: ${JSON.stringify(path.join(ROOT, 'fixtures/apks/notes-v2.apk'))}, heal: 'auto' }` : '{}'});
test('adds a note', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Buy milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Buy milk')).toBeVisible();
});
`;

/**
 * An agent heals a spec after an app update with the MCP tools alone (the SDK's stock client over
 * stdio): run on 1.0 (fingerprints recorded), the app updated, run with healing, read the
 * proposals with their screenshots, apply them, and run green with no healing left to do.
 */
test("heal_proposals lists the last run's healed locators; apply_heal edits the spec; the next run needs no healing", async () => {
  const project = await makeProject({ 'specs/notes.spec.ts': spec(false) });
  const client = await stdioClient(project.dir);
  try {
    expect(await ok(client, 'run_tests', {})).toMatchObject({ passed: 1, failed: 0 });
    expect((await ok(client, 'heal_proposals', {})).proposals).toEqual([]);

    await ok(client, 'write_spec', { path: 'specs/notes.spec.ts', content: spec(true) });
    expect(await ok(client, 'run_tests', {})).toMatchObject({ passed: 1, failed: 0 });
    const listed = await ok(client, 'heal_proposals', { screenshots: true });
    expect(listed.proposals.map((p: { selector: string; proposed: string }) => [p.selector, p.proposed])).toEqual([
      ["text='New note'", 'text=Create note'],
      ['id=title', 'id=note_title'],
    ]);
    expect(listed.proposals[1]).toMatchObject({
      spec: 'specs/notes.spec.ts',
      line: 5,
      mode: 'auto',
      by: 'score',
      test: 'adds a note',
    });
    expect(listed.proposals[1].margin).toBeGreaterThanOrEqual(0.1);
    expect(listed.proposals[1].screenshots).toEqual([
      expect.stringMatching(/^\.nestwright\/heal\/proposals\/[0-9a-f]{8}-before\.png$/),
      expect.stringMatching(/-after\.png$/),
    ]);
    const images = listed._content.filter((c: { type: string }) => c.type === 'image') as Array<{
      data: string;
      mimeType: string;
    }>;
    expect(images).toHaveLength(2);
    expect(PNG.sync.read(Buffer.from(images[0]!.data, 'base64')).width).toBeGreaterThan(100);

    const ids = listed.proposals.map((p: { id: string }) => p.id);
    const applied = await ok(client, 'apply_heal', { ids });
    expect(applied.not_applied).toEqual([]);
    expect(applied.applied.map((a: { before: string; after: string }) => [a.before, a.after])).toEqual([
      ["app.getByText('New note')", "app.getByText('Create note')"],
      ["app.getById('title')", "app.getById('note_title')"],
    ]);
    expect(await readFile(path.join(project.dir, 'specs/notes.spec.ts'), 'utf8')).toBe(
      spec(true)
        .replace("getByText('New note')", "getByText('Create note')")
        .replace("getById('title')", "getById('note_title')"),
    );
    // Applied proposals are withdrawn: applying them again is an error that says what to do.
    expect((await ok(client, 'heal_proposals', {})).proposals).toEqual([]);
    expect(await fails(client, 'apply_heal', { ids: [ids[0]] })).toMatchObject({ code: 'PROPOSAL_NOT_FOUND' });

    expect(await ok(client, 'run_tests', {})).toMatchObject({ passed: 1, failed: 0 });
    expect((await ok(client, 'heal_proposals', {})).proposals).toEqual([]);
  } finally {
    await client.close();
    await project.remove();
  }
});
