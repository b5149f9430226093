/**
 * `nestwright/reporters/allure`: a Playwright reporter writing Allure results from nestwright's
 * trajectories (docs/intro.md, "The report").
 *
 *   reporter: [['list'], ['nestwright/reporters/allure', { resultsDir: 'allure-results' }]]
 *
 * @module nestwright/reporters/allure
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { relative, resolve } from 'node:path';
import type { FullConfig, Reporter, Suite, TestCase, TestResult as PwTestResult } from '@playwright/test/reporter';
import { LabelName, Stage, Status, type Attachment, type TestResult } from 'allure-js-commons';
import { FileSystemWriter, md5 } from 'allure-js-commons/sdk/reporter';
import { CATEGORIES, classify, statusOf, tagMessage } from './categories.js';
import { ContentStore } from './content-store.js';
import { ScreenshotRenderer } from './screenshot-renderer.js';
import { contextHtml, contextLabels, optionParameters, runContext } from './context.js';
import { buildSteps, type StepContext } from './steps.js';
import {
  LOGCAT_ATTACHMENT,
  parseTrajectory,
  TRAJECTORY_ATTACHMENT,
  TREE_ATTACHMENT,
  type TrajectoryDoc,
  type TrajectoryStep,
} from './trajectory-schema.js';

/** The reporter's options: `['nestwright/reporters/allure', { resultsDir: 'allure-results' }]`. */
export interface AllureReporterOptions {
  /** Where to write Allure results (relative to the config file). Default `allure-results`. */
  resultsDir?: string;
  /** Screenshots wider than this are scaled down in the report (0: keep their size). Default 720. */
  screenshotWidth?: number;
  /** Extra lines for environment.properties, shown on the report's overview. */
  environment?: Record<string, string>;
}

type PwAttachment = PwTestResult['attachments'][number];

/** The trajectory's requests as a text table: time, instance, method, status, duration, who answered, URL. */
function networkTable(records: NonNullable<TrajectoryDoc['network']>): string {
  const t0 = records[0]!.startedAt;
  const rows = records.map((r) => [
    `+${r.startedAt - t0}ms`,
    r.instance ?? '-',
    r.method,
    r.status === null ? `failed (${r.error ?? 'failed'})` : String(r.status),
    `${r.durationMs}ms`,
    r.answeredBy,
    r.url,
  ]);
  const head = ['at', 'instance', 'method', 'status', 'time', 'answered by', 'url'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line)].join('\n') + '\n';
}

/**
 * Playwright reporter that writes standard Allure 2 results in which each test is its nestwright
 * trajectory: every action and assertion as a step, nested as the test nested them, with its
 * selector, resolved node and duration as parameters and its screens (target highlighted) and
 * observations as attachments; on failure the error with its code, the full tree and the logcat.
 * It reads only test results (never a device), so it also works under `merge-reports`.
 *
 *   reporter: [['list'], ['nestwright/reporters/allure', { resultsDir: 'allure-results' }]]
 */
export default class NestwrightAllureReporter implements Reporter {
  private store!: ContentStore;
  private screens!: ScreenshotRenderer;
  private writer!: FileSystemWriter;
  private rootDir = process.cwd();
  private readonly options: AllureReporterOptions;

  constructor(options: AllureReporterOptions = {}) {
    this.options = options;
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, _suite: Suite): void {
    this.rootDir = config.rootDir;
    const base = config.configFile ? resolve(config.configFile, '..') : process.cwd();
    const dir = resolve(base, this.options.resultsDir ?? process.env.ALLURE_RESULTS_DIR ?? 'allure-results');
    this.store = new ContentStore(dir);
    this.screens = new ScreenshotRenderer(dir, this.options.screenshotWidth ?? 720);
    this.writer = new FileSystemWriter({ resultsDir: dir });
    this.writer.writeCategoriesDefinitions(CATEGORIES);
    this.writer.writeEnvironmentInfo({
      node: process.version,
      playwright: config.version,
      workers: String(config.workers),
      ...(config.shard ? { shard: `${config.shard.current}/${config.shard.total}` } : {}),
      ...(process.env.NESTWRIGHT_FAULTS ? { 'fault profile': process.env.NESTWRIGHT_FAULTS } : {}),
      ...this.options.environment,
    });
  }

  onTestEnd(test: TestCase, result: PwTestResult): void {
    this.writer.writeResult(this.toAllure(test, result));
  }

  async onEnd(): Promise<void> {
    await this.screens.drain();
    if (this.screens.failures.length) {
      process.stderr.write(
        `nestwright allure reporter: ${this.screens.failures.length} screenshot(s) could not be rendered, e.g. ${this.screens.failures[0]}\n`,
      );
    }
  }

