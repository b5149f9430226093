import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownCodeDirs } from './package-root.js';

/**
 * Where a public API call was made in user code: the spec's file, line and column. Healing keys
 * its fingerprints by it and reports name it; the action pipeline captures it before its first
 * await, while the caller is still on the stack.
 */

/**
 * nestwright's own frames are not the user's: all of dist/ when compiled; from the sources,
 * framework/ and device-runtime/protocol/ (the agent core's act loop calls the locators of an AI
 * step, and is nestwright's too).
 */
const OWN_DIRS = ownCodeDirs('framework', join('device-runtime', 'protocol'));

export interface Site {
  file: string;
  line: number;
  column: number;
}

/** The first stack frame in user code (not nestwright's framework, not node_modules, not node:) of a formatted stack. */
export function userSite(stack: string | undefined): Site | null {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const m = /(?:\(|at )((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m) continue;
    const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    if (!inUserCode(file)) continue;
    return { file, line: Number(m[2]), column: Number(m[3]) };
  }
  return null;
}

const inUserCode = (file: string) =>
  !OWN_DIRS.some((d) => file.startsWith(d)) && !file.includes(`${sep}node_modules${sep}`);

type FormatStack = (error: Error, frames: NodeJS.CallSite[]) => unknown;

/**
 * Where a locator call was made: V8's frames (async ones included), kept unformatted. Formatting
 * a whole stack runs every frame through the source maps of Playwright's transpiled specs (its
 * `Error.prepareStackTrace`), every frame of every action of a test; `user()` finds the user's
 * frame by file name and formats that one frame alone, through the same formatter, so its line
 * and column are the spec's.
 */
export class CallSite {
  private constructor(
    private readonly frames: NodeJS.CallSite[],
    private readonly format: FormatStack | undefined,
  ) {}

  static capture(): CallSite {
    const format = Error.prepareStackTrace as FormatStack | undefined;
    const limit = Error.stackTraceLimit;
    const holder: { stack?: unknown } = {};
    let frames: unknown;
    Error.prepareStackTrace = (_e, callSites) => callSites;
    Error.stackTraceLimit = 40;
    try {
      Error.captureStackTrace(holder, CallSite.capture);
      frames = holder.stack; // read here: V8 formats on first read, with the formatter installed then
    } finally {
      Error.prepareStackTrace = format as typeof Error.prepareStackTrace;
      Error.stackTraceLimit = limit;
    }
    return new CallSite(Array.isArray(frames) ? (frames as NodeJS.CallSite[]) : [], format);
  }

  /** The first frame in user code, with the spec's line and column; null when there is none. */
  user(): Site | null {
    for (const frame of this.frames) {
      const name = frame.getFileName();
      if (!name || name.startsWith('node:')) continue;
      const file = name.startsWith('file://') ? fileURLToPath(name) : name;
      if (!inUserCode(file)) continue;
      const site = userSite(
        this.format ? String(this.format(new Error(), [frame])) : `Error\n    at ${frame.toString()}`,
      );
      if (site) return site;
    }
    return null;
  }
}
