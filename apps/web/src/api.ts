import { GitBookAPI } from '@gitbook/api';

/**
 * The app is a client of Quire's public API (#50): the official `@gitbook/api` client for official operations,
 * plain calls for Quire's extensions (signing in). Every call carries the session cookie (same origin) and the
 * session's CSRF token, which the API asks of every call made with the cookie.
 */
let csrfToken: string | null = null;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The error envelope as the API sent it (its `error.conflicts`, for instance). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

function withSession(init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (csrfToken) headers.set('X-CSRF-Token', csrfToken);
  if (init.body && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  return { ...init, headers, credentials: 'same-origin' };
}

/** A call to the API (a Quire extension the official client has no method for); its JSON, or an ApiError. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/v1${path}`, withSession({ method, body: body === undefined ? undefined : JSON.stringify(body) }));
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!res.ok) throw new ApiError(res.status, json?.error?.message ?? `${res.status}`, json);
  return json as T;
}

/** The official client, pointed at this origin's `/v1`, through the session. */
export const api = new GitBookAPI({
  endpoint: window.location.origin,
  serviceBinding: { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, withSession(init)) },
});

/** What an official call's failure says (the client throws the API's error message). */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message.replace(/^GitBook API failed with \[\d+\] [^:]*: /, '') : String(e);
}

export interface SignedIn {
  object: 'signed-in';
  user: string;
  email: string;
  displayName: string;
  session: { id: string };
  csrfToken: string;
}

export function remember(s: SignedIn | null): void {
  csrfToken = s?.csrfToken ?? null;
}

/**
 * The session of this browser, if it has one (after a reload the cookie is there, the token is asked again).
 * The caller remembers it: a sign-in that ends while this is asked must not be undone by its older answer.
 */
export async function currentSession(): Promise<SignedIn | null> {
  return (await call<SignedIn | undefined>('GET', '/auth/session')) ?? null;
}
