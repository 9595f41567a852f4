import { useState } from 'react';
import { call, messageOf, type SignedIn } from '../api';
import { navigate } from '../router';
import { Loading, useLoad } from './organizations';
import { ErrorText } from '../ui';

interface SessionItem {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  method: 'password' | 'link';
  userAgent: string | null;
  current: boolean;
}

/** The person's signed-in sessions: each can be ended, or all at once. */
export function Sessions(props: { user: SignedIn }) {
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const { data, error: loadError } = useLoad(async () => (await call<{ items: SessionItem[] }>('GET', '/auth/sessions')).items, [version]);
  const when = (iso: string) => new Date(iso).toLocaleString();
  return (
    <>
      <h1 tabIndex={-1}>Signed-in sessions</h1>
      <p>Signed in as {props.user.email}.</p>
      <ErrorText message={error} />
      {data ? (
        <table className="sessions">
          <caption className="visually-hidden">Your sessions</caption>
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.userAgent ?? 'Unknown browser'}
                  {s.current ? <strong> (this one)</strong> : null}
                </td>
                <td>
                  {when(s.createdAt)} ({s.method === 'link' ? 'sign-in link' : 'password'})
                </td>
                <td>{when(s.lastSeenAt)}</td>
                <td>
                  {s.current ? null : (
                    <button
                      type="button"
                      aria-label={`End the session signed in ${when(s.createdAt)}`}
                      onClick={() =>
                        call('DELETE', `/auth/sessions/${s.id}`).then(
                          () => setVersion((v) => v + 1),
                          (e) => setError(messageOf(e)),
                        )
                      }
                    >
                      End
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
      <button
        type="button"
        className="danger"
        onClick={() =>
          call('DELETE', '/auth/sessions').then(
            () => (window.location.href = `${import.meta.env.BASE_URL}sign-in`),
            (e) => setError(messageOf(e)),
          )
        }
      >
        Sign out everywhere
      </button>
    </>
  );
}

export { navigate };
