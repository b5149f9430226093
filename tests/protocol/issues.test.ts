import { test, expect } from '@playwright/test';
import { z } from 'zod';
import { describeIssues, getTool } from '../../device-runtime/protocol/index.js';

/** The one formatter of zod issues: one line, each problem at its path from the caller's root. */
test('describeIssues: one line, paths from the root as zod writes them, at most five then a count', () => {
  const Schema = z.object({ provider: z.enum(['sim', 'adb']), apk_paths: z.array(z.string()) });
  const bad = Schema.safeParse({ provider: 'usb', apk_paths: ['a', 7] });
  expect(describeIssues(bad.error!, 'use.deviceOptions')).toBe(
    'use.deviceOptions.provider: Invalid option: expected one of "sim"|"adb"; use.deviceOptions.apk_paths[1]: Invalid input: expected string, received number',
  );
  expect(describeIssues(z.array(z.number()).safeParse(['x']).error!, 'params')).toBe(
    'params[0]: Invalid input: expected number, received string',
  );
  expect(describeIssues(z.string().safeParse(1).error!)).toBe(
    '(root): Invalid input: expected string, received number',
  );
  const many = z.array(z.string()).safeParse([1, 2, 3, 4, 5, 6, 7]).error!;
  expect(describeIssues(many, 'params')).toMatch(/^params\[0\]: .*; params\[4\]: [^;]*; and 2 more$/);
  expect(describeIssues(many, 'params', Infinity).split('; ')).toHaveLength(7);
  // A tool's arguments, as the client and the simulator both report them.
  const tap = getTool('ui_tap')!.input.safeParse({ space_id: 1 });
  expect(describeIssues(tap.error!, 'params')).toContain(
    'params.space_id: Invalid input: expected string, received number',
  );
});
