import type { Check, ConformanceContext } from '../check.js';
import { NOTES } from '../fixtures.js';

/** §1.4: a single operation's p50 under 500 ms (excluding model inference). */
export const P50_TARGET_MS = 500;
const SAMPLES = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timing(
  id: string,
  tool: string,
  measure: (ctx: ConformanceContext, space_id: string) => Promise<number>,
): Check {
  return {
    id,
    group: 'timings',
    title: `${tool}: median time of ${SAMPLES} calls (reported, not failed)`,
    section: '§1.4 (non-functional requirements): single-operation p50 < 500 ms',
    expects: `median under ${P50_TARGET_MS} ms`,
    fix: `Profile ${tool} on the device: the accessibility dump (or uiautomator) is the usual cost; cache the tree between events.`,
    required: false,
    async run(ctx) {
      const space_id = await ctx.space();
      await ctx.main.ok('space_launch', { space_id, package: NOTES });
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) times.push(await measure(ctx, space_id));
      const ms = Math.round(median(times));
      return {
        status: ms < P50_TARGET_MS ? 'pass' : 'warn',
        sent: [],
        received: `median ${ms} ms (${times.map((t) => Math.round(t)).join(', ')})`,
        ms,
      };
    },
  };
}

export const timingChecks: Check[] = [
  timing(
    'timings.observe',
    'ui_observe',
    async (ctx, space_id) => (await ctx.main.call('ui_observe', { space_id })).ms,
  ),
  // A tap on the screen's corner: it changes nothing, so each sample taps the same screen.
  timing(
    'timings.tap',
    'ui_tap',
    async (ctx, space_id) => (await ctx.main.call('ui_tap', { space_id, point: [1, 1] })).ms,
  ),
];
