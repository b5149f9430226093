import { test, type TestInfo } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { NestwrightError } from '../core/errors.js';
import type { PortLocator } from '../core/port.js';
import { capture, type Shot } from './capture.js';
import { compareImages } from './compare.js';
import { snapshotNames, withSuffix } from './names.js';
import { resolveOptions, type ResolvedOptions, type ScreenshotOptions } from './options.js';
import { Picture } from './picture.js';
import type { VisualPort } from './port.js';
import type { ApiCall } from '../core/api-call.js';
import type { VisualRecord } from './record.js';
import { stablePicture, type LoopResult } from './stable.js';

const API = 'expect.toHaveScreenshot';

type State = { isNot: boolean; timeout?: number };
type Attachment = { name: string; contentType: string; path: string };
/** A matcher result as Playwright's own toHaveScreenshot returns it (attachments and softError are read by its expect). */
type Result = {
  pass: boolean;
  name: string;
  message: () => string;
  expected?: string;
  actual?: string;
  attachments?: Attachment[];
  softError?: Error;
  shouldNotRetryTest?: boolean;
  log?: string[];
};

/**
 * `expect(app | locator).toHaveScreenshot(name?, options?)` with Playwright's semantics: the
 * baseline at `testInfo.snapshotPath(name, { kind: 'screenshot' })`; the runner's
 * `updateSnapshots` (`--update-snapshots`: none, missing, changed, all; by default a missing
 * baseline is written and the test fails saying so); on a difference the expected, actual and
 * diff pictures attached as `<name>-expected.png`, `<name>-actual.png`, `<name>-diff.png`.
 */
export async function toHaveScreenshot(
  state: State,
  port: VisualPort,
  target: PortLocator | null,
  nameOrOptions?: string | string[] | ScreenshotOptions<PortLocator>,
  optOptions?: ScreenshotOptions<PortLocator>,
): Promise<Result> {
  const testInfo = currentTest();
  const named = typeof nameOrOptions === 'string' || Array.isArray(nameOrOptions);
  const given = (named ? optOptions : nameOrOptions) ?? {};
  if ((testInfo.project as { ignoreSnapshots?: boolean }).ignoreSnapshots)
    return { pass: !state.isNot, name: 'toHaveScreenshot', message: () => '' };
  const o = resolveOptions<PortLocator>(API, testInfo, given, (l) => port.owns(l));
  if (target && o.clip)
    throw new NestwrightError(API, "`clip` is for expect(app): a locator's picture is its node's bounds", {
      code: 'INVALID_ARGUMENT',
    });
  const names = snapshotNames(API, testInfo, named ? nameOrOptions : (given as { name?: string }).name);
  const update = testInfo.config.updateSnapshots as string;
  const has = existsSync(names.path);
  const out = (suffix: string) => testInfo.outputPath(withSuffix(names.base, suffix));
  const attach = (suffix: string, path: string): Attachment => ({
    name: withSuffix(names.base, suffix),
    contentType: 'image/png',
    path,
  });
  const header = (timedOut?: boolean) =>
    `expect(${target ? 'locator' : 'app'}).${state.isNot ? 'not.' : ''}toHaveScreenshot(${JSON.stringify(names.name)}) failed\n\n` +
    (target ? `Locator: ${target}\n` : `App: ${port.who}\n`) +
    (timedOut ? `Timeout: ${port.describeTimeout(port.timeout(o.timeout))}\n` : '') +
    '\n';
  const result = (pass: boolean, message: string, extra: Partial<Result> = {}): Result => ({
    pass,
    name: 'toHaveScreenshot',
    message: () => message,
    expected: names.path,
    actual: out('-actual'),
    ...extra,
  });

  if (state.isNot && !has)
    return result(
      true,
      `A snapshot doesn't exist at ${names.path}${update !== 'none' ? ', matchers using ".not" won\'t write them automatically.' : '.'}`,
    );
  if (!state.isNot && update === 'none' && !has) return result(false, `A snapshot doesn't exist at ${names.path}.`);

  const record: VisualRecord = {
    name: names.name,
    baseline: names.path,
    outcome: 'matched',
    threshold: o.threshold ?? 0.2,
    ...(o.maxDiffPixels !== undefined ? { maxDiffPixels: o.maxDiffPixels } : {}),
    ...(o.maxDiffPixelRatio !== undefined ? { maxDiffPixelRatio: o.maxDiffPixelRatio } : {}),
    masks: o.mask.map(String),
    excluded: [],
    attachments: {},
  };
  const title = `Expect ${target ? `${target} ` : ''}${state.isNot ? 'not ' : ''}toHaveScreenshot(${names.name})`;
  const failed = new Error('toHaveScreenshot failed');
  let verdict: Result | undefined;
  await port.wrap(API, { timeout: o.timeout }, (call) =>
    port
      .step(call, title, target ? target.toString() : null, async (rec) => {
        rec.visual = record;
        const expected = has && update !== 'all' ? baseline(names.path) : null;
        const r = await run(call, port, target, o, expected, state.isNot);
        if (r.actual) {
          record.size = { width: r.actual.picture.width, height: r.actual.picture.height };
          record.excluded = r.actual.excludedKinds;
        }
        if (r.comparison) Object.assign(record, { diffPixels: r.comparison.diffPixels, ratio: r.comparison.ratio });
        verdict = await decide(state, r, {
          names,
          has,
          update,
          expectedBytes: has ? readFileSync(names.path) : null,
          out,
          attach,
          header,
          result,
          record,
        });
        const files = verdict.attachments ?? [];
        for (const kind of ['expected', 'actual', 'diff', 'previous'] as const) {
          const a = files.find((f) => f.name === withSuffix(names.base, `-${kind}`));
          if (a) record.attachments[kind] = a.name;
        }
        if (verdict.pass === state.isNot) throw failed;
      })
      .catch((e: unknown) => {
        if (e !== failed) throw e;
      }),
  );
  return verdict!;
}

