import type { Bounds, ScreenRegion } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import type { PortLocator } from '../core/port.js';
import type { ResolvedOptions } from './options.js';
import { Picture } from './picture.js';
import type { VisualPort } from './port.js';

/** One picture as compared: masks painted, cut to the subject, and what is left out of comparing. */
export interface Shot {
  picture: Picture;
  /** Boxes (in the picture's pixels) not compared: system bars, caret, scrollbars. */
  excluded: Bounds[];
  /** Kinds of what `excluded` covers, for the record. */
  excludedKinds: ScreenRegion['kind'][];
  /** Boxes painted over with the mask colour (in the picture's pixels). */
  masked: Bounds[];
}

/**
 * Take one picture of the subject: the node's bounds for a locator (it must name exactly one
 * node), the screen or `clip` for the app; `mask` locators painted over (every node each names,
 * as Playwright does). A string says why there is no picture this time (the loop tries again).
 */
export async function capture(
  port: VisualPort,
  call: ApiCall,
  target: PortLocator | null,
  o: ResolvedOptions<PortLocator>,
): Promise<Shot | string> {
  const wanted = [...(target ? [target] : []), ...o.mask];
  const found = wanted.length ? await port.boundsOf(call, wanted) : [];
  if (!found) return 'the accessibility tree was missing (a transition): looking again';
  const shot = await port.shoot(call);
  let crop: Bounds | null = o.clip ? [o.clip.x, o.clip.y, o.clip.x + o.clip.width, o.clip.y + o.clip.height] : null;
  if (target) {
    const own = found[0]!;
    if (own.length !== 1) return `${target} names ${own.length} nodes (one is pictured): looking again`;
    crop = own[0]!;
  }
  const masks = found.slice(target ? 1 : 0).flat();
  const raw = Picture.fromPng(shot.png);
  const picture = masks.length || crop ? await raw.edit(masks, o.maskRgba, crop) : raw;
  const [dx, dy] = crop ? [Math.max(0, Math.floor(crop[0])), Math.max(0, Math.floor(crop[1]))] : [0, 0];
  const left = shot.regions.filter(
    (r) => r.kind === 'scrollbar' || (r.kind === 'caret' ? o.caret === 'hide' : o.systemBars === 'hide'),
  );
  const move = (b: Bounds): Bounds => [b[0] - dx, b[1] - dy, b[2] - dx, b[3] - dy];
  return {
    picture,
    excluded: left.map((r) => move(r.bounds)),
    excludedKinds: [...new Set(left.map((r) => r.kind))],
    masked: masks.map(move),
  };
}
