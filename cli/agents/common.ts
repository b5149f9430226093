/** What `init-agents` writes for every loop: the seed spec the agents start from, and the plans folder. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Target } from './loops.js';

export const SEED_FILE = 'specs/seed.spec.ts';
export const PLANS_README = 'specs/plans/README.md';

export function seedSpec(app: string | null): string {
  const use = app
    ? `test.use({ apk: ${JSON.stringify(app)} });\n\n`
    : `// The app under test is use.apk of playwright.config.ts; name another here with\n// test.use({ apk: 'fixtures/apks/shop.apk' }).\n\n`;
  return `import { test, expect } from 'nestwright';

/**
 * The seed the test agents start from: a fresh instance of the app under test, in a space of its
 * own, in front and ready. The planner reads it to know the app; generated specs start the way it does.
 */
${use}test('seed', async ({ app }) => {
  await expect(app).toBeInForeground();
});
`;
}

const PLANS = `# Test plans

Markdown test plans, one file per feature, written by the planner agent (\`save_plan\`) or by hand,
and turned into specs by the generator agent. Each scenario starts from a fresh instance of the app
and says:

- **Start**: the activity or deep link it starts at (the launcher when not said);
- **Conditions**: the instance's world and network (offline, a network preset such as 'Slow 4G',
  a location, a locale), or none;
- **Steps**: numbered, naming each element as a user sees it;
- **Expected**: what the screen shows after, in words a test can check.

Generated specs name their plan on their first line (\`// spec: specs/plans/….md\`).
`;

/** An existing seed spec under specs/ (a file whose name holds "seed"), which is then kept as it is. */
function existingSeed(root: string): string | null {
  const dir = path.join(root, 'specs');
  if (!existsSync(dir)) return null;
  const found = readdirSync(dir).find((f) => /seed/i.test(f) && /\.(spec|test)\.[cm]?[jt]s$/.test(f));
  return found ? `specs/${found}` : null;
}

export function commonTargets(root: string, app: string | null): { targets: Target[]; seed: string } {
  const seed = existingSeed(root);
  const targets: Target[] = [{ kind: 'file', path: PLANS_README, content: PLANS, what: 'the folder for test plans' }];
  if (!seed || seed === SEED_FILE)
    targets.unshift({ kind: 'file', path: SEED_FILE, content: seedSpec(app), what: 'the seed spec agents start from' });
  return { targets, seed: seed ?? SEED_FILE };
}
