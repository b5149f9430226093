import { toolError } from '../../protocol/index.js';
import { nearest } from '../../protocol/nearest.js';
import { SimError } from '../core/sim-error.js';

/**
 * Locale and time zone of an instance, checked and applied with the ICU data Node ships (`Intl`):
 * the same data Android's own formatting comes from, so `6,36 $` in de-DE is what a phone shows
 * rather than a rule written here.
 */

/** A BCP 47 tag the runtime has formatting data for, canonicalised (`de-de` → `de-DE`); INVALID_ARGUMENT naming it otherwise. */
export function checkLocale(api: string, locale: string): string {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(locale)[0]!;
  } catch {
    throw new SimError(
      toolError('INVALID_ARGUMENT', `${api}: locale ${JSON.stringify(locale)} is not a BCP 47 language tag`, {
        hint: 'Write it as language-REGION, e.g. en-US, de-DE, ja-JP, pt-BR.',
      }),
    );
  }
  if (
    Intl.DateTimeFormat.supportedLocalesOf(canonical).length === 0 ||
    Intl.NumberFormat.supportedLocalesOf(canonical).length === 0
  ) {
    throw new SimError(
      toolError(
        'INVALID_ARGUMENT',
        `${api}: unknown locale ${JSON.stringify(locale)}: this runtime has no formatting data for it`,
        { hint: 'Use a language the device knows, e.g. en-US, de-DE, fr-FR, ja-JP, pt-BR.' },
      ),
    );
  }
  return canonical;
}

let zones: string[] | undefined;

/** An IANA time zone (`Europe/Berlin`, `UTC`); INVALID_ARGUMENT naming it, with the nearest names, otherwise. */
export function checkTimeZone(api: string, timeZone: string): string {
  zones ??= Intl.supportedValuesOf('timeZone');
  if (zones.includes(timeZone)) return timeZone;
  try {
    // Aliases (UTC, Asia/Kolkata) are valid though the list names only canonical zones.
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    // The closest name (a typo: Europe/Berln), else zones of the same city (Germany/Berlin).
    const city = timeZone.split('/').pop()!.toLowerCase();
    const closest = nearest(timeZone, zones);
    const near = closest ? [closest] : zones.filter((z) => z.split('/').pop()!.toLowerCase() === city).slice(0, 3);
    throw new SimError(
      toolError('INVALID_ARGUMENT', `${api}: unknown time zone ${JSON.stringify(timeZone)}`, {
        hint: near.length
          ? `Did you mean ${near.join(' or ')}? Give an IANA time zone (Intl.supportedValuesOf('timeZone') lists them).`
          : `Give an IANA time zone such as Europe/Berlin, Asia/Tokyo or UTC (Intl.supportedValuesOf('timeZone') lists them).`,
      }),
    );
  }
}

/** Narrow and ordinary no-break spaces as a plain space, so texts match what a test types (`6,36 $`). */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

/**
 * Formatters kept by locale, time zone and options: building an `Intl` formatter costs far more
 * than using one, and the simulator formats a screen's dates and prices on every observation.
 */
const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function kept<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let f = formats.get(key) as F | undefined;
  if (!f) formats.set(key, (f = make()));
  return f;
}

const dateFormat = (locale: string, options: Intl.DateTimeFormatOptions) =>
  kept(`date ${locale} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));

/** Money in `locale`: `$6.36` (en-US), `6,36 $` (de-DE). */
export function formatMoney(cents: number, locale: string, currency = 'USD'): string {
  const money = kept(
    `money ${locale} ${currency}`,
    () => new Intl.NumberFormat(locale, { style: 'currency', currency }),
  );
  return plain(money.format(cents / 100));
}

/** `HH:mm`, 24-hour, in `timeZone`. */
export function formatClock(ms: number, timeZone: string): string {
  const parts = dateFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    ms,
  );
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  return `${get('hour')}:${get('minute')}`;
}

/** The calendar day of `ms` in `timeZone`, as `YYYY-MM-DD`. */
function dayKey(ms: number, timeZone: string): string {
  return dateFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}

/** "Today", "Yesterday" (as seen at `now` in `timeZone`), or the date in `locale` (`14.01.2026`, `Jan 14, 2026`). */
export function formatDay(ms: number, now: number, locale: string, timeZone: string): string {
  const day = dayKey(ms, timeZone);
  if (day === dayKey(now, timeZone)) return 'Today';
  if (day === dayKey(now - 86_400_000, timeZone)) return 'Yesterday';
  return plain(dateFormat(locale, { timeZone, dateStyle: 'medium' }).format(ms));
}
