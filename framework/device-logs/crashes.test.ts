import { expect, test } from '@playwright/test';
import { crashesIn } from './crashes.js';
import { deviceLogsMode } from './feature.js';

const at = (tag: string, level: string, message: string) => `2026-12-04T08:00:00.000Z 4242 ${level} ${tag}: ${message}`;

test('a crash is its FATAL EXCEPTION block: the exception is the headline, the stack its lines', () => {
  const lines = [
    at('ShopCart', 'I', 'applying coupon'),
    at('AndroidRuntime', 'E', 'FATAL EXCEPTION: main'),
    at('AndroidRuntime', 'E', 'Process: com.nestwright.shop, PID: 4242'),
    at('AndroidRuntime', 'E', 'java.lang.StringIndexOutOfBoundsException: length=0; index=0'),
    at('AndroidRuntime', 'E', '\tat com.nestwright.shop.cart.CouponParser.parse(CouponParser.kt:27)'),
    at('ActivityManager', 'I', 'Process com.nestwright.shop (pid 4242) has died'),
  ];
  expect(crashesIn(lines)).toEqual([
    {
      kind: 'crash',
      headline: 'java.lang.StringIndexOutOfBoundsException: length=0; index=0',
      lines: lines.slice(1, 5),
    },
  ]);
});

test('an ANR is its own report, and two crashes are two', () => {
  const lines = [
    at('ActivityManager', 'E', 'ANR in com.nestwright.notes (com.nestwright.notes/.MainActivity)'),
    at('ActivityManager', 'E', 'Reason: Input dispatching timed out'),
    at('AndroidRuntime', 'E', 'FATAL EXCEPTION: main'),
    at('AndroidRuntime', 'E', 'java.lang.IllegalStateException: one'),
    at('AndroidRuntime', 'E', 'FATAL EXCEPTION: worker'),
    at('AndroidRuntime', 'E', 'java.lang.IllegalStateException: two'),
  ];
  const found = crashesIn(lines);
  expect(found.map((c) => [c.kind, c.headline])).toEqual([
    ['anr', 'ANR in com.nestwright.notes (com.nestwright.notes/.MainActivity)'],
    ['crash', 'java.lang.IllegalStateException: one'],
    ['crash', 'java.lang.IllegalStateException: two'],
  ]);
  expect(found[0]!.lines).toHaveLength(2);
});

test('lines with no crash or ANR have none', () => {
  expect(crashesIn([at('Notes', 'I', 'saved'), at('AndroidRuntime', 'I', 'VM exiting')])).toEqual([]);
});

test('use.deviceLogs takes its three modes (default retain-on-failure) and refuses anything else, naming them', () => {
  expect(deviceLogsMode(undefined)).toBe('retain-on-failure');
  expect(deviceLogsMode('on')).toBe('on');
  expect(() => deviceLogsMode('always')).toThrow(
    "use.deviceLogs: expected 'off', 'on', 'retain-on-failure', got \"always\"",
  );
});
