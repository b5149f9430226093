import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { inspectApk } from '../../../device-runtime/apk/index.js';
import { logOf } from '../authoring/log.js';
import { AgentError } from '../errors.js';
import type { AgentState } from '../state.js';
import { defineAgentTool } from '../tool.js';

/**
 * `app_map`: what the planner needs to know of an app before it explores: its activities (from
 * the APK's manifest), its deep links (VIEW intent filters with a scheme), the functions it
 * declares (`app.functions`, from a live session) and, when `nestwright crawl` has run, the
 * screens, transitions and crashes it found (`crawl/crawl.json`; only the fields read below are
 * relied on, and a map of another app, or one that does not parse, is left out with a note).
 */
export const CRAWL_FILE = 'crawl/crawl.json';

const CrawlSchema = z.object({
  version: z.literal(1),
  app: z.object({ package: z.string() }),
  screens: z.array(
    z.object({
      id: z.string(),
      activity: z.string().nullable(),
      title: z.string(),
      identify: z.array(z.object({ code: z.string() })).optional(),
    }),
  ),
  transitions: z.array(
    z.object({
      from: z.string(),
      to: z.string(),
      action: z.object({ kind: z.string(), label: z.string().optional() }),
    }),
  ),
  crashes: z.array(z.object({ id: z.string(), reason: z.string(), screen: z.string() })).optional(),
});

const MAX_LINES = 150;
const short = (pkg: string, name: string) => (name.startsWith(`${pkg}.`) ? name.slice(pkg.length) : name);
const cap = (lines: string[]) =>
  lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `… ${lines.length - MAX_LINES} more`] : lines;

export function appMapTools(state: AgentState) {
  const appMap = defineAgentTool({
    name: 'app_map',
    title: 'Map an app',
    description: `What an app has, for planning: activities (name, exported, launcher), deep links, app functions (with a session), and the screens, transitions and crashes of the project's ${CRAWL_FILE} when \`nestwright crawl\` made one. Give a session from open_app, or an APK path.`,
    input: z
      .object({
        session: z.string().min(1).optional(),
        app: z.string().min(1).optional().describe("An APK path relative to the project: 'fixtures/apks/shop.apk'"),
      })
      .strict(),
    result: z.object({
      package: z.string(),
      label: z.string().nullable(),
      activities: z
        .array(z.object({ name: z.string(), exported: z.boolean(), launcher: z.boolean() }))
        .nullable()
        .describe('Null when the app was given as a package (no APK to read)'),
      deep_links: z.array(z.string()),
      functions: z
        .array(z.object({ name: z.string(), description: z.string(), dangerous: z.boolean() }))
        .nullable()
        .describe('Null without a session'),
      crawl: z
        .object({ screens: z.array(z.string()), transitions: z.array(z.string()), crashes: z.array(z.string()) })
        .nullable(),
      notes: z.array(z.string()),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input, ctx) {
      const s = input.session ? state.sessions.get(ctx.sessionId, input.session) : null;
      const app = input.app ?? (s ? logOf(s).app : undefined);
      if (!app) throw new AgentError('INVALID_ARGUMENT', 'give a session or an app', 'app_map({ session: "s1" })');
      const notes: string[] = [];
      let pkg = s?.app.package ?? app;
      let label: string | null = null;
      let activities = null;
      const deepLinks: string[] = [];
      if (/\.(apk|apks|xapk)$/i.test(app)) {
        const info = await inspectApk(path.resolve(state.project.root, app));
        pkg = info.package;
        label = info.label;
        activities = info.activities.map((a) => ({
          name: short(info.package, a.name),
          exported: a.exported ?? a.intentFilters.length > 0,
          launcher: a.launcher,
        }));
        for (const a of info.activities)
          for (const f of a.intentFilters)
            if (f.actions.includes('android.intent.action.VIEW'))
              for (const d of f.data)
                if (d.scheme) deepLinks.push(`${d.scheme}://${d.host ?? ''}${d.path ?? d.pathPrefix ?? ''}`);
      } else notes.push('the app was given as a package: open it from an APK path for its activities and deep links');
      const functions = s
        ? (await s.app.functions.list()).map((f) => ({
            name: f.name,
            description: f.description,
            dangerous: f.dangerous,
          }))
        : null;
      return {
        result: {
          package: pkg,
          label,
          activities,
          deep_links: [...new Set(deepLinks)],
          functions,
          crawl: await readCrawl(state.project.root, pkg, notes),
          notes,
        },
      };
    },
  });
  return [appMap];
}

async function readCrawl(root: string, pkg: string, notes: string[]) {
  const file = path.join(root, CRAWL_FILE);
  if (!existsSync(file)) return null;
  let parsed;
  try {
    parsed = CrawlSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) {
    notes.push(`${CRAWL_FILE} does not parse as a crawl map (version 1): left out; run nestwright crawl again`);
    return null;
  }
  const map = parsed.data;
  if (map.app.package !== pkg) {
    notes.push(`${CRAWL_FILE} maps ${map.app.package}, not ${pkg}: left out`);
    return null;
  }
  return {
    screens: cap(
      map.screens.map(
        (x) =>
          `${x.id} ${x.activity ? short(pkg, x.activity) : '?'} ${JSON.stringify(x.title)}${x.identify?.length ? ` — ${x.identify[0]!.code}` : ''}`,
      ),
    ),
    transitions: cap(
      map.transitions.map((t) => `${t.from} -> ${t.to}: ${t.action.kind}${t.action.label ? ` ${t.action.label}` : ''}`),
    ),
    crashes: cap((map.crashes ?? []).map((c) => `${c.id} on ${c.screen}: ${c.reason.split('\n')[0]}`)),
  };
}
