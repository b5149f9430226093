import type { ActivityContext } from '../define-app.js';
import { button, type View } from '../view.js';
import type { ShopData } from './model.js';

type LoginCtx = ActivityContext<ShopData, { email: string; error: string | null }>;

/**
 * "Sign in with fingerprint" on the login screen, offered while a fingerprint is enrolled (the
 * `world` extension's biometrics): the fingerprint stands in for the password of the email typed
 * above. A match signs in, a failure says "Fingerprint not recognized", a cancel leaves the form
 * as it was. Empty when nothing is enrolled, so the screen is what it always was.
 */
export function fingerprintSignIn(ctx: LoginCtx, check: () => string | null, signIn: (email: string) => void): View[] {
  if (!ctx.world.biometricsEnrolled()) return [];
  const start = () => {
    const problem = check();
    if (problem) return ctx.set({ error: problem });
    const email = ctx.state.email.trim();
    ctx.world.authenticate('Sign in to Shop', (outcome) => {
      ctx.log('I', 'ShopAuth', `fingerprint for ${email}: ${outcome}`);
      if (outcome === 'match') return signIn(email);
      if (outcome === 'fail') return ctx.set({ error: 'Fingerprint not recognized' });
    });
  };
  return [button('Sign in with fingerprint', start, { id: 'fingerprint_login', tone: 'muted' })];
}
