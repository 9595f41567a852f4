import { useState } from 'react';
import { messageOf } from './api';

/** What went wrong, said to screen readers as it appears (nothing when all is well). */
export function ErrorText(props: { message: string | null | undefined }) {
  return props.message ? (
    <p className="error" role="alert">
      {props.message}
    </p>
  ) : null;
}

/**
 * An action of a screen (a button, a form): `act(run)` runs it, then `done` (a reload); its failure is kept in
 * `error` for an <ErrorText>, and cleared by the next success.
 */
export function useAction(done?: () => void): { act: (run: () => Promise<unknown>) => Promise<void>; error: string | null } {
  const [error, setError] = useState<string | null>(null);
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
      setError(null);
      done?.();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return { act, error };
}

/** How a form's last submission went: a status when it worked, an alert when it did not. */
export function StatusText(props: { status: { ok: boolean; text: string } | null }) {
  return props.status ? (
    <p className={props.status.ok ? 'ok' : 'error'} role={props.status.ok ? 'status' : 'alert'}>
      {props.status.text}
    </p>
  ) : null;
}
