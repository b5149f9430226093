import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ObservationSchema } from '../../device-runtime/protocol/index.js';
import {
  TRAJECTORY_ATTACHMENT,
  TrajectorySchema,
  type TrajectoryStep,
} from '../../framework/core/trajectory-schema.js';
import { parseVerdict } from '../../framework/failure/classify.js';
import { FAILURE_CLASSES } from '../../framework/failure/codes.js';
import { AgentError, AgentErrorCodeSchema, type AgentErrorCode } from './errors.js';
import { plain, type JsonAttachment, type ReportedTest } from './report.js';
import { compactScreen } from './screen.js';

/**
 * Whose the failure is, as the test's `failure` annotation says (framework/failure/): the class,
 * the error's own code (any of the project's, not only the agent codes of `error.code`), the API
 * and step it failed in. `unclassified` for a report written without nestwright's fixtures.
 */
export const FailureClassSchema = z.object({
  class: z.enum([...FAILURE_CLASSES, 'unclassified']),
  code: z.string(),
  api: z.string().nullable(),
  step: z.string().nullable(),
  why: z.string(),
});
export type FailureClassRecord = z.infer<typeof FailureClassSchema>;

/** What `get_failure` returns about one failed test, kept on disk so it outlives the server. */
export interface FailureRecord {
  trajectory_id: string;
  title: string;
  file: string;
  line: number;
  error: { code: AgentErrorCode; message: string };
  failure: FailureClassRecord;
  failing_step: StepSummary | null;
  steps: StepSummary[];
  screen: string | null;
  logcat_tail: string[];
  /** The crash and ANR reports of the test's instances (`crash <package>@<instance>` attachments), each cut to 4,000 characters. */
  crashes?: string[];
  screenshot: string | null;
}

export interface StepSummary {
  index: number;
  title: string;
  api: string;
  selector: string | null;
  node: string | null;
  duration_ms: number;
  result: 'ok' | 'failed';
  source: string;
  error: { code: string | null; message: string } | null;
}

const body = (a: JsonAttachment | undefined) => (a?.body ? Buffer.from(a.body, 'base64') : null);

function summarize(s: TrajectoryStep): StepSummary {
  const n = s.node;
  return {
    index: s.index,
    title: s.title,
    api: s.api,
    selector: s.selector,
    node: n
      ? `${n.id} ${n.role}${n.text ? ` ${JSON.stringify(n.text)}` : ''}${n.res_id ? ` id=${n.res_id.replace(/^.*:id\//, '')}` : ''} [${n.bounds.join(',')}]`
      : null,
    duration_ms: s.durationMs,
    result: s.result,
    source: s.source,
    error: s.error ? { code: s.error.code ?? null, message: s.error.message } : null,
  };
}

/** One failed test of a report as a record: its trajectory, screen, logcat and screenshot. */
export function failureOf(t: ReportedTest, id: string): FailureRecord {
  const attachments = t.result?.attachments ?? [];
  const trajectoryBody = body(attachments.find((a) => a.name === TRAJECTORY_ATTACHMENT));
  // Attachments are files a report points at: read them with their schemas, and say what did not fit.
  const problems: string[] = [];
  const trajectory = trajectoryBody
    ? parseAttachment(TrajectorySchema, trajectoryBody, TRAJECTORY_ATTACHMENT, problems)
    : null;
  const steps: TrajectoryStep[] = trajectory?.steps ?? [];
  const failing = [...steps].reverse().find((s) => s.result === 'failed') ?? null;
  const tree = body(attachments.find((a) => a.name === 'full tree'));
  // The failing instance's log: the trajectory names one per instance (`failure.logs`), the app
  // under test's first; an older report, one `logcat`.
  const logNames = trajectory?.failure?.logs ?? [trajectory?.failure?.logcat ?? 'logcat'];
  const crashNames = trajectory?.failure?.crashes ?? [];
  const logcat = body(attachments.find((a) => a.name === logNames[0]));
  const crashes = crashNames.flatMap((n) => body(attachments.find((a) => a.name === n)) ?? []);
  const shotName = failing?.screenshots.after ?? failing?.screenshots.before;
  const shot = body(
    attachments.find((a) => a.name === shotName) ??
      [...attachments].reverse().find((a) => a.contentType === 'image/png' && a.body),
  );
  const screenObs = tree ? parseAttachment(ObservationSchema, tree, 'full tree', problems) : null;
  const reported =
    plain((t.result?.errors ?? []).map((e) => e.message ?? e.value ?? '').join('\n\n')) ||
    `the test ${t.result?.status ?? 'failed'}`;
  const message = problems.length ? `${reported}\n\n(${problems.join('; ')})` : reported;
  const fromStep = AgentErrorCodeSchema.safeParse(failing?.error?.code);
  const code: AgentErrorCode =
    t.result?.status === 'timedOut'
      ? 'TIMEOUT'
      : fromStep.success
        ? fromStep.data
        : failing
          ? 'TEST_FAILED'
          : 'ASSERTION_FAILED';
  const verdict = parseVerdict((t.result?.annotations ?? []).find((a) => a.type === 'failure')?.description);
  return {
    trajectory_id: id,
    title: t.title,
    file: t.file,
    line: t.line,
    error: { code, message: message.slice(0, 8_000) },
    failure: verdict ?? { class: 'unclassified', code, api: null, step: null, why: '' },
    failing_step: failing ? summarize(failing) : null,
    steps: steps.map(summarize),
    screen: screenObs ? compactScreen(screenObs) : null,
    logcat_tail: logcat ? logcat.toString('utf8').trimEnd().split('\n').slice(-40) : [],
    ...(crashes.length ? { crashes: crashes.map((c) => c.toString('utf8').trimEnd().slice(0, 4_000)) } : {}),
    screenshot: shot ? shot.toString('base64') : null,
  };
}

/** An attachment's JSON through its schema; null (and a line in `problems`) when it is not JSON or does not fit. */
function parseAttachment<T>(schema: z.ZodType<T>, body: Buffer, name: string, problems: string[]): T | null {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (e) {
    problems.push(`the "${name}" attachment is not JSON: ${(e as Error).message}`);
    return null;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  problems.push(
    `the "${name}" attachment does not match its schema: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`,
  );
  return null;
}

/** Failure records by trajectory id: in memory, and as files under `.nestwright/mcp/failures`. */
export class FailureStore {
  private readonly records = new Map<string, FailureRecord>();
  constructor(private readonly root: string) {}

  private file(id: string): string {
    return path.join(this.root, '.nestwright', 'mcp', 'failures', `${id}.json`);
  }

  async put(record: FailureRecord): Promise<void> {
    this.records.set(record.trajectory_id, record);
    await mkdir(path.dirname(this.file(record.trajectory_id)), { recursive: true });
    await writeFile(this.file(record.trajectory_id), JSON.stringify(record));
  }

  async get(id: string): Promise<FailureRecord> {
    const known = this.records.get(id);
    if (known) return known;
    if (/^[\w-]+$/.test(id)) {
      try {
        return JSON.parse(await readFile(this.file(id), 'utf8')) as FailureRecord;
      } catch {
        /* not on disk either */
      }
    }
    throw new AgentError(
      'TRAJECTORY_NOT_FOUND',
      `no failed test with trajectory id ${JSON.stringify(id)}`,
      'Use a trajectory_id from the failures that run_tests returned.',
    );
  }
}
