import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from '@playwright/test';
import { parseSkill, SkillParseError, type Skill } from '../../device-runtime/protocol/skill/index.js';
import { NestwrightError, type ApiName } from '../core/errors.js';

/** A skill file that cannot be used: its problems, each at file:line:column. */
export class SkillInvalidError extends NestwrightError {
  constructor(
    call: ApiName,
    message: string,
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(call, message, { ...options, code: 'SKILL_INVALID' });
  }
}

/** Where a test looks for `skills/x.yaml`: the working directory, then the config's directory. */
function candidates(file: string, from?: string): string[] {
  if (path.isAbsolute(file)) return [file];
  if (from) return [path.resolve(path.dirname(from), file)];
  const out = [path.resolve(file)];
  try {
    const config = test.info().config.configFile;
    if (config) out.push(path.resolve(path.dirname(config), file));
  } catch {
    // Outside a test: the working directory only.
  }
  return out;
}

/**
 * Read and parse a skill. `from` is the skill that runs it (`run:` paths are relative to the
 * file that names them). Errors name the API and list every problem with its place.
 */
export function loadSkill(call: ApiName, file: string, from?: string): { skill: Skill; path: string } {
  const tried = candidates(file, from);
  const found = tried.find((p) => existsSync(p));
  if (!found)
    throw new SkillInvalidError(call, `no skill file ${JSON.stringify(file)} (looked at ${tried.join(', ')})`, file);
  const shown = path.relative(process.cwd(), found) || found;
  try {
    return { skill: parseSkill(readFileSync(found, 'utf8'), shown), path: found };
  } catch (e) {
    if (e instanceof SkillParseError) throw new SkillInvalidError(call, e.message, shown, { cause: e });
    throw e;
  }
}
