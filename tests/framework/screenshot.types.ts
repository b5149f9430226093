/**
 * Type-level checks of app.screenshot(), compiled by `npm run typecheck` (never run): without
 * `{ optional: true }` it resolves to a Buffer (it throws rather than return null), with it to
 * `Buffer | null`. Each `@ts-expect-error` fails the typecheck if its line ever compiles.
 */
import { expect, test } from 'nestwright';

test('screenshot types', async ({ app }) => {
  const png: Buffer = await app.screenshot();
  const scaled: Buffer = await app.screenshot({ scale: 0.5 });
  const strict: Buffer = await app.screenshot({ optional: false });
  // @ts-expect-error with { optional: true } it may be null.
  const maybe: Buffer = await app.screenshot({ optional: true });
  const either: Buffer | null = await app.screenshot({ optional: Math.random() > 0.5 });
  expect(png.length + scaled.length + strict.length + (maybe?.length ?? 0) + (either?.length ?? 0)).toBeGreaterThan(0);
});
