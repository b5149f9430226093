import { readFile } from 'node:fs/promises';
import type { TestInfo } from '@playwright/test';
import type { Observation } from '../../device-runtime/protocol/index.js';
import type { Trajectory } from '../core/trajectory.js';
import { diffAttempts, lastAttempt, networkLines, saveAttempt, stepLines } from './attempts.js';
import {
  classifyFailure,
  describeVerdict,
  FAILURE_ANNOTATION,
  RETRY_DIFF_ANNOTATION,
  tagOf,
  type FailureVerdict,
} from './classify.js';
import { clearThrown, findThrown } from './thrown.js';
import { markQuarantined, pardon, quarantinedBy } from '../quarantine/fixture.js';

/**
 * The `_failures` fixture's body (fixtures.ts): set up before the test's other fixtures and torn
 * down after them, so it sees every error, clean-up's included. A failed test gets its verdict
 * (failure/classify.ts) as the `failure` annotation, which every Playwright report, the JSON
 * reporter, Allure and the agent MCP server show, and as the tag its messages start with
 * (`[test · USAGE] NestwrightError: app.launch: …`). A failed attempt leaves a record for its
 * retry; a retry that passes says what changed (the `flaky` annotation).
 */
export async function runWithFailures(trajectory: Trajectory, use: () => Promise<void>, testInfo: TestInfo) {
  clearThrown();
  const quarantined = quarantinedBy(testInfo);
  if (quarantined) markQuarantined(testInfo, quarantined);
  await use();
  const failed = testInfo.status !== testInfo.expectedStatus && testInfo.status !== 'skipped';
  if (failed) await onFailure(trajectory, testInfo, quarantined !== null);
  else if (testInfo.status === 'passed' && testInfo.retry > 0) await onPassedRetry(trajectory, testInfo);
  if (failed && quarantined) pardon(testInfo);
}

async function onFailure(trajectory: Trajectory, testInfo: TestInfo, quarantined: boolean): Promise<void> {
  const all: Array<{ verdict: FailureVerdict; error: Error | null }> = [];
  for (const shown of testInfo.errors) {
    const text = shown.message ?? shown.value ?? '';
    const error = findThrown(text);
    const verdict = classifyFailure({ error, status: testInfo.status ?? 'failed', steps: trajectory.steps });
    all.push({ verdict, error });
    const tag = tagOf(verdict);
    if (shown.message !== undefined) shown.message = tag + shown.message;
    else if (shown.value !== undefined) shown.value = tag + shown.value;
    if (shown.stack?.startsWith(text)) shown.stack = tag + shown.stack;
  }
  // The error that explains the others: a lost device, a crash, a route handler that threw
  // (the body then failed waiting for what the app never got); else the first.
  let first =
    ROOT_CAUSES.map((c) => all.find((a) => a.verdict.code === c)).find((a) => a !== undefined) ?? all[0] ?? null;
  if (!first) {
    // Failed with no error (a test.fail() that passed): the test's own expectation was wrong.
    first = {
      verdict: { class: 'test', code: 'TEST_FAILED', api: null, step: null, why: 'expected to fail, but passed' },
      error: null,
    };
  }
  testInfo.annotations.push({ type: FAILURE_ANNOTATION, description: describeVerdict(first.verdict) });
  // Kept for a retry whatever the retries (a file's describe.configure() may set them): one small file per failed attempt.
  if (quarantined) return;
  const observation = (first.error as { observation?: Observation | null } | null)?.observation;
  await saveAttempt(testInfo, {
    retry: testInfo.retry,
    verdict: first.verdict,
    steps: stepLines(trajectory.steps),
    screen: screenLine(observation ?? (await fullTree(testInfo))),
    network: networkLines(trajectory.network),
  }).catch(() => {});
}

async function onPassedRetry(trajectory: Trajectory, testInfo: TestInfo): Promise<void> {
  const before = await lastAttempt(testInfo);
  if (!before) return;
  testInfo.annotations.push({
    type: FAILURE_ANNOTATION,
    description: describeVerdict({ ...before.verdict, class: 'flaky', why: `passed on retry ${testInfo.retry}` }),
  });
  const changed = diffAttempts(before, {
    steps: stepLines(trajectory.steps),
    network: networkLines(trajectory.network),
    screen: null,
  });
  testInfo.annotations.push({ type: RETRY_DIFF_ANNOTATION, description: changed.join('; ') });
}

/** Codes that explain the errors after them, in this order. */
const ROOT_CAUSES = ['DEVICE_DISCONNECTED', 'APP_CRASHED', 'ROUTE_FAILED', 'HAR_INVALID'];

/** The screen in a line: `com.example.shop .CartActivity, 14 nodes`. */
function screenLine(obs: Observation | null | undefined): string | null {
  if (!obs) return null;
  const texts = obs.nodes
    .flatMap((n) => (n.text ? [JSON.stringify(n.text)] : []))
    .slice(0, 5)
    .join(', ');
  return `${obs.package ?? '(no app)'} ${obs.activity ?? ''}, ${obs.nodes.length} nodes${obs.tree_missing ? ' (tree missing)' : ''}${texts ? `: ${texts}` : ''}`;
}

/** The `full tree` the app fixture attached to a failed test, if it did. */
async function fullTree(testInfo: TestInfo): Promise<Observation | null> {
  const a = testInfo.attachments.find((x) => x.name === 'full tree');
  try {
    const body = a?.body ?? (a?.path ? await readFile(a.path) : null);
    return body ? (JSON.parse(body.toString('utf8')) as Observation) : null;
  } catch {
    return null;
  }
}
