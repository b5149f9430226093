import type { RuntimeInfo } from '../../device-runtime/protocol/index.js';

/**
 * The platform part of a baseline's name (Playwright's `{-snapshotSuffix}`): what makes
 * pictures of the same screen differ on this product, so that one device's baselines are never
 * compared with another's —
 * - the device: its model (`pixel-8`); a simulated runtime is `sim`, or `sim-pixel-8` when it
 *   stands in for a model (a simulator's pictures are not a phone's);
 * - its screen: `1080x2400`, and its density `420dpi` (text and bars are drawn at it).
 *
 * The runtime's pace (`timing.profile`, the simulator's fault profiles) is not in it: a profile
 * changes when things happen, never what a settled screen looks like, so the runs of one suite
 * under `instant` and `hostile` compare with the same baselines. `unknown` when the runtime does
 * not describe itself (no runtime_info).
 */
export function platformPart(info: RuntimeInfo | null): string {
  if (!info) return 'unknown';
  const model = slug(info.device.model);
  const who =
    info.runtime.kind === 'simulated'
      ? /simulated/i.test(info.device.model) || !model
        ? 'sim'
        : `sim-${model}`
      : model || slug(info.runtime.name) || 'device';
  const { width, height, density } = info.device.screen;
  return [who, width > 0 && height > 0 ? `${width}x${height}` : '', density > 0 ? `${density}dpi` : '']
    .filter(Boolean)
    .join('-');
}

/** `Pixel 8 Pro` → `pixel-8-pro`: the characters a file name keeps everywhere. */
function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
}
