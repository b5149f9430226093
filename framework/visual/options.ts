import type { TestInfo } from '@playwright/test';
import { NestwrightError, type ApiName } from '../core/errors.js';
import type { Tolerance } from './compare.js';
import { parseColor } from './picture.js';

/**
 * The options of `toHaveScreenshot`, with Playwright's names and defaults. `mask` takes the
 * locators of the same app; `clip` is in screen px of the picture.
 */
export interface ScreenshotOptions<L = unknown> extends Tolerance {
  /** Locators whose nodes are painted over with `maskColor` before comparing (every match of each). */
  mask?: L[];
  /** Colour of the masks: `#rrggbb` or `#rrggbbaa`; default Playwright's `#FF00FF`. */
  maskColor?: string;
  /** Compare only this part of the screen, in screen px. */
  clip?: { x: number; y: number; width: number; height: number };
  /** ms for the whole assertion (settling, stable pictures, comparing); default the config's `expect.timeout`, stretched by the device's timing. */
  timeout?: number;
  /**
   * 'disabled' (default): wait until the device reports the screen idle (no transition, view
   * animation, background work or progress bar: `ui_wait_for idle`) before the first picture;
   * 'allow': compare the screen as it is, moving or not. Either way pictures are taken until two
   * in a row match.
   */
  animations?: 'disabled' | 'allow';
  /** 'hide' (default): leave out where the device says a text caret is; 'initial': compare it. */
  caret?: 'hide' | 'initial';
  /** 'hide' (default): leave out the status and navigation bars where the device says they are; 'show': compare them. */
  systemBars?: 'hide' | 'show';
}

/** The options after the config's defaults, checked. */
export interface ResolvedOptions<L> extends ScreenshotOptions<L> {
  animations: 'disabled' | 'allow';
  caret: 'hide' | 'initial';
  systemBars: 'hide' | 'show';
  mask: L[];
  maskRgba: [number, number, number, number];
}

/** Options only a call can give: Playwright does not take them from the config either. */
const CALL_ONLY = ['clip', 'mask', 'maskColor'] as const;

/**
 * The config's `expect.toHaveScreenshot` for the test's project, read where Playwright's own
 * toHaveScreenshot reads it: `testInfo._projectInternal.expect`, the runner's resolved config
 * (the project's `expect` when it has one, else the top level's: the two are not merged). The
 * public `testInfo.project` does not carry `expect`. Without that field (another runner
 * version), no defaults: the call's options and the built-in defaults hold.
 */
function configDefaults(api: ApiName, testInfo: TestInfo): Record<string, unknown> {
  const internal = (testInfo as { _projectInternal?: { expect?: { toHaveScreenshot?: unknown } } })._projectInternal;
  const given = internal?.expect?.toHaveScreenshot;
  if (given === undefined) return {};
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new NestwrightError(api, "the config's `expect.toHaveScreenshot` must be an object of options", {
      code: 'INVALID_ARGUMENT',
    });
  return given as Record<string, unknown>;
}

/** The config's `expect.toHaveScreenshot` (its project's, else the top level's), under the call's options. */
export function resolveOptions<L>(
  api: ApiName,
  testInfo: TestInfo,
  given: ScreenshotOptions<L>,
  isLocator: (v: unknown) => boolean,
): ResolvedOptions<L> {
  const fromConfig = { ...configDefaults(api, testInfo) };
  for (const k of CALL_ONLY) delete fromConfig[k];
  const o = { ...(fromConfig as ScreenshotOptions<L>), ...given };
  const bad = (what: string) => new NestwrightError(api, what, { code: 'INVALID_ARGUMENT' });
  if (o.maxDiffPixels !== undefined && !(Number.isInteger(o.maxDiffPixels) && o.maxDiffPixels >= 0))
    throw bad('`maxDiffPixels` option value must be non-negative integer');
  if (o.maxDiffPixelRatio !== undefined && !(o.maxDiffPixelRatio >= 0 && o.maxDiffPixelRatio <= 1))
    throw bad('`maxDiffPixelRatio` option value must be between 0 and 1');
  if (o.threshold !== undefined && !(o.threshold >= 0 && o.threshold <= 1))
    throw bad('`threshold` option value must be between 0 and 1 (a colour distance; default 0.2)');
  if (o.timeout !== undefined && !(o.timeout >= 0)) throw bad('`timeout` must be ms ≥ 0');
  const oneOf = <T extends string>(name: string, v: T | undefined, allowed: readonly T[]): T => {
    if (v === undefined) return allowed[0]!;
    if (!allowed.includes(v))
      throw bad(`\`${name}\` must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${JSON.stringify(v)}`);
    return v;
  };
  const mask = o.mask ?? [];
  if (!Array.isArray(mask) || !mask.every(isLocator))
    throw bad("`mask` takes an array of locators of this app, e.g. [app.getById('clock')]");
  const c = o.clip;
  if (c && !(c.width > 0 && c.height > 0 && c.x >= 0 && c.y >= 0))
    throw bad('`clip` needs x, y ≥ 0 and width, height > 0 (screen px)');
  const rgba = parseColor(o.maskColor ?? '#FF00FF');
  if (rgba instanceof Error) throw new NestwrightError(api, rgba.message, { code: 'INVALID_ARGUMENT' });
  return {
    ...o,
    animations: oneOf('animations', o.animations, ['disabled', 'allow'] as const),
    caret: oneOf('caret', o.caret, ['hide', 'initial'] as const),
    systemBars: oneOf('systemBars', o.systemBars, ['hide', 'show'] as const),
    mask,
    maskRgba: rgba,
  };
}
