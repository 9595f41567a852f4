import { parse as parseCookies } from 'cookie';

/**
 * Signing in to the web app (#50): server-side sessions, passwords and one-time sign-in links. Only hashes are
 * stored: the session's secret lives in the browser's cookie, the link's token in the link, the password in
 * the person's head (an argon2id hash here).
 */

/** A browser's signed-in session: revocable, listed to its user, ending at `expiresAt` (renewed by use). */
export interface Session {
  id: string;
  userId: string;
  /** SHA-256 of the secret in the cookie. */
  hash: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** The browser's User-Agent when it signed in (at most 200 characters), so its user can tell sessions apart. */
  userAgent: string | null;
  /** How it began: a password, a one-time link, an SSO login. */
  method: SignInMethod;
  /** For a session an SSO login began: the organization it is limited to (as the SSO login's API token is). */
  scope: string | null;
}

export type SignInMethod = 'password' | 'link' | 'sso';

/**
 * When a session in use at `now` ends: `idleMs` after its last use, and for a session an SSO login began never
 * later than `ssoMaxMs` after it began (as the SSO login's API token: a person the identity provider turns off
 * is out when that ends, however often they come back).
 */
export function renewedExpiry(session: Session, now: Date, idleMs: number, ssoMaxMs: number): Date {
  const idle = now.getTime() + idleMs;
  return new Date(session.method === 'sso' ? Math.min(idle, session.createdAt.getTime() + ssoMaxMs) : idle);
}

export function isActive(session: Session, now: Date): boolean {
  return session.revokedAt === null && session.expiresAt.getTime() > now.getTime();
}

export abstract class SessionRepository {
  abstract insert(session: Session): Promise<void>;
  abstract findByHash(hash: string): Promise<Session | null>;
  /** The user's sessions that are neither revoked nor expired, newest first. */
  abstract listActive(userId: string, now: Date): Promise<Session[]>;
  /** Moves `lastSeenAt` and `expiresAt` (a session in use lives on). */
  abstract touch(id: string, lastSeenAt: Date, expiresAt: Date): Promise<void>;
  /** Revokes one of the user's active sessions; its hash when it did, else null (none such, or not theirs). */
  abstract revoke(userId: string, id: string, at: Date): Promise<string | null>;
  /** Revokes every active session of the user (but `except`); the hashes revoked. */
  abstract revokeAll(userId: string, at: Date, except?: string): Promise<string[]>;
}

/** The argon2id hash of each user's password (a user without one signs in by link or SSO). */
export abstract class PasswordRepository {
  abstract get(userId: string): Promise<string | null>;
  abstract set(userId: string, hash: string, at: Date): Promise<void>;
}

/** A one-time sign-in link: its token's hash, whose it is, until when, and whether it was used. */
export interface SignInLink {
  hash: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
}

export abstract class SignInLinkRepository {
  abstract insert(link: SignInLink): Promise<void>;
  /** Uses the link once, atomically: its user when it was unused and unexpired at `at`, else null. */
  abstract consume(hash: string, at: Date): Promise<string | null>;
}

/** Port: password hashing (argon2id through a maintained binding in infrastructure). */
export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  abstract verify(hash: string, password: string): Promise<boolean>;
}

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** Why a new password is refused, or null: 10 to 256 characters, not one character repeated, no NUL. */
export function passwordWeakness(password: string, email: string): string | null {
  if (password.length < PASSWORD_MIN) return `password: at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `password: at most ${PASSWORD_MAX} characters`;
  if (password.includes('\0')) return 'password: no NUL character';
  if (new Set(password).size < 4) return 'password: more than three different characters';
  if (password.toLowerCase() === email.toLowerCase() || password.toLowerCase() === email.split('@')[0].toLowerCase())
    return 'password: not your email address';
  return null;
}
/** The session cookie: its name, and its secret in a Cookie header (43 base64url characters), if any. */
export const SESSION_COOKIE = 'quire_session';

export function sessionSecret(cookieHeader: string | undefined): string | null {
  if (!cookieHeader || !cookieHeader.includes(SESSION_COOKIE)) return null;
  const value = parseCookies(cookieHeader)[SESSION_COOKIE];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}
