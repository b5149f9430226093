/**
 * Network conditions per instance: added latency, download and upload throughput and packet
 * loss, applied by the instance's proxy to every request it answers (routed or not). The
 * presets carry Chrome DevTools' names and numbers (its Network panel's throttling menu, from
 * `front_end/core/sdk/NetworkManager.ts`: '3G', 'Slow 4G', 'Fast 4G'; the names the same
 * figures had before DevTools renamed them, 'Slow 3G' and 'Fast 3G', as Puppeteer's
 * `PredefinedNetworkConditions` still spells them); the numbers are in CDP's units
 * (`Network.emulateNetworkConditions`): bytes per second and milliseconds.
 *
 * How they apply, per request: the latency once (DevTools adds it per request too); the request
 * body at the upload rate and the response body at the download rate; and packet loss as TCP
 * feels it — each 1,460-byte segment (at least one each way) is lost with that probability and
 * costs one retransmission timeout (`max(200 ms, 2 × latency)`), so a lossy link is slow, not
 * broken, as on a phone.
 */
export interface NetworkConditions {
  /** Added to every request, ms. */
  latency?: number;
  /** Response bodies arrive at this rate, bytes/s (0 or absent: no limit). */
  download?: number;
  /** Request bodies leave at this rate, bytes/s (0 or absent: no limit). */
  upload?: number;
  /** Percent of segments lost, 0–100 (each costs a retransmission). */
  packetLoss?: number;
}

/** Chrome DevTools' throttling presets, with its names. */
export const NETWORK_PRESETS = {
  'No throttling': {},
  '3G': { download: ((500 * 1000) / 8) * 0.8, upload: ((500 * 1000) / 8) * 0.8, latency: 400 * 5 },
  'Slow 4G': { download: ((1.6 * 1000 * 1000) / 8) * 0.9, upload: ((750 * 1000) / 8) * 0.9, latency: 150 * 3.75 },
  'Fast 4G': { download: ((9 * 1000 * 1000) / 8) * 0.9, upload: ((1.5 * 1000 * 1000) / 8) * 0.9, latency: 60 * 2.75 },
} as const satisfies Record<string, NetworkConditions>;

/** The names DevTools gave the same figures before (Puppeteer's `PredefinedNetworkConditions` keeps them). */
export const NETWORK_PRESET_ALIASES = { 'Slow 3G': '3G', 'Fast 3G': 'Slow 4G' } as const;

/** A preset's name: DevTools' current one, or its former one. */
export type NetworkPreset = keyof typeof NETWORK_PRESETS | keyof typeof NETWORK_PRESET_ALIASES;

const SEGMENT = 1460;
const MIN_RTO_MS = 200;

/** The conditions a preset name or an object stands for; a problem as a message, or null. */
export function resolveConditions(given: NetworkPreset | NetworkConditions | null): {
  conditions: NetworkConditions | null;
  problem: string | null;
} {
  if (given === null) return { conditions: null, problem: null };
  if (typeof given === 'string') {
    const name = (NETWORK_PRESET_ALIASES as Record<string, keyof typeof NETWORK_PRESETS>)[given] ?? given;
    const preset = (NETWORK_PRESETS as Record<string, NetworkConditions>)[name];
    if (!preset) {
      const names = [...Object.keys(NETWORK_PRESETS), ...Object.keys(NETWORK_PRESET_ALIASES)].map((n) => `'${n}'`);
      return { conditions: null, problem: `no preset named '${given}': use one of ${names.join(', ')}, or numbers` };
    }
    return { conditions: { ...preset }, problem: null };
  }
  if (typeof given !== 'object') return { conditions: null, problem: `expected a preset name, an object or null` };
  for (const key of Object.keys(given)) {
    if (!['latency', 'download', 'upload', 'packetLoss'].includes(key))
      return { conditions: null, problem: `unknown field '${key}' (latency, download, upload, packetLoss)` };
    const v = (given as Record<string, unknown>)[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      return { conditions: null, problem: `${key} must be a number ≥ 0, got ${JSON.stringify(v)}` };
  }
  if ((given.packetLoss ?? 0) > 100) return { conditions: null, problem: `packetLoss is a percent, 0–100` };
  return { conditions: { ...given }, problem: null };
}

/** How long a request of `up` bytes answered with `down` bytes takes on top of the link, ms. */
export function conditionsDelay(c: NetworkConditions, up: number, down: number, random = Math.random): number {
  const latency = c.latency ?? 0;
  let ms = latency;
  if (c.upload) ms += (up * 1000) / c.upload;
  if (c.download) ms += (down * 1000) / c.download;
  const loss = (c.packetLoss ?? 0) / 100;
  if (loss > 0) {
    const segments = Math.max(1, Math.ceil(up / SEGMENT)) + Math.max(1, Math.ceil(down / SEGMENT));
    const rto = Math.max(MIN_RTO_MS, 2 * latency);
    for (let i = 0; i < segments; i++) if (random() < loss) ms += rto;
  }
  return ms;
}

/** The conditions as a step title shows them. */
export function describeConditions(given: NetworkPreset | NetworkConditions | null): string {
  if (given === null) return 'no throttling';
  if (typeof given === 'string') return given;
  const parts = [
    given.latency !== undefined && `${given.latency} ms latency`,
    given.download && `${Math.round(given.download / 1000)} kB/s down`,
    given.upload && `${Math.round(given.upload / 1000)} kB/s up`,
    given.packetLoss && `${given.packetLoss}% loss`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no throttling';
}
