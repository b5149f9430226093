import { defineActivity } from '../define-app.js';
import { canvas, column, iconButton, toolbar } from '../../ui/view.js';
import type { ShopData } from './model.js';

interface GameState {
  score: number;
  round: number;
}

const TARGET = 240;

/** Where the target is in round `n`: it jumps around the board, deterministically. */
function target(round: number): [number, number] {
  return [60 + ((round * 331) % 700), 200 + ((round * 577) % 1300)];
}

/**
 * "Daily game": a canvas (SurfaceView) with no child nodes. The score and the target exist only
 * as pixels, so only vision (§4.4) can play it: tap inside the orange square to score.
 */
export const gameActivity = defineActivity<ShopData, GameState>({
  initialState: () => ({ score: 0, round: 0 }),
  render: (ctx) => {
    const [x, y] = target(ctx.state.round);
    return column([
      toolbar('Daily game', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]),
      canvas(
        [
          { rect: [40, 40, 600, 140], color: '#37474f', label: `Score ${ctx.state.score}` },
          { rect: [x, y, x + TARGET, y + TARGET], color: '#ff9800', label: 'TAP' },
        ],
        (tx, ty) => {
          const hit = tx >= x && tx < x + TARGET && ty >= y && ty < y + TARGET;
          ctx.set({ score: ctx.state.score + (hit ? 1 : 0), round: ctx.state.round + 1 });
        },
        { id: 'game_surface' },
      ),
    ]);
  },
});