/** Settle (animations: 'disabled'), then Playwright's loop; `.not` compares once stable. */
async function run(
  call: ApiCall,
  port: VisualPort,
  target: PortLocator | null,
  o: ResolvedOptions<PortLocator>,
  expected: Picture | null,
  isNot: boolean,
): Promise<LoopResult> {
  const ms = call.timeout;
  const deadline = port.clock.now() + ms;
  const log: string[] = [`${API} with timeout ${port.describeTimeout(ms)}`];
  await port.front(call);
  if (target) await port.waitFor(call, target, ms);
  const take = () => capture(port, call, target, o);
  if (o.animations === 'disabled') {
    log.push('waiting for the device to report the screen idle (animations: "disabled")');
    if (!(await port.idle(call, Math.max(0, deadline - port.clock.now())))) {
      const shot = await take();
      return {
        ...(typeof shot === 'string' ? {} : { actual: shot }),
        errorMessage: `The screen never settled: the device still reported it busy (a transition, an animation, background work or a progress bar) after ${port.describeTimeout(ms)}. Wait for what the test expects to see first, or compare the screen as it is with animations: 'allow'.`,
        timedOut: true,
        unstable: true,
        log,
      };
    }
  }
  if (!isNot) return stablePicture(take, expected, o, deadline, port.clock, log);
  // .not: a stable picture, which must then differ from the baseline.
  const r = await stablePicture(take, null, o, deadline, port.clock, log);
  return r.actual && expected
    ? { ...r, comparison: await compareImages(r.actual.picture, expected, o, r.actual.excluded) }
    : r;
}

interface Ctx {
  names: { name: string; path: string; base: string };
  has: boolean;
  update: string;
  expectedBytes: Buffer | null;
  out: (suffix: string) => string;
  attach: (suffix: string, path: string) => Attachment;
  header: (timedOut?: boolean) => string;
  result: (pass: boolean, message: string, extra?: Partial<Result>) => Result;
  record: VisualRecord;
}

