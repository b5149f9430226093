/**
 * What a passing retry says changed since the attempt that failed: the failing step's time then
 * and now, the screen at the failure, and the network answers that differ. (A real retry on the
 * simulator is in tests/failures/classes-run.test.ts.)
 */
import { expect, test } from '@playwright/test';
import { diffAttempts, networkLines, type AttemptRecord } from '../../framework/failure/attempts.js';

const failed: AttemptRecord = {
  retry: 0,
  verdict: {
    class: 'device',
    code: 'TIMEOUT',
    api: 'locator.tap',
    step: { index: 1, title: "Tap text='Pay'", api: 'locator.tap', durationMs: 6012 },
    why: 'waited for the device, which showed no screen',
  },
  steps: [
    { title: 'Launch .CartActivity', durationMs: 900, result: 'ok' },
    { title: "Tap text='Pay'", durationMs: 6012, result: 'failed' },
  ],
  screen: 'com.nestwright.shop .CartActivity, 0 nodes (tree missing)',
  network: networkLines([
    {
      instance: 'i1',
      method: 'GET',
      url: 'https://api.shop.test/cart',
      status: 503,
      startedAt: 1,
      durationMs: 4,
      answeredBy: 'network',
    },
    {
      instance: 'i1',
      method: 'GET',
      url: 'https://api.shop.test/user',
      status: 200,
      startedAt: 2,
      durationMs: 4,
      answeredBy: 'network',
    },
  ]),
};

test('the failing step then and now, the screen at the failure, the network answers that changed', () => {
  const lines = diffAttempts(failed, {
    steps: [
      { title: 'Launch .CartActivity', durationMs: 850, result: 'ok' },
      { title: "Tap text='Pay'", durationMs: 412, result: 'ok' },
      { title: "Expect text='Paid' toBeVisible", durationMs: 300, result: 'ok' },
    ],
    network: ['GET https://api.shop.test/cart → 200', 'GET https://api.shop.test/user → 200'],
    screen: null,
  });
  expect(lines).toEqual([
    'step "Tap text=\'Pay\'": 6012ms and failed (TIMEOUT) on retry 0, 412ms and passed now',
    'steps: 2 taking 6912ms then, 3 taking 1562ms now',
    'screen at failure: com.nestwright.shop .CartActivity, 0 nodes (tree missing)',
    'network answers: then only: GET https://api.shop.test/cart → 503; now only: GET https://api.shop.test/cart → 200',
  ]);
});

test('a failure outside any step, and the same network answers', () => {
  const lines = diffAttempts(
    { ...failed, verdict: { ...failed.verdict, step: null, class: 'network', code: 'ROUTE_FAILED' }, screen: null },
    { steps: failed.steps, network: failed.network, screen: null },
  );
  expect(lines).toEqual([
    'failed (network · ROUTE_FAILED) on retry 0 outside any step',
    'steps: 2 taking 6912ms then, 2 taking 6912ms now',
    'network answers: the same 2',
  ]);
});
