import { useState } from 'react';
import { call, messageOf } from '../api';
import { Loading, useLoad } from './organizations';
import { ErrorText, StatusText } from '../ui';

interface Token {
  id: string;
  label: string;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** The person's password and personal API tokens (what the CLI's token commands do). */
export function Settings() {
  return (
    <>
      <h1 tabIndex={-1}>Settings</h1>
      <Password />
      <Tokens />
    </>
  );
}

function Password() {
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form
        className="narrow-form"
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          const current = String(data.get('current') ?? '');
          try {
            await call('PUT', '/user/password', { ...(current ? { currentPassword: current } : {}), newPassword: data.get('next') });
            form.reset();
            setStatus({ ok: true, text: 'Your password is set.' });
          } catch (err) {
            setStatus({ ok: false, text: messageOf(err) });
          }
        }}
      >
        <label htmlFor="current">Current password (if you have one)</label>
        <input id="current" name="current" type="password" autoComplete="current-password" maxLength={256} />
        <label htmlFor="next">New password (10 characters or more)</label>
        <input id="next" name="next" type="password" autoComplete="new-password" required minLength={10} maxLength={256} />
        <button type="submit">Set password</button>
        <StatusText status={status} />
      </form>
    </section>
  );
}

function Tokens() {
  const [version, setVersion] = useState(0);
  const [made, setMade] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { data, error: loadError } = useLoad(async () => (await call<{ items: Token[] }>('GET', '/user/tokens')).items, [version]);
  const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : 'never');
  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      <p className="hint-text">For scripts and API clients (Authorization: Bearer …). A token is shown once, when it is made.</p>
      <form
        className="narrow-form"
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          const days = String(data.get('days') ?? '');
          try {
            const token = await call<{ token: string }>('POST', '/user/tokens', {
              label: data.get('label'),
              ...(days ? { expiresInDays: Number(days) } : {}),
            });
            form.reset();
            setMade(token.token);
            setError(null);
            setVersion((v) => v + 1);
          } catch (err) {
            setError(messageOf(err));
          }
        }}
      >
        <label htmlFor="token-label">What it is for</label>
        <input id="token-label" name="label" required maxLength={100} />
        <label htmlFor="token-days">Expires</label>
        <select id="token-days" name="days" defaultValue="90">
          <option value="30">in 30 days</option>
          <option value="90">in 90 days</option>
          <option value="365">in a year</option>
          <option value="">never</option>
        </select>
        <button type="submit">Make a token</button>
      </form>
      {made ? (
        <div className="made" role="status">
          <p>Your new token (copy it now: it is not shown again):</p>
          <code className="secret">{made}</code>
        </div>
      ) : null}
      <ErrorText message={error} />
      {data ? (
        <table className="sessions">
          <caption className="visually-hidden">Your API tokens</caption>
          <thead>
            <tr>
              <th scope="col">Token</th>
              <th scope="col">Made</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((t) => (
              <tr key={t.id}>
                <td>
                  {t.label} <code>{t.prefix}…</code>
                </td>
                <td>{day(t.createdAt)}</td>
                <td>{t.revokedAt ? `revoked ${day(t.revokedAt)}` : day(t.expiresAt)}</td>
                <td>
                  {t.revokedAt ? null : (
                    <button
                      type="button"
                      aria-label={`Revoke ${t.label}`}
                      onClick={() =>
                        call('DELETE', `/user/tokens/${t.id}`).then(
                          () => setVersion((v) => v + 1),
                          (e) => setError(messageOf(e)),
                        )
                      }
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <Loading error={loadError} />
      )}
    </section>
  );
}