  /** The Allure result of one test attempt (retries are separate results with one history id). */
  toAllure(test: TestCase, result: PwTestResult): TestResult {
    const consumed = new Set<PwAttachment>();
    const byName = new Map<string, PwAttachment>();
    for (const a of result.attachments) if (!byName.has(a.name)) byName.set(a.name, a);
    const referenced = new Set<string>();
    const ctx: StepContext = {
      store: this.store,
      screens: this.screens,
      referenced,
      read: readAttachment,
      consume: (a) => consumed.add(a),
      body: (name) => {
        const a = byName.get(name);
        if (!a) return null;
        consumed.add(a);
        return readAttachment(a);
      },
    };

    const trajectoryAttachment = byName.get(TRAJECTORY_ATTACHMENT);
    let doc: TrajectoryDoc | null = null;
    let docError: string | null = null;
    const raw = trajectoryAttachment ? readAttachment(trajectoryAttachment) : null;
    if (raw) {
      const parsed = parseTrajectory(raw);
      if (parsed.ok) doc = parsed.value;
      else docError = parsed.error;
    }

    // On failure the framework attaches the full tree and the logcat; `failure` may name them.
    const treeRef = doc?.failure?.tree ?? (byName.has(TREE_ATTACHMENT) ? TREE_ATTACHMENT : undefined);
    // Device logs and crash reports, one per instance (`logcat <who>`, `crash <who>`); an older
    // trajectory names one `logcat`.
    const logcatRef = doc?.failure?.logcat ?? (byName.has(LOGCAT_ATTACHMENT) ? LOGCAT_ATTACHMENT : undefined);
    const logRefs = [...(doc?.failure?.logs ?? []), ...(doc?.failure?.crashes ?? [])];
    const harRef = doc?.failure?.har;
    for (const ref of [
      TRAJECTORY_ATTACHMENT,
      treeRef,
      logcatRef,
      ...logRefs,
      harRef,
      ...(doc?.steps ?? []).flatMap((t) => [
        t.screenshots.before,
        t.screenshots.after,
        t.observations?.before,
        t.observations?.after,
        ...Object.values(t.visual?.attachments ?? {}),
      ]),
    ]) {
      if (ref) referenced.add(ref);
    }
    const steps = buildSteps(result.steps, doc?.steps ?? [], ctx);
    const attachments: Attachment[] = [];
    const file = relative(this.rootDir, test.location.file);
    const describes = test.titlePath().slice(3, -1); // root, project, file, describe…, title
    const fullName = `${file}#${[...describes, test.title].join(' ')}`;
    const context = runContext(test, doc);
    // The step that failed the test: the last one that failed (an earlier one may have been caught).
    const failed = [...(doc?.steps ?? [])].reverse().find((s) => s.result === 'failed') ?? null;

    let status = toStatus(result.status);
    let statusDetails: TestResult['statusDetails'] = {};
    if (result.status === 'failed' || result.status === 'timedOut' || result.status === 'interrupted') {
      const error = result.errors[0] ?? result.error;
      const message =
        error?.message ??
        (result.status === 'timedOut' ? `Test timeout of ${test.timeout}ms exceeded.` : 'The test failed');
      const c = classify(
        result.annotations,
        result.status === 'timedOut' ? null : failed,
        result.status === 'timedOut',
      );
      status = statusOf(c);
      statusDetails = { message: tagMessage(c, stripAnsi(message)), trace: stripAnsi(error?.stack ?? '') };
      if (result.status === test.expectedStatus) {
        // test.fail(): failing is what the test expects (a known bug); Playwright counts it as passed.
        status = Status.PASSED;
        statusDetails.message = `Failed as expected (test.fail): ${statusDetails.message}`;
      }
      attachments.push(
        this.store.json('error', {
          code: c.code,
          class: c.class,
          message: stripAnsi(message),
          step: failed
            ? { index: failed.index, title: failed.title, api: failed.api, code: failed.error?.code ?? null }
            : null,
        }),
      );
      for (const [name, ref, type] of [
        ['full tree', treeRef, 'application/json'],
        ['logcat', logcatRef, 'text/plain'],
        ['network.har', harRef, 'application/json'],
      ] as const) {
        const body = ref ? ctx.body(ref) : null;
        if (body) attachments.push(this.store.put(name, type, body));
      }
      for (const ref of logRefs) {
        const body = ctx.body(ref);
        if (body) attachments.push(this.store.put(ref, 'text/plain', body));
      }
    }
    const retryDiff = result.annotations.find((a) => a.type === 'flaky')?.description;
    if (result.status === 'passed' && retryDiff) {
      // Passed on a retry: flaky, with what differed from the attempt that failed.
      statusDetails = { message: `Passed on retry ${result.retry}. What changed: ${retryDiff}` };
    }
    if (result.status === 'passed' && test.expectedStatus === 'failed') {
      status = Status.FAILED;
      statusDetails = {
        message: 'Expected to fail (test.fail), but passed: the bug it marks may be fixed; remove test.fail().',
      };
    }
    if (docError)
      steps.push({
        name: `Trajectory not shown: ${docError}`,
        status: Status.BROKEN,
        statusDetails: { message: docError },
        stage: Stage.FINISHED,
        steps: [],
        attachments: [],
        parameters: [],
      });

    // Every request the test's instances made (docs/network.md), as a table.
    if (doc?.network?.length) attachments.push(this.store.text('network', networkTable(doc.network)));

    // Whatever the test attached that no step showed: user attachments, the trajectory itself.
    for (const a of result.attachments) {
      if (consumed.has(a)) continue;
      const body = readAttachment(a);
      if (body) attachments.push(this.store.put(a.name, a.contentType, body));
    }
    for (const [name, chunks] of [
      ['stdout', result.stdout],
      ['stderr', result.stderr],
    ] as const) {
      const text = chunks.map((c) => c.toString()).join('');
      if (text) attachments.push(this.store.text(name, stripAnsi(text)));
    }

    const labels = [
      { name: LabelName.PARENT_SUITE, value: test.parent.project()?.name || 'nestwright' },
      { name: LabelName.SUITE, value: file },
      ...(describes.length ? [{ name: LabelName.SUB_SUITE, value: describes.join(' › ') }] : []),
      { name: LabelName.FRAMEWORK, value: 'nestwright' },
      { name: LabelName.LANGUAGE, value: 'typescript' },
      { name: LabelName.HOST, value: hostname() },
      { name: LabelName.THREAD, value: `worker ${result.workerIndex}` },
      ...test.tags.map((t) => ({ name: LabelName.TAG, value: t.replace(/^@/, '') })),
      ...contextLabels(context),
      // Whose the failure is (or `flaky · CODE` on the retry that passed), and a quarantine: as labels.
      ...result.annotations
        .filter((a) => (a.type === 'failure' || a.type === 'quarantine') && a.description)
        .map((a) => ({ name: a.type, value: a.description! })),
      // A test that passed on a healed locator says so where reports filter: a tag per heal kind.
      ...(['healed', 'heal-drift'] as const)
        .filter((type) => result.annotations.some((a) => a.type === type))
        .map((type) => ({ name: LabelName.TAG, value: type })),
    ];
    // AI steps: the test's total model requests, tokens and cost, as labels (and on the test page).
    const aiSteps = (doc?.steps ?? []).flatMap((t) => (t.ai ? [t.ai] : []));
    const aiTotals = aiSteps.length
      ? {
          requests: aiSteps.reduce((n, a) => n + a.usage.requests, 0),
          tokens: aiSteps.reduce(
            (n, a) => n + a.usage.input + a.usage.output + a.usage.cacheRead + a.usage.cacheWrite,
            0,
          ),
          usd: aiSteps.reduce((n, a) => n + a.costUsd, 0),
          cached: aiSteps.filter((a) => a.cache === 'hit').length,
        }
      : null;
    if (aiTotals) {
      labels.push(
        { name: 'ai.requests', value: String(aiTotals.requests) },
        { name: 'ai.tokens', value: String(aiTotals.tokens) },
        { name: 'ai.cost_usd', value: aiTotals.usd.toFixed(4) },
      );
    }
    const parameters = optionParameters(context);
    if (result.retry > 0) parameters.push({ name: 'retry', value: String(result.retry), excluded: true });

    const start = result.startTime.getTime();
    return {
      uuid: randomUUID(),
      historyId: md5(`${fullName}:${test.parent.project()?.name ?? ''}`),
      testCaseId: md5(fullName),
      fullName,
      titlePath: [file, ...describes],
      name: test.title,
      status,
      statusDetails,
      stage: Stage.FINISHED,
      start,
      stop: start + result.duration,
      descriptionHtml:
        contextHtml(context) +
          (aiTotals
            ? `<p>AI steps: ${aiSteps.length} (${aiTotals.cached} from the cache), ${aiTotals.requests} model requests, ${aiTotals.tokens} tokens, $${aiTotals.usd.toFixed(4)}</p>`
            : '') || undefined,
      labels,
      links: test.annotations
        .filter((a) => a.type === 'issue' && a.description)
        .map((a) => ({ type: 'issue', url: a.description!, name: a.description! })),
      parameters,
      steps,
      attachments,
    };
  }
}

function readAttachment(a: PwAttachment): Buffer | null {
  if (a.body) return a.body;
  if (!a.path) return null;
  try {
    return readFileSync(a.path);
  } catch {
    return null; // deleted by another reporter or a cleaned output dir: nothing to show
  }
}

function toStatus(s: PwTestResult['status']): Status {
  if (s === 'passed') return Status.PASSED;
  if (s === 'skipped') return Status.SKIPPED;
  return s === 'failed' ? Status.FAILED : Status.BROKEN;
}

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

export type { TrajectoryStep };
