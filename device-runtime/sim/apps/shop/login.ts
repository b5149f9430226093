import { defineActivity } from '../define-app.js';
import { button, checkbox, column, editText, image, progress, spacer, text, toolbar } from '../view.js';
import { fingerprintSignIn } from './fingerprint.js';
import type { ShopData } from './model.js';

interface LoginState {
  email: string;
  password: string;
  error: string | null;
  loading: boolean;
  redirecting: boolean;
}

/** How long the (deliberately slow) sign-in server takes, before the fault profile scales it. */
const SIGN_IN_MS = 2000;

/**
 * Login with validation and a slow server. The password field and the Log in button sit at the
 * bottom: while the keyboard is up for the email field they are under it and not in the tree.
 */
export const loginActivity = defineActivity<ShopData, LoginState>({
  initialState: () => ({ email: '', password: '', error: null, loading: false, redirecting: false }),
  render: (ctx) => {
    if (ctx.data.user && !ctx.state.redirecting) {
      // Already signed in: go straight to the catalog, as the real app's splash does.
      ctx.state.redirecting = true;
      ctx.after(0, () => (ctx.start('.CatalogActivity'), ctx.finish()), { fixed: true });
    }
    const checkAccount = () =>
      !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(ctx.state.email.trim())
        ? 'Enter a valid email address'
        : !ctx.data.termsAccepted
          ? 'Accept the terms of service to continue'
          : null;
    const signIn = (email: string) => {
      ctx.update((d) => void (d.user = email));
      ctx.start('.CatalogActivity');
      ctx.finish();
    };
    const submit = () => {
      const { email, password } = ctx.state;
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.trim())) return ctx.set({ error: 'Enter a valid email address' });
      if (password.length < 6) return ctx.set({ error: 'Password must be at least 6 characters' });
      if (!ctx.data.termsAccepted) return ctx.set({ error: 'Accept the terms of service to continue' });
      ctx.set({ error: null, loading: true });
      ctx.log('I', 'ShopAuth', `signing in ${email.trim()}`);
      ctx.after(SIGN_IN_MS, () => {
        if (password === 'wrong-password') return ctx.set({ loading: false, error: 'Invalid email or password' });
        signIn(email.trim());
      });
    };
    return column([
      toolbar('Shop'),
      image('Shop logo', { height: 360 }),
      text('Sign in to continue', { id: 'subtitle' }),
      editText(ctx.state.email, (email) => ctx.set({ email, error: null }), { id: 'email', hint: 'Email' }),
      ...(ctx.state.error ? [text(ctx.state.error, { id: 'error', tone: 'danger' })] : []),
      spacer(),
      text('Terms of service', { id: 'terms_link', onClick: () => ctx.start('.TermsActivity') }),
      checkbox(
        'I accept the terms',
        ctx.data.termsAccepted,
        () => ctx.update((d) => void (d.termsAccepted = !d.termsAccepted)),
        { id: 'accept_terms' },
      ),
      editText(ctx.state.password, (password) => ctx.set({ password, error: null }), {
        id: 'password',
        hint: 'Password',
        password: true,
        onSubmit: submit,
      }),
      ctx.state.loading
        ? progress({ id: 'login_progress', desc: 'Signing in' })
        : button('Log in', submit, { id: 'login', enabled: !ctx.state.loading }),
      ...fingerprintSignIn(ctx, checkAccount, signIn),
    ]);
  },
});
