import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/** `nestwright test …` runs Playwright Test with the project's config (arguments passed through). */
export async function testCommand(argv: string[]): Promise<number> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const child = spawn(process.execPath, [cli, 'test', ...argv], { stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}
