import { mkdir, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../framework/inline.js';
import { nestwrightBin, writeChildTsconfig } from '../child-bundle.js';
import { childEnv, writeTree } from '../inline-run.js';

export { ROOT };
export const NOTES_APK = path.join(ROOT, 'fixtures/apks/notes.apk');
export { nestwrightBin };

/** A project of its own under test-results/ (inside the repository, so `nestwright` self-resolves). */
export async function makeProject(files: Record<string, string>): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = path.join(ROOT, 'test-results', 'mcp-agent', randomUUID().slice(0, 8));
  await mkdir(dir, { recursive: true });
  await writeChildTsconfig(dir, files);
  await writeTree(dir, {
    'playwright.config.ts': `import { defineConfig } from 'nestwright';
export default defineConfig({
  testDir: './specs',
  // Without it Playwright's outputDir is test-results/ beside package.json: the repository's,
  // which it empties at the start of a run, this project included.
  outputDir: './test-results',
  timeout: 30_000,
  expect: { timeout: 2_000 },
  workers: 1,
  use: { deviceOptions: { provider: 'sim' }, apk: ${JSON.stringify(NOTES_APK)}, actionTimeout: 2_000, trajectory: 'on', screenshot: 'only-on-failure' },
});
`,
    ...files,
  });
  return {
    dir,
    remove: () => (process.env.NESTWRIGHT_KEEP_INLINE ? Promise.resolve() : rm(dir, { recursive: true, force: true })),
  };
}

/** The SDK's stock client on `nestwright mcp` over stdio, output validation on (the default). */
export async function stdioClient(root: string, args: string[] = []): Promise<Client> {
  const client = new Client({ name: 'nestwright-tests', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [await nestwrightBin(), 'mcp', '--root', root, ...args],
    cwd: root,
    env: childEnv(),
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

/** A tool's structured result (throws with the error envelope when it failed). */
export async function ok<T = any>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  opts: Parameters<Client['callTool']>[2] = {},
): Promise<T & { _content: CallToolResult['content'] }> {
  const r = (await client.callTool({ name, arguments: args }, undefined, opts)) as CallToolResult;
  if (r.isError) throw new Error(`${name} failed: ${(r.content[0] as { text: string }).text}`);
  return { ...(r.structuredContent as T), _content: r.content };
}

/** A tool's error envelope (throws when it succeeded). */
export async function fails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ code: string; message: string; hint: string | null; retryable: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!r.isError) throw new Error(`${name} succeeded: ${JSON.stringify(r.structuredContent)}`);
  expectNoStructured(r);
  return (JSON.parse((r.content[0] as { text: string }).text) as { error: any }).error;
}

function expectNoStructured(r: CallToolResult): void {
  if (r.structuredContent !== undefined) throw new Error('an error result carries structuredContent');
}
