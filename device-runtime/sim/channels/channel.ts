import type { Channel } from '../../protocol/index.js';

/**
 * The UI-control channels of docs/protocol.md#channels and what each can do. Latency is per call, in ms, before the
 * fault profile scales it. Vision sees only pixels and needs another channel to inject taps.
 */
export interface ChannelSpec {
  name: Channel;
  latencyMs: readonly [number, number];
  /** Delivers an accessibility node tree (else observations carry no nodes). */
  tree: boolean;
  /** Can act on a node (ACTION_CLICK, ACTION_SET_TEXT); otherwise only injected gestures. */
  nodeActions: boolean;
  /** Can inject input on its own. */
  inject: boolean;
}

export const CHANNELS: Record<Channel, ChannelSpec> = {
  accessibility: { name: 'accessibility', latencyMs: [50, 100], tree: true, nodeActions: true, inject: true },
  shizuku: { name: 'shizuku', latencyMs: [50, 150], tree: true, nodeActions: false, inject: true },
  vision: { name: 'vision', latencyMs: [1000, 3000], tree: false, nodeActions: false, inject: false },
};

/** What a space's device offers (docs/protocol.md#channels: Advanced Protection revokes accessibility). */
export interface ChannelAvailability {
  /** The user enabled the accessibility service. */
  accessibility: boolean;
  /** Shizuku is installed and started. */
  shizuku: boolean;
  /** Android 17 Advanced Protection Mode is on: accessibility is revoked for non-a11y tools. */
  advancedProtection: boolean;
}

export const DEFAULT_CHANNELS: ChannelAvailability = { accessibility: true, shizuku: true, advancedProtection: false };

/**
 * The channel in use: accessibility when it is enabled and not revoked, else Shizuku, else
 * vision only (observations without nodes; actions fail with CHANNEL_UNAVAILABLE).
 */
export function selectChannel(a: ChannelAvailability): ChannelSpec {
  if (a.accessibility && !a.advancedProtection) return CHANNELS.accessibility;
  if (a.shizuku) return CHANNELS.shizuku;
  return CHANNELS.vision;
}

/** Every channel the device offers, in preference order (for runtime_info.capabilities.channels). */
export function availableChannels(a: ChannelAvailability): Channel[] {
  const out: Channel[] = [];
  if (a.accessibility && !a.advancedProtection) out.push('accessibility');
  if (a.shizuku) out.push('shizuku');
  out.push('vision');
  return out;
}

/**
 * Channel availability from `NESTWRIGHT_CHANNELS` (comma-separated: `aapm` turns Advanced
 * Protection on, `no-accessibility`, `no-shizuku`), for whoever starts the simulator: a whole run
 * can then prove itself against the Shizuku fallback or vision only.
 */
export function channelsFromEnv(env: Record<string, string | undefined> = process.env): Partial<ChannelAvailability> {
  const out: Partial<ChannelAvailability> = {};
  for (const word of (env.NESTWRIGHT_CHANNELS ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean)) {
    if (word === 'aapm') out.advancedProtection = true;
    else if (word === 'no-accessibility') out.accessibility = false;
    else if (word === 'no-shizuku') out.shizuku = false;
    else
      throw new Error(
        `NESTWRIGHT_CHANNELS: unknown word ${JSON.stringify(word)}; use aapm, no-accessibility or no-shizuku`,
      );
  }
  return out;
}
