import type { DeviceSpace } from './types.js';

/**
 * Bring the space's WebView pages up to date before a call looks at or acts on its screen
 * (sim/web/web-engine.ts says why the screen and the browser meet here). A page lives while the
 * activity that holds it is on its instance's back stack. `pictures`: also draw the pages on
 * screen again when they changed (for a screenshot).
 */
export async function syncWeb(space: DeviceSpace, pictures = false): Promise<void> {
  await space.screen.env.web.sync(
    space.id,
    (key, seq) => {
      const inst = space.instances.get(key);
      return !!inst && inst.status !== 'crashed' && inst.status !== 'stopped' && inst.stack.some((r) => r.seq === seq);
    },
    pictures,
  );
}
