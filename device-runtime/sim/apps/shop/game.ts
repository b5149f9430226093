import { canvas, column, iconButton, toolbar, type View } from '../view.js';

export interface GameState {
  score: number;
  round: number;
}

const TARGET = 240;

/** Where the target is in round `n`: it jumps around the board, deterministically. */
function target(round: number): [number, number] {
  return [60 + ((round * 331) % 700), 200 + ((round * 577) % 1300)];
}

/**
 * "Daily game" (a mode of the catalog): a canvas (SurfaceView) with no child nodes. The score and
 * the target exist only as pixels, so only vision (docs/protocol.md#vision) can play it: tap the orange square.
 */
export function gameView(state: GameState, set: (s: GameState) => void, close: () => void): View {
  const [x, y] = target(state.round);
  return column([
    toolbar('Daily game', [iconButton('Navigate up', close, { id: 'up' })]),
    canvas(
      [
        { rect: [40, 40, 600, 140], color: '#37474f', label: `Score ${state.score}` },
        { rect: [x, y, x + TARGET, y + TARGET], color: '#ff9800', label: 'TAP' },
      ],
      (tx, ty) => {
        const hit = tx >= x && tx < x + TARGET && ty >= y && ty < y + TARGET;
        set({ score: state.score + (hit ? 1 : 0), round: state.round + 1 });
      },
      { id: 'game_surface' },
    ),
  ]);
}
