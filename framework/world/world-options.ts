import { DeviceError } from '../../device-runtime/client/index.js';
import type { ToolInput, ToolName, ToolResult } from '../../device-runtime/protocol/index.js';
import { NestwrightError } from '../core/errors.js';
import type { Geolocation } from './app-world.js';

/**
 * The world options of a test, with Playwright's names (`test.use({ geolocation, locale,
 * timezoneId, colorScheme })`): each instance the test launches starts with them.
 */
export interface WorldOptions {
  /** Where the device is: `{ latitude, longitude, accuracy? }`. Default: no location. */
  geolocation?: Geolocation;
  /** BCP 47 locale, e.g. `'de-DE'`. Default `'en-US'`. */
  locale?: string;
  /** IANA time zone, e.g. `'Europe/Berlin'`. Default `'UTC'`. */
  timezoneId?: string;
  /** Dark mode: `'dark'`; `'light'`, `'no-preference'` or null: light (the default). */
  colorScheme?: 'light' | 'dark' | 'no-preference' | null;
}

/** What setting the world needs of the device: the protocol client, or an instance's port (world-feature.ts). */
export interface WorldCaller {
  hasExtension(name: string): Promise<boolean>;
  call<N extends ToolName>(tool: N, input: ToolInput<N>): Promise<ToolResult<N>>;
}

/**
 * Set a freshly launched instance's world from the test's options: nothing is called when none is
 * set; an option the device refuses (an unknown time zone) fails the launch naming the option.
 */
export async function applyWorldOptions(
  client: WorldCaller,
  ref: { space_id: string; package: string; instance?: string },
  o: WorldOptions,
): Promise<void> {
  const scheme: 'light' | 'dark' | undefined =
    o.colorScheme === 'dark' ? 'dark' : o.colorScheme === 'light' ? 'light' : undefined;
  const wantsLocale = o.locale !== undefined || o.timezoneId !== undefined || scheme !== undefined;
  if (!wantsLocale && !o.geolocation) return;
  const names = [
    o.geolocation && 'geolocation',
    o.locale !== undefined && 'locale',
    o.timezoneId !== undefined && 'timezoneId',
    scheme && 'colorScheme',
  ].filter(Boolean) as string[];
  if (!(await client.hasExtension('world'))) {
    throw new NestwrightError(
      `use.${names[0]}`,
      `this device runtime does not offer the \`world\` extension (world_locale_set and world_location_set answer NOT_SUPPORTED), so ${names.join(', ')} cannot be set; remove ${names.length > 1 ? 'them' : 'it'} from use or run on a runtime that lists "world" in runtime_info.extensions.`,
      { code: 'NOT_SUPPORTED' },
    );
  }
  // Named after the options that went into the refused call; the device's message names the value.
  const named = (options: string[]) => (e: unknown) => {
    // The device's refusal, as the client throws it or as the port translated it.
    const refused =
      e instanceof DeviceError ? e : e instanceof NestwrightError && e.cause instanceof DeviceError ? e.cause : null;
    return Promise.reject(
      refused
        ? new NestwrightError(
            options.length === 1 ? `use.${options[0]}` : `use({ ${options.join(', ')} })`,
            refused.message,
            { cause: refused, code: refused.code },
          )
        : e,
    );
  };
  if (wantsLocale) {
    const input = {
      ...ref,
      ...(o.locale !== undefined ? { locale: o.locale } : {}),
      ...(o.timezoneId !== undefined ? { timezone: o.timezoneId } : {}),
      ...(scheme ? { color_scheme: scheme } : {}),
    };
    await client.call('world_locale_set', input).catch(named(names.filter((n) => n !== 'geolocation')));
  }
  if (o.geolocation)
    await client.call('world_location_set', { ...ref, location: o.geolocation }).catch(named(['geolocation']));
}
