import type { ToolTransport } from '../../device-runtime/client/index.js';
import type { Session } from './session.js';

/** The groups of the kit, in the order of docs/protocol.md (and the report). */
export type CheckGroup = 'handshake' | 'tools' | 'errors' | 'semantics' | 'extensions' | 'timings';

/**
 * What a check found. `pass`/`fail` decide the exit code (a failed required check fails the
 * run); `warn` is a reported figure over the design's target (timings) or an optional check that
 * failed; `skip` says why the check could not run (an extension not advertised).
 */
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';

/** What one run of a check found, with the calls it made and what came back. */
export interface CheckOutcome {
  status: CheckStatus;
  /** What the check sent: tool calls as `tool {args}`. */
  sent: string[];
  /** What came back, short. */
  received: string;
  /** A measured figure (timings), in milliseconds. */
  ms?: number;
}

/** One check of the kit: what it verifies, where the design says so, how a runtime fixes a failure. */
export interface Check {
  id: string;
  group: CheckGroup;
  title: string;
  /** Section of the NestSpace design (nestspace-design.txt), or the docs/protocol.md anchor of an extension. */
  section: string;
  /** What the design (or the extension's documentation) says. */
  expects: string;
  fix: string;
  /** A failure fails the run (timings and skipped checks never do). */
  required: boolean;
  /** Runs the check against the runtime; throws CheckFailed (or anything) for a failure. */
  run(ctx: ConformanceContext): Promise<CheckOutcome>;
}

/** What every check gets: the first session's calls, new sessions, the fixtures, the runtime's own report. */
export interface ConformanceContext {
  /** The kit's first session (holds the fixture space). */
  main: Session;
  /** A further session to the same runtime (closed at the end of the run). */
  connect(): Promise<Session>;
  /** Paths the runtime can read of the fixture apps (notes: per-instance data; shop: a crash). */
  apks: { notes: string; shop: string };
  /** runtime_info as the runtime answered it, or null when it has none. */
  info: Record<string, unknown> | null;
  /** A space held EXCLUSIVE by `main` with notes and shop installed (made once per run). */
  space(): Promise<string>;
  /** Results of one call of each tool, made once per run (the tools group validates them). */
  tour(): Promise<Map<string, { args: Record<string, unknown>; answer: import('./session.js').Answer }>>;
}

/** How the kit reaches the runtime: a fresh transport per session. */
export interface ConformanceTarget {
  /** Opens a new transport to the runtime (one per session the kit needs). */
  connect(): Promise<ToolTransport>;
  /** Fixture APK paths as the runtime sees them (default: the package's fixtures/apks). */
  apks?: { notes: string; shop: string };
}

export { CheckFailed, expectThat } from './check-failed.js';
