import { queryParam } from '../router';
import { useEffect, useState } from 'react';
import { call, messageOf, remember, type SignedIn } from '../api';
import { ErrorText } from '../ui';

/** Email and password. */
export function SignIn(props: { onSignedIn: (s: SignedIn) => void }) {
  // An SSO login that was refused comes back here with why (`?error=`).
  const [error, setError] = useState<string | null>(
    queryParam('error') ? `SSO sign-in refused: ${queryParam('error')!.slice(0, 300)}` : null,
  );
  const [busy, setBusy] = useState(false);
  // `?sso=<provider id>`: the link an organization that signs in with SAML gives its people (docs/sign-in.md).
  const sso = /^[\w-]{1,64}$/.test(queryParam('sso') ?? '') ? queryParam('sso') : null;
  return (
    <section className="narrow">
      <h1 tabIndex={-1}>Sign in to Quire</h1>
      {sso ? (
        <p>
          <a className="button-link" href={`/v1/sso/saml/${encodeURIComponent(sso)}/start?to=app`}>
            Continue with your organization’s SSO
          </a>
        </p>
      ) : null}
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          setBusy(true);
          setError(null);
          try {
            const s = await call<SignedIn>('POST', '/auth/sign-in', { email: form.get('email'), password: form.get('password') });
            remember(s);
            props.onSignedIn(s);
          } catch (err) {
            setError(messageOf(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required maxLength={320} />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required maxLength={256} />
        <ErrorText message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="hint-text">No password yet? Ask an administrator for a sign-in link (npm run cli -- user:sign-in-link).</p>
    </section>
  );
}

/** A one-time link: its token is in the fragment (never sent to a server but by this call). */
export function SignInWithLink(props: { onSignedIn: (s: SignedIn) => void }) {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const token = window.location.hash.slice(1);
    window.history.replaceState(null, '', window.location.pathname); // the token leaves the address bar
    if (!token) {
      setError('This link has no sign-in token.');
      return;
    }
    call<SignedIn>('POST', '/auth/sign-in/link', { token }).then(
      (s) => {
        remember(s);
        props.onSignedIn(s);
      },
      (e: unknown) => setError(messageOf(e)),
    );
  }, []);
  return (
    <section className="narrow">
      <h1 tabIndex={-1}>Signing in…</h1>
      {error ? (
        <p className="error" role="alert">
          {error} <a href={`${import.meta.env.BASE_URL}sign-in`}>Sign in with a password</a>
        </p>
      ) : null}
    </section>
  );
}
