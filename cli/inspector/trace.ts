import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One step of a trace as the viewer shows it. */
export interface TraceStep {
  title: string;
  status: 'passed' | 'failed' | 'broken' | 'skipped';
  selector: string | null;
  node: string | null;
  durationMs: number | null;
  error: string | null;
  /** PNGs as data URLs, with the target's bounds when the report outlined it. */
  screenshots: Array<{ name: string; png: string }>;
  /** Observations (the tree) as JSON text, when the trace holds them. */
  observations: Array<{ name: string; json: string }>;
  /** A visual comparison (toHaveScreenshot): what it found, and its pictures side by side (expected, actual, diff). */
  comparison: { summary: string; pictures: Array<{ kind: string; png: string }> } | null;
  depth: number;
}

export interface Trace {
  title: string;
  source: string;
  status: string;
  steps: TraceStep[];
}

class TraceError extends Error {
  readonly code = 'INVALID_TRACE';
}

/** The pictures of a visual comparison, in the order they are shown. */
const PICTURES = ['expected', 'actual', 'diff', 'previous'] as const;

function comparisonOf(summary: string | null, pictures: Array<{ kind: string; png: string }>): TraceStep['comparison'] {
  return summary || pictures.length ? { summary: summary ?? '', pictures } : null;
}

const dataUrl = (file: string) => `data:image/png;base64,${readFileSync(file).toString('base64')}`;

/** An Allure result (`allure-results/<uuid>-result.json`), its attachments read from the same folder. */
function fromAllure(file: string, json: any): Trace {
  const dir = path.dirname(file);
  const steps: TraceStep[] = [];
  const visit = (s: any, depth: number) => {
    const param = (name: string) => (s.parameters ?? []).find((p: any) => p.name === name)?.value ?? null;
    const attachments: any[] = s.attachments ?? [];
    const read = (a: any) => (a.source && existsSync(path.join(dir, a.source)) ? path.join(dir, a.source) : null);
    steps.push({
      title: s.name,
      status: s.status ?? 'passed',
      selector: param('selector'),
      node: param('node'),
      durationMs: s.stop && s.start ? s.stop - s.start : null,
      error: s.statusDetails?.message ?? null,
      screenshots: attachments
        .filter((a) => a.type === 'image/png' && read(a))
        .map((a) => ({ name: a.name, png: dataUrl(read(a)!) })),
      observations: attachments
        .filter((a) => a.type === 'application/json' && /observation|tree/.test(a.name) && read(a))
        .map((a) => ({ name: a.name, json: readFileSync(read(a)!, 'utf8') })),
      comparison: comparisonOf(
        param('comparison'),
        PICTURES.flatMap((kind) => {
          const a = attachments.find((x) => x.type === 'image/png' && x.name === kind && read(x));
          return a ? [{ kind, png: dataUrl(read(a)!) }] : [];
        }),
      ),
      depth,
    });
    for (const c of s.steps ?? []) visit(c, depth + 1);
  };
  for (const s of json.steps ?? []) visit(s, 0);
  return {
    title: json.fullName ?? json.name ?? path.basename(file),
    source: file,
    status: json.status ?? 'unknown',
    steps,
  };
}

/** A `nestwright-trajectory` attachment saved as a file; screenshots named in it are read from beside it. */
function fromTrajectory(file: string, json: any): Trace {
  const dir = path.dirname(file);
  const steps: TraceStep[] = (json.steps as any[]).map((t) => {
    const shots = (['before', 'after'] as const).flatMap((when) => {
      const name = t.screenshots?.[when];
      return name && existsSync(path.join(dir, name))
        ? [{ name: `screenshot ${when}`, png: dataUrl(path.join(dir, name)) }]
        : [];
    });
    const node = t.node
      ? `${t.node.role}${t.node.text ? ` "${t.node.text}"` : ''}${t.node.res_id ? ` id=${String(t.node.res_id).replace(/^.*:id\//, '')}` : ''} [${t.node.bounds.join(',')}]`
      : null;
    return {
      title: t.title,
      status: t.result === 'failed' ? 'failed' : 'passed',
      selector: t.selector ?? null,
      node,
      durationMs: t.durationMs ?? null,
      error: t.error ? `${t.error.code ? `[${t.error.code}] ` : ''}${t.error.message}` : null,
      screenshots: shots,
      observations: [],
      comparison: t.visual
        ? comparisonOf(
            `${t.visual.outcome}${t.visual.diffPixels !== undefined ? `: ${t.visual.diffPixels} pixels differ (ratio ${t.visual.ratio ?? 0})` : ''}`,
            PICTURES.flatMap((kind) => {
              const name = t.visual.attachments?.[kind];
              return name && existsSync(path.join(dir, name)) ? [{ kind, png: dataUrl(path.join(dir, name)) }] : [];
            }),
          )
        : null,
      depth: 0,
    };
  });
  const failed = steps.some((s) => s.status === 'failed');
  return { title: path.basename(file), source: file, status: failed ? 'failed' : 'passed', steps };
}

/** Read a trajectory file or an Allure result into the viewer's shape; a clear error for anything else. */
export function loadTrace(file: string): Trace {
  let json: any;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new TraceError(`show-trace: cannot read ${file} as JSON: ${(e as Error).message}`);
  }
  if (json && json.version === 1 && Array.isArray(json.steps)) return fromTrajectory(file, json);
  if (json && typeof json.uuid === 'string' && Array.isArray(json.steps)) return fromAllure(file, json);
  throw new TraceError(
    `show-trace: ${file} is neither a nestwright trajectory (the "nestwright-trajectory" attachment, {version: 1, steps}) nor an Allure result (allure-results/*-result.json)`,
  );
}