/** Playwright's outcomes, in its order: negated, missing, updating, different, matching. */
async function decide(state: State, r: LoopResult, c: Ctx): Promise<Result> {
  const { names, record } = c;
  const callLog = r.log.length ? `\n\nCall log:\n${r.log.map((l) => `  - ${l}`).join('\n')}` : '';
  if (state.isNot) {
    const different = !!r.comparison?.errorMessage;
    record.outcome = different ? 'different' : 'matched';
    return different
      ? c.result(false, '')
      : c.result(
          true,
          `Screenshot comparison failed:\n\n  Expected result should be different from the actual one.${callLog}`,
        );
  }
  if (r.errorMessage && (!c.has || r.unstable || !r.actual)) {
    // No stable picture: nothing to write, and no diff against the baseline to show.
    record.outcome = r.errorMessage.startsWith('The screen never settled') ? 'unsettled' : 'unstable';
    return different(c, r, callLog);
  }
  const actual = r.actual!;
  if (!c.has) {
    const files: Attachment[] = [];
    const message = `A snapshot doesn't exist at ${names.path}${c.update !== 'none' ? ', writing actual.' : '.'}`;
    write(names.path, await actual.picture.png());
    files.push(c.attach('-expected', names.path));
    write(c.out('-actual'), await actual.picture.png());
    files.push(c.attach('-actual', c.out('-actual')));
    record.outcome = 'written';
    if (c.update === 'all' || c.update === 'changed' || c.update === 'missing') {
      console.log(message);
      return c.result(true, message, { attachments: files });
    }
    return { ...c.result(true, '', { attachments: files }), softError: new Error(message), shouldNotRetryTest: true };
  }
  const rewrite = async () => {
    write(names.path, await actual.picture.png());
    write(c.out('-actual'), await actual.picture.png());
    console.log(`${names.path} is re-generated, writing actual.`);
    record.outcome = 'written';
    return c.result(true, `${names.path} running with --update-snapshots, writing actual.`);
  };
  if (!r.errorMessage) {
    if (c.update === 'all' && c.expectedBytes && !(await actual.picture.png()).equals(c.expectedBytes))
      return rewrite();
    record.outcome = 'matched';
    return c.result(true, '');
  }
  if (c.update === 'changed' || c.update === 'all') return rewrite();
  record.outcome = 'different';
  return different(c, r, callLog);
}

/** The failure with its pictures: expected (the baseline), previous, actual and diff. */
async function different(c: Ctx, r: LoopResult, callLog: string): Promise<Result> {
  const files: Attachment[] = [];
  if (c.has && c.expectedBytes) {
    write(c.out('-expected'), c.expectedBytes);
    files.push(c.attach('-expected', c.names.path));
  }
  if (r.previous) {
    write(c.out('-previous'), await r.previous.picture.png());
    files.push(c.attach('-previous', c.out('-previous')));
  }
  if (r.actual) {
    write(c.out('-actual'), await r.actual.picture.png());
    files.push(c.attach('-actual', c.out('-actual')));
  }
  if (r.comparison?.diff) {
    write(c.out('-diff'), await r.comparison.diff.png());
    files.push(c.attach('-diff', c.out('-diff')));
  }
  const message = `${c.header(r.timedOut)}${indent(r.errorMessage ?? '')}\n\n  Snapshot: ${c.names.name}${callLog}`;
  return c.result(false, message, { attachments: files, log: r.log });
}

/** Baselines read lately, with their decoded pixels once decoded: a file is decoded once per worker while it is unchanged. */
const baselines = new Map<string, Picture>();

function baseline(path: string): Picture {
  const bytes = readFileSync(path);
  const known = baselines.get(path);
  if (known?.sameBytes(Picture.fromPng(bytes))) return known;
  const picture = Picture.fromPng(bytes);
  baselines.delete(path);
  baselines.set(path, picture);
  if (baselines.size > 16) baselines.delete(baselines.keys().next().value!);
  return picture;
}

function write(path: string, body: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
}

const indent = (s: string) => s.replace(/^(?=.+$)/gm, '  ');

function currentTest(): TestInfo {
  try {
    return test.info();
  } catch {
    throw new NestwrightError(API, 'toHaveScreenshot() must be called during the test', { code: 'USAGE' });
  }
}

export type { Shot };
