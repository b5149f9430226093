import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { nestwrightTest } from './fixtures.js';
import { MaestroFlowError, planFlow, runMaestroFlow } from '../maestro/index.js';

const test = nestwrightTest((t, f) => t.extend(f));

/**
 * The Playwright side of `nestwright maestro test`: one test per flow, each on the `app` fixture
 * (a fresh instance of the flow's app, in the worker's space), so flows run in parallel on one
 * device, and the trajectory, Allure results and failure tools work as they do for specs.
 * The runner writes a manifest and a two-line spec that calls this.
 */

export interface MaestroManifest {
  flows: Array<{ file: string; title: string; apk: string; tags: string[] }>;
  env: Record<string, string>;
  lookupTimeout?: number;
  optionalTimeout?: number;
}

type Declare = (t: typeof test, title: string, details: { tag: string[] }, body: Parameters<typeof test>[2]) => void;

/**
 * `test()` called from the flow's own file: Playwright takes a test's location (the report's
 * `flow.yaml:1:1`, not this module's line in node_modules) from the stack frame that calls
 * `test()`, and a function compiled with the flow's path as its file name is that frame. The
 * code compiled is this fixed call, nothing of the flow.
 */
function declareIn(file: string): Declare {
  return vm.runInThisContext('(t, title, details, body) => t(title, details, body)', {
    filename: file,
    columnOffset: -'(t, title, details, body) => '.length,
  }) as Declare;
}

export function defineMaestroTests(manifestFile: string): void {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as MaestroManifest;
  for (const flow of manifest.flows) {
    test.describe(() => {
      test.use({ apk: flow.apk });
      declareIn(flow.file)(test, flow.title, { tag: flow.tags.map((t) => `@${t}`) }, async ({ app }) => {
        const plan = planFlow(flow.file);
        if (!plan.flow || plan.issues.length)
          throw new MaestroFlowError(
            `${flow.file} does not plan:\n${plan.issues.map((i) => `  ${i.file}:${i.line} ${i.command}: ${i.reason}`).join('\n')}`,
            flow.file,
            plan.issues[0]?.line ?? 1,
            { code: 'MAESTRO_INVALID' },
          );
        await runMaestroFlow(app, plan.flow, {
          env: manifest.env,
          ...(manifest.lookupTimeout !== undefined ? { lookupTimeout: manifest.lookupTimeout } : {}),
          ...(manifest.optionalTimeout !== undefined ? { optionalTimeout: manifest.optionalTimeout } : {}),
        });
      });
    });
  }
}
