import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSkill } from '../../device-runtime/protocol/skill/index.js';
import { fails, makeProject, ok, stdioClient } from './helpers.js';

test.describe.configure({ timeout: 240_000 });

/**
 * `record_skill` over the agent MCP server (the SDK's stock client on `nestwright mcp`): one
 * passing test becomes a skill under skills/, as `nestwright skill record` writes it; a failing
 * test is TEST_FAILED; and no tool of the server is a placeholder any more.
 */
test('record_skill writes a passing test as a skill; a failing one is TEST_FAILED; no tool is NOT_AVAILABLE', async () => {
  const project = await makeProject({
    'specs/notes.spec.ts': `import { test, expect } from 'nestwright';
test('adds a note', async ({ app }) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill('Milk');
  await app.getByRole('button', { name: 'Save' }).tap();
  await expect(app.getByText('Milk')).toBeVisible();
});
test('fails', async ({ app }) => {
  await expect(app.getByText('Never there')).toBeVisible({ timeout: 300 });
});
`,
  });
  const client = await stdioClient(project.dir);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('record_skill');
    expect(tools.filter((t) => (t.description ?? '').includes('NOT_AVAILABLE')).map((t) => t.name)).toEqual([]);
    const r = await ok(client, 'record_skill', {
      spec: 'specs/notes.spec.ts',
      test: 'adds a note',
      output: 'skills/add-milk.yaml',
    });
    expect(r).toMatchObject({ file: path.join('skills', 'add-milk.yaml'), name: 'add-milk' });
    expect(r.steps).toBeGreaterThanOrEqual(3);
    const text = readFileSync(path.join(project.dir, 'skills', 'add-milk.yaml'), 'utf8');
    const skill = parseSkill(text, 'add-milk.yaml');
    expect(skill).toMatchObject({ name: 'add-milk', app: 'com.nestwright.notes' });
    expect(text).toContain('Recorded by `nestwright skill record`');
    expect(
      await fails(client, 'record_skill', { spec: 'specs/notes.spec.ts', test: 'fails', output: 'skills/f.yaml' }),
    ).toMatchObject({ code: 'TEST_FAILED', message: expect.stringContaining('did not pass') });
  } finally {
    await client.close();
    await project.remove();
  }
});
