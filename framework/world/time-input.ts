import { NestwrightError, type ApiName } from '../core/errors.js';

/** A point in time as Playwright's clock takes it: epoch ms, a date string (`'2026-01-15T09:00:00+09:00'`) or a Date. */
export type TimeInput = number | string | Date;

/** Epoch ms of `time`; a USAGE error naming the value when it is not a time. */
export function epochMs(api: ApiName, time: TimeInput): number {
  const ms = typeof time === 'number' ? time : typeof time === 'string' ? Date.parse(time) : time.getTime();
  if (!Number.isFinite(ms) || ms < 0) {
    throw new NestwrightError(
      api,
      `${JSON.stringify(time instanceof Date ? String(time) : time)} is not a time: give epoch milliseconds, a Date, or an ISO date such as '2026-01-15T09:00:00+09:00'.`,
      { code: 'USAGE' },
    );
  }
  return Math.round(ms);
}

/**
 * Milliseconds of `ticks` as Playwright's `clock.fastForward` and `runFor` take them: a number of
 * ms, or a string `'ss'`, `'mm:ss'` or `'hh:mm:ss'`.
 */
export function durationMs(api: ApiName, ticks: number | string): number {
  if (typeof ticks === 'number') {
    if (Number.isFinite(ticks) && ticks >= 0) return Math.round(ticks);
  } else if (/^\d+(:\d{1,2}){0,2}$/.test(ticks.trim())) {
    return (
      ticks
        .trim()
        .split(':')
        .reduce((acc, part) => acc * 60 + Number(part), 0) * 1000
    );
  }
  throw new NestwrightError(
    api,
    `${JSON.stringify(ticks)} is not a duration: give milliseconds (60_000) or '01:00' (mm:ss) / '02:34:10' (hh:mm:ss).`,
    { code: 'USAGE' },
  );
}

/** `2026-01-15 09:00:00 UTC`: how a step names a wall time. */
export function showTime(ms: number): string {
  return `${new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '')} UTC`;
}
