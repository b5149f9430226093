import type { TestInfo } from '@playwright/test';
import { dirname } from 'node:path';
import { z } from 'zod';
import { SkillAiSchema } from '../../device-runtime/protocol/skill/schema.js';
import { NestwrightError } from '../core/errors.js';
import { TestSlot, type SlotStore } from '../core/test-slot.js';

/** `use.skills`: how skill replays behave in this test. */
export const SkillOptionsSchema = z.strictObject({
  /** A step whose target is gone: 'fallback' lets the AI agent do its intent (checked by its post-checks); default 'off'. */
  ai: SkillAiSchema.default('off'),
});
/** What `use.skills` takes: `{ ai: 'fallback' | 'off' }`. */
export type SkillOptions = z.input<typeof SkillOptionsSchema>;

interface SkillContext {
  options: z.output<typeof SkillOptionsSchema>;
  /** Where proposals go: the project directory (playwright.config.ts's). */
  projectDir: string;
  test: string;
}

/** The running test's skill options, in its context (core/running-test.ts); defaults outside a test. */
const SKILLS = new TestSlot<SkillContext>('skills', () => ({
  options: { ai: 'off' },
  projectDir: process.cwd(),
  test: '',
}));

/** The running test's skill options (defaults outside a test). */
export function currentSkillContext(): SkillContext {
  return SKILLS.current();
}

/** The `_skills` fixture: `use.skills` for the test, checked. */
export async function runWithSkills(
  test: SlotStore,
  raw: unknown,
  info: TestInfo,
  use: () => Promise<void>,
): Promise<void> {
  const parsed = SkillOptionsSchema.safeParse(raw ?? {});
  if (!parsed.success)
    throw new NestwrightError('use.skills', `${z.prettifyError(parsed.error)} (expected { ai: 'fallback' | 'off' })`, {
      code: 'OPTION_INVALID',
    });
  test.set(SKILLS, {
    options: parsed.data,
    projectDir: info.config.configFile ? dirname(info.config.configFile) : info.config.rootDir,
    test: info.titlePath.slice(1).join(' › '),
  });
  await use();
}
