import type { Key } from '../tools/ui.js';

/**
 * The types of a parsed skill, written out. `schema.ts` checks at compile time that each is
 * exactly what its zod schema infers, and gives the exported schemas these types: the inferred
 * ones, as the published declarations spelled them, were 389 kB of nested zod types that every
 * user's type check (and editor) read through `import … from 'nestwright'` (2.2–2.9 s of the
 * checking of a one-spec project with `skipLibCheck: false`).
 */

/** One selector, or alternatives tried in order (the first that is on screen is used). */
export type Target = string | string[];

/** A check on the screen: what `pre`, `post`, `when`, `assert` and `wait_for` hold to. */
export type Check =
  | { kind: 'visible'; visible: Target }
  | { kind: 'hidden'; hidden: Target }
  | { kind: 'text'; text: { target: string; value: string; exact: boolean } }
  | { kind: 'count'; count: { target: string; value: number } }
  | { kind: 'activity'; activity: string }
  | { kind: 'true'; true: string | boolean };

/** When a step's target is gone: 'fallback' lets the AI agent do its intent; 'off' fails. */
export type SkillAi = 'fallback' | 'off';

/** What every step may carry besides its action. */
export interface StepOptions {
  ai?: SkillAi | undefined;
  intent?: string | undefined;
  pre?: Check[] | undefined;
  post?: Check[] | undefined;
  optional?: boolean | undefined;
  when?: Check | undefined;
  retries?: number | undefined;
  timeout?: number | undefined;
}

/** A parameter value, as a skill declares or a caller passes it. */
export type ParamValue = string | number | boolean;

/** A step of kind `K`, whose action `A` is under the key `K`, with the options of every step. */
export type SkillStepOf<K extends string, A> = Flat<StepOptions & { kind: K } & { [P in K]: A }>;
/** One object type, not an intersection (what zod infers, and what a tooltip shows). */
type Flat<T> = { [P in keyof T]: T[P] };

/** A step that acts through the UI (every step but `fn`), by its action. */
export type UiSkillStep =
  | SkillStepOf<'launch', true | { activity?: string | undefined }>
  | SkillStepOf<'tap', Target>
  | SkillStepOf<'long_press', Target>
  | SkillStepOf<'fill', { target: Target; value: string }>
  | SkillStepOf<'clear', Target>
  | SkillStepOf<'press', Key>
  | SkillStepOf<'scroll_to', Target>
  | SkillStepOf<
      'swipe',
      { target?: Target | undefined; direction: 'up' | 'down' | 'left' | 'right'; distance?: number | undefined }
    >
  | SkillStepOf<'wait_for', 'idle' | Check>
  | SkillStepOf<'assert', Check>
  | SkillStepOf<
      'run',
      {
        skill: string;
        params: Record<string, ParamValue>;
        times?: number | string | undefined;
        while?: Check | undefined;
      }
    >
  | SkillStepOf<'script', string | { code: string; env?: Record<string, string> | undefined }>
  | SkillStepOf<'copy_text', Target>
  | SkillStepOf<'hide_keyboard', true>
  | SkillStepOf<'stop_app', true>
  | SkillStepOf<'open_link', string>
  | SkillStepOf<'ai_assert', string>
  | SkillStepOf<'screenshot', string>;

/** A step done by one of the app's declared functions, else by its `ui` steps. */
export type FnSkillStep = Flat<
  SkillStepOf<'fn', { name: string; params: Record<string, unknown> }> & { ui?: UiSkillStep[] | undefined }
>;

/** Any step of a skill. */
export type SkillStep = UiSkillStep | FnSkillStep;
export type StepKind = SkillStep['kind'];

/** A declared parameter of a skill. */
export interface SkillParam {
  type: 'string' | 'number' | 'boolean';
  description?: string | undefined;
  example?: ParamValue | undefined;
  default?: ParamValue | undefined;
}

/** A parsed skill file. */
export interface Skill {
  name: string;
  description?: string | undefined;
  app: string;
  apk?: string | undefined;
  ai?: SkillAi | undefined;
  params: Record<string, SkillParam>;
  steps: SkillStep[];
}
