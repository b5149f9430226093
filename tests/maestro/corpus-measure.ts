import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseFlow, type RawCommand } from '../../framework/maestro/parse.js';
import { planFlow } from '../../framework/maestro/plan.js';
import { importMaestro } from '../../framework/skills/maestro.js';

/**
 * The corpus measure: every flow file of tests/maestro/corpus planned by the runner and imported
 * as skills, counted per command type. Each file counts its own commands (a sub-flow's are
 * counted in the sub-flow's file), so nothing is counted twice.
 */

/**
 * The env a repository's own instructions give its flows (what `maestro test -e …` is run with),
 * so a flow is measured as its team runs it. element-x-android: `.maestro/README.md` runs
 * `maestro test -e MAESTRO_APP_ID=io.element.android.x.debug …`. A repository whose instructions
 * name no value is measured without one (its `${MAESTRO_APP_ID}` is counted as a problem).
 */
export const REPO_ENV: Record<string, Record<string, string>> = {
  'element-hq__element-x-android': { MAESTRO_APP_ID: 'io.element.android.x.debug' },
  // dev-packages/e2e-tests/cli.mjs: `maestro test --env APP_ID=com.rndiffapp` on Android.
  'getsentry__sentry-react-native': { APP_ID: 'com.rndiffapp' },
  // scripts/runMaestro.ts: MAESTRO_APP_ID defaults to co.edgesecure.app.
  'EdgeApp__edge-react-gui': { MAESTRO_APP_ID: 'co.edgesecure.app' },
  // scripts/e2e-android-perf-local.sh: `maestro test -e APP_ID="me.rainbow"`.
  'rainbow-me__rainbow': { APP_ID: 'me.rainbow' },
  // package.json: `"test-android": "maestro test -e APP_ID=com.stripe.react.native"`.
  'stripe__stripe-react-native': { APP_ID: 'com.stripe.react.native' },
};

export interface Row {
  command: string;
  total: number;
  planned: number;
  imported: number;
}

export interface Measure {
  repos: number;
  flows: number;
  flowsClean: number;
  rows: Row[];
  problemsWithoutPlace: number;
  crashes: string[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

function names(list: RawCommand[], out: string[]): void {
  for (const c of list) {
    out.push(c.name);
    const a = c.arg as { commands?: unknown } | null;
    if (a && typeof a === 'object' && Array.isArray(a.commands)) {
      for (const inner of a.commands) {
        if (typeof inner === 'string') out.push(inner);
        else if (inner && typeof inner === 'object') {
          const [k, v] = Object.entries(inner)[0] ?? [];
          // `action: back` is counted as `back`, as the parser reads it (a top-level one too).
          if (k === 'action' && typeof v === 'string') out.push(v);
          else if (k) names([{ name: k, arg: v ?? null, line: 0, node: null }], out);
        }
      }
    }
  }
}

export function measure(root: string): Measure {
  const repos = readdirSync(root).filter((d) => statSync(path.join(root, d)).isDirectory());
  const files = walk(root).filter((f) => /\.ya?ml$/i.test(f) && !/(^|\/)config\.ya?ml$/i.test(f));
  const rows = new Map<string, Row>();
  const row = (n: string) =>
    rows.get(n) ?? (rows.set(n, { command: n, total: 0, planned: 0, imported: 0 }), rows.get(n)!);
  let flowsClean = 0;
  let problemsWithoutPlace = 0;
  const crashes: string[] = [];
  for (const file of files) {
    try {
      const parsed = parseFlow(readFileSync(file, 'utf8'), file);
      const all: string[] = [];
      names([...parsed.config.onFlowStart, ...parsed.commands, ...parsed.config.onFlowComplete], all);
      for (const n of all) row(n).total++;
      const plan = planFlow(file);
      const rejected = plan.issues.filter((i) => path.resolve(i.file) === path.resolve(file));
      const bad = new Map<string, number>();
      for (const i of rejected) bad.set(i.command, (bad.get(i.command) ?? 0) + 1);
      for (const n of new Set(all))
        row(n).planned += Math.max(0, all.filter((x) => x === n).length - (bad.get(n) ?? 0));
      const repo = path.relative(root, file).split(path.sep)[0]!;
      // The suite is the repository's folder: its flows run scripts from sibling folders (`../scripts/x.js`).
      const imp = importMaestro(file, { env: REPO_ENV[repo] ?? {}, suite: path.join(root, repo) });
      for (const c of imp.commands)
        if (path.resolve(c.file) === path.resolve(file) && c.imported) row(c.name).imported++;
      const mine = imp.problems.filter((p) => path.resolve(p.file) === path.resolve(file));
      if (mine.length === 0 && imp.skills.some((s) => s.skill)) flowsClean++;
      problemsWithoutPlace += [...imp.problems, ...plan.issues].filter((p) => !p.file || !(p.line >= 1)).length;
    } catch (e) {
      crashes.push(`${file}: ${(e as Error).stack}`);
    }
  }
  return {
    repos: repos.length,
    flows: files.length,
    flowsClean,
    rows: [...rows.values()].sort((a, b) => b.total - a.total),
    problemsWithoutPlace,
    crashes,
  };
}

/** The table as the docs print it. */
export function table(m: Measure): string {
  const pct = (a: number, b: number) => (b ? `${Math.round((100 * a) / b)}%` : '—');
  const sum = (k: 'total' | 'planned' | 'imported') => m.rows.reduce((s, r) => s + r[k], 0);
  const lines = [
    '| Command | In the corpus | Accepted by the planner | Imported as skill steps |',
    '| --- | ---: | ---: | ---: |',
  ];
  for (const r of m.rows) lines.push(`| \`${r.command}\` | ${r.total} | ${r.planned} | ${r.imported} |`);
  lines.push(
    `| **all** | **${sum('total')}** | **${sum('planned')} (${pct(sum('planned'), sum('total'))})** | **${sum('imported')} (${pct(sum('imported'), sum('total'))})** |`,
  );
  return lines.join('\n');
}
