import { DEFAULT_CHANNELS, type ChannelAvailability } from '../channels/channel.js';
import { systemClock, type Clock } from './clock.js';
import { faultProfile, type FaultProfile, type FaultProfileName } from './profile.js';
import { SimWebEngine } from '../web/web-engine.js';
import { SimNetwork } from '../net/sim-network.js';

/** Screen px per CSS px of the simulated device's WebViews: its density (420 dpi) over Android's 160. */
const WEB_SCALE = 420 / 160;

/**
 * What a simulated screen needs from the run: its clock, the fault profile, and which control
 * channels the device offers. One per runtime; a space's screen may override its channels.
 */
export interface SimEnv {
  clock: Clock;
  faults: FaultProfile;
  channels: ChannelAvailability;
  /** The WebViews' browser engine (sim/web/): Chromium, started when the first WebView opens. */
  web: SimWebEngine;
  /** The device's network (sim/net/): the app backends on loopback, the hosts table, the system CA. */
  net: SimNetwork;
}

export function defaultEnv(): SimEnv {
  const env: SimEnv = {
    clock: systemClock,
    faults: faultProfile('instant'),
    channels: { ...DEFAULT_CHANNELS },
    web: new SimWebEngine(false, WEB_SCALE),
    net: new SimNetwork(
      () => env.faults,
      () => env.clock,
    ),
  };
  return env;
}

/** The run options that shape the environment (part of SimOptions). */
export interface SimEnvOptions {
  /** Fault profile for the run (default `instant`); see faultProfileFromEnv() for NESTWRIGHT_FAULTS. */
  faults?: FaultProfileName | FaultProfile;
  /** Seed of every fault decision (default 1, or the profile's own seed). */
  seed?: number;
  /** Injectable time (default the system clock); tests pass a VirtualClock. */
  clock?: Clock;
  /** Which control channels the device offers (default: accessibility and Shizuku, no AAPM). */
  channels?: Partial<ChannelAvailability>;
  /**
   * The Chromium that renders WebViews (default NESTWRIGHT_CHROMIUM, else /usr/bin/chromium);
   * false: none, a WebView is a box with no page and webview_list says why.
   */
  chromium?: string | false;
}

export function envFromOptions(o: SimEnvOptions): SimEnv {
  const base = typeof o.faults === 'object' ? o.faults : faultProfile(o.faults ?? 'instant');
  const env: SimEnv = {
    clock: o.clock ?? systemClock,
    faults: { ...base, seed: o.seed ?? base.seed },
    channels: { ...DEFAULT_CHANNELS, ...o.channels },
    web: new SimWebEngine(o.chromium, WEB_SCALE),
    net: new SimNetwork(
      () => env.faults,
      () => env.clock,
    ),
  };
  return env;
}
