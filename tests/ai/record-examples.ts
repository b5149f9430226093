import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../framework/inline.js';
import { exampleModel } from './example-model.js';
import { MessagesStandIn } from './stand-in.js';

/**
 * `npm run ai:record`: (re)record the action cache of the example AI specs against the stand-in
 * and its scripted model (there is no model on this machine). With a real key, running the
 * examples once after deleting specs/__ai-cache__/ records them against the real model instead.
 */
const specs = ['specs/notes-ai.spec.ts', 'specs/shop-ai.spec.ts'];
const model = await MessagesStandIn.start(exampleModel());
for (const s of specs) await rm(path.join(ROOT, 'specs/__ai-cache__', `${path.basename(s)}.json`), { force: true });
const env = {
  ...process.env,
  ANTHROPIC_BASE_URL: model.url,
  ANTHROPIC_API_KEY: 'stand-in',
  NESTWRIGHT_FAULTS: 'instant',
};
const code = await new Promise<number>((resolve) => {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/@playwright/test/cli.js'),
      'test',
      '-c',
      'playwright.config.ts',
      ...specs,
      '--workers=1',
      '--reporter=list',
    ],
    { cwd: ROOT, env, stdio: 'inherit' },
  );
  child.on('close', (c) => resolve(c ?? 1));
});
console.log(`${model.requests.length} model request(s) recorded the cache`);
await model.close();
process.exit(code);
