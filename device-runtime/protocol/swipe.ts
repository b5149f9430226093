/**
 * The geometry of a swipe: from and to across a rectangle, from its centre towards a direction.
 * One definition for every side that swipes (the framework's locators and screen swipes, a skill
 * replayed by the framework, the simulator's `skill_run`), so a swipe means the same path on each.
 */

export type SwipeDirection = 'up' | 'down' | 'left' | 'right';

/** From and to of a swipe across `bounds` (`[left, top, right, bottom]`) from its centre towards `direction`, `distance` of its size. */
export function swipeEnds(
  bounds: readonly [number, number, number, number],
  direction: SwipeDirection,
  distance: number,
): [[number, number], [number, number]] {
  const [l, t, r, b] = bounds;
  const cx = Math.round((l + r) / 2);
  const cy = Math.round((t + b) / 2);
  const dx = Math.round(((r - l) * distance) / 2);
  const dy = Math.round(((b - t) * distance) / 2);
  const ends: Record<SwipeDirection, [[number, number], [number, number]]> = {
    up: [
      [cx, cy + dy],
      [cx, cy - dy],
    ],
    down: [
      [cx, cy - dy],
      [cx, cy + dy],
    ],
    left: [
      [cx + dx, cy],
      [cx - dx, cy],
    ],
    right: [
      [cx - dx, cy],
      [cx + dx, cy],
    ],
  };
  return ends[direction];
}
