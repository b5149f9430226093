import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSkill, SkillParseError, type Skill } from '../../protocol/skill/index.js';

/** A skill file the runtime serves. */
export interface LibrarySkill {
  skill: Skill;
  path: string;
}

/**
 * The skills a runtime serves: every `*.yaml` of one directory, parsed with the protocol's skill
 * schema when the runtime starts (a skill file that does not parse is reported then, with its
 * file:line:column, and not served). Read-only afterwards: nothing a caller does changes it.
 */
export class SkillLibrary {
  readonly skills: LibrarySkill[] = [];
  readonly problems: string[] = [];

  constructor(readonly dir: string | null) {
    if (!dir) return;
    let files: string[];
    try {
      files = readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort();
    } catch (e) {
      this.problems.push(`skills directory ${dir}: ${(e as Error).message}`);
      return;
    }
    for (const f of files) {
      const file = path.resolve(dir, f);
      try {
        this.skills.push({ skill: parseSkill(readFileSync(file, 'utf8'), file), path: file });
      } catch (e) {
        this.problems.push(e instanceof SkillParseError ? e.message : `${file}: ${(e as Error).message}`);
      }
    }
  }

  byName(name: string): LibrarySkill | undefined {
    return this.skills.find((s) => s.skill.name === name);
  }

  /** The skill a `run:` step names, by its path relative to the skill that names it. */
  byPath(from: string, rel: string): LibrarySkill | undefined {
    const file = path.resolve(path.dirname(from), rel);
    return this.skills.find((s) => s.path === file);
  }
}

const libraries = new WeakMap<object, SkillLibrary>();

/** The runtime's library, loaded once per runtime from its `skills` option. */
export function libraryOf(runtime: object, dir: string | null): SkillLibrary {
  let lib = libraries.get(runtime);
  if (!lib) {
    lib = new SkillLibrary(dir);
    for (const p of lib.problems) process.stderr.write(`nestwright sim: skill not served: ${p}\n`);
    libraries.set(runtime, lib);
  }
  return lib;
}
