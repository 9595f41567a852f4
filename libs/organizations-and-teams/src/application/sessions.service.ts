import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { AccessCacheSettings, AccessChanges } from '@app/access';
import {
  Actor,
  Clock,
  FixedWindows,
  ForbiddenError,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  TtlCache,
  UnauthenticatedError,
  UnitOfWork,
} from '@app/shared-kernel';
import { MemberRepository } from '../domain/member';
import {
  isActive,
  renewedExpiry,
  PasswordHasher,
  PasswordRepository,
  passwordWeakness,
  Session,
  SessionRepository,
  SignInLinkRepository,
  type SignInMethod,
} from '../domain/session';
import { normalizeEmail, User, UserRepository } from '../domain/user';

/** A session lives this long after its last use (renewed at most once an hour). */
export const SESSION_IDLE_MS = 14 * 24 * 3600_000;
/** The longest an SSO session lives, used or not: the lifetime of the API token an SSO login issues. */
export const SSO_SESSION_MAX_MS = 30 * 24 * 3600_000;
const TOUCH_EVERY_MS = 3600_000;
/** A one-time sign-in link works this long. */
export const SIGN_IN_LINK_MS = 24 * 3600_000;
/** Failed sign-ins: per address and email, and per address, in windows of 15 minutes. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const FAILURES_PER_ACCOUNT = 5;
export const FAILURES_PER_ADDRESS = 30;

/** Too many failed sign-ins from this address (for this account, or at all): answered 429 with `Retry-After`. */
export class SignInThrottled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed sign-ins from this address: try again in ${retryAfterSeconds} s`);
  }
}

/** A session just opened: its secret (for the cookie, shown once), its record and its user. */
export interface OpenedSession {
  secret: string;
  session: Session;
  user: User;
}

const secretHash = (secret: string) => hash('sha256', secret, 'hex');
const actorOf = (s: Session): Actor => ({ userId: s.userId, tokenId: `session:${s.id}`, ...(s.scope ? { scope: s.scope } : {}) });

/** The key a client address counts under: an IPv6 address by its /64 (one network, not one of its 2^64 addresses). */
function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  return parsed.kind() === 'ipv6'
    ? `${(parsed as ipaddr.IPv6).parts
        .slice(0, 4)
        .map((p) => p.toString(16))
        .join(':')}::/64`
    : parsed.toString();
}

/**
 * Signing in to the web app (#50): a password (argon2id) or a one-time link opens a server-side session whose
 * secret is the browser's cookie. Sessions are listed and revoked by their user ("sign out everywhere" too);
 * a revoked session is refused at once in every process (AccessChanges). The CSRF token of a session is an
 * HMAC of its secret: the app reads it once and sends it with every call; a page of another site can neither
 * read the cookie nor compute it.
 *
 * Failed sign-ins are throttled per address and email (5 in 15 minutes) and per address (30): the person
 * whose password someone else is guessing, from another address, still signs in. An organization that
 * enforces SSO refuses its members' passwords and links (as it refuses them API tokens).
 */
@Injectable()
export class SessionsService {
  private readonly failures = new FixedWindows(SIGN_IN_WINDOW_MS);
  private readonly cache: TtlCache<string, Session>;
  /** What an unknown email is checked against, so it takes as long as a known one. */
  private dummy: Promise<string> | null = null;

  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly passwords: PasswordRepository,
    private readonly links: SignInLinkRepository,
    private readonly hasher: PasswordHasher,
    private readonly members: MemberRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly uow: UnitOfWork,
    private readonly changes: AccessChanges,
    settings: AccessCacheSettings,
  ) {
    this.cache = new TtlCache(settings.tokenTtlMs, settings.maxEntries);
    changes.subscribe((c) => {
      if (c.kind === 'token') this.cache.delete(c.hash);
      else if (c.kind === 'reset') this.cache.clear();
    });
  }

  /** Email and password (from `address`): a new session, or 401 with one message for every wrong part. */
  async signIn(email: string, password: string, address: string, userAgent: string | undefined): Promise<OpenedSession> {
    const normalized = normalizeEmail(email);
    const now = this.clock.now().getTime();
    const from = addressKey(address);
    const keys = [`a ${from}`, `e ${from} ${normalized}`];
    const limits = [FAILURES_PER_ADDRESS, FAILURES_PER_ACCOUNT];
    keys.forEach((key, i) => {
      if (this.failures.count(key, now) >= limits[i]) throw new SignInThrottled(this.failures.retryAfter(key, now));
    });
    // Counted before the check and taken back when it succeeds: attempts made at once cannot all pass the limit.
    for (const key of keys) this.failures.hit(key, now);
    // The hash is checked outside the unit of work: no connection is held while argon2 works. The password is
    // looked up for an unknown email too (no user: no row), so both take the same steps.
    const user = await this.uow.outside(async () => {
      const found = await this.users.findByEmail(normalized);
      const stored = await this.passwords.get(found?.id ?? '');
      const ok = await this.hasher.verify(stored ?? (await this.dummyHash()), password);
      return found && stored && ok ? found : null;
    });
    if (!user) throw new UnauthenticatedError('Wrong email or password');
    for (const key of keys) this.failures.undo(key, now);
    await this.refuseWhereSsoIsEnforced(user.id);
    return this.open(user, 'password', userAgent);
  }

  /** A one-time link's token: a new session for its user, once; 401 when it was used, expired or never was. */
  async signInWithLink(token: string, userAgent: string | undefined): Promise<OpenedSession> {
    const userId = await this.links.consume(secretHash(token), this.clock.now());
    if (!userId) throw new UnauthenticatedError('This sign-in link does not work: it was used, it expired, or it never was');
    const user = await this.users.findById(userId);
    if (!user) throw new UnauthenticatedError('This sign-in link does not work');
    await this.refuseWhereSsoIsEnforced(user.id);
    return this.open(user, 'link', userAgent);
  }

  /** A one-time sign-in link's token for the user (the CLI, the first start, an email invitation): shown once, stored hashed. */
  async issueLink(userId: string, ttlMs = SIGN_IN_LINK_MS): Promise<{ token: string; expiresAt: Date }> {
    const now = this.clock.now();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + ttlMs);
    await this.links.insert({ hash: secretHash(token), userId, createdAt: now, expiresAt });
    return { token, expiresAt };
  }

  /** The session of a cookie's secret, renewed by use; 401 when it is unknown, revoked or expired. */
  async authenticate(secret: string): Promise<{ actor: Actor; session: Session }> {
    const key = secretHash(secret);
    const now = this.clock.now();
    const cached = this.cache.get(key, now.getTime());
    // A kept session is used as kept (its time in the cache is not renewed by use); one due for renewal is read again.
    if (cached && isActive(cached, now) && now.getTime() - cached.lastSeenAt.getTime() <= TOUCH_EVERY_MS)
      return { actor: actorOf(cached), session: cached };
    this.cache.delete(key);
    let session = await this.sessions.findByHash(key);
    if (!session || !isActive(session, now)) throw new UnauthenticatedError('The session has ended: sign in again');
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      session = { ...session, lastSeenAt: now, expiresAt: renewedExpiry(session, now, SESSION_IDLE_MS, SSO_SESSION_MAX_MS) };
      await this.sessions.touch(session.id, session.lastSeenAt, session.expiresAt);
    }
    this.cache.set(key, session, now.getTime());
    return { actor: actorOf(session), session };
  }

  /** The CSRF token of a session's secret. */
  csrfToken(secret: string): string {
    return createHmac('sha256', secret).update('quire-csrf').digest('base64url');
  }

  /** Whether `given` is the CSRF token of `secret` (constant time). */
  csrfMatches(secret: string, given: string): boolean {
    const expected = Buffer.from(this.csrfToken(secret));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  async userOf(userId: string): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user) throw new UnauthenticatedError('The session has ended: sign in again');
    return user;
  }

  list(actor: Actor): Promise<Session[]> {
    return this.sessions.listActive(actor.userId, this.clock.now());
  }

  /** Ends one of the caller's sessions (404 when it is not one of theirs, or already over). */
  async revoke(actor: Actor, sessionId: string): Promise<void> {
    const hash = await this.sessions.revoke(actor.userId, sessionId, this.clock.now());
    if (!hash) throw new NotFoundError('Session', sessionId);
    await this.forget([hash]);
  }

  /** Signs the caller out everywhere: every session of theirs ends; answers how many. */
  async revokeAll(actor: Actor): Promise<number> {
    const hashes = await this.sessions.revokeAll(actor.userId, this.clock.now());
    await this.forget(hashes);
    return hashes.length;
  }

  /**
   * What a token limited to one organization by SSO may not do: mint a token or set a password, either of
   * which would reach the user's other organizations (403).
   */
  refuseScoped(actor: Actor, what: string): void {
    if (actor.scope !== undefined)
      throw new ForbiddenError(`${what} needs the user's own sign-in: this token is limited to organization ${actor.scope} by SSO`);
  }

  /**
   * Sets the caller's password. Changing one needs the current password (a stolen session or token alone
   * cannot); the first one does not (a user made by an invitation, SSO or the first start has none).
   */
  async setPassword(actor: Actor, current: string | undefined, next: string): Promise<void> {
    this.refuseScoped(actor, 'Setting a password');
    const user = await this.users.findById(actor.userId);
    if (!user) throw new NotFoundError('User', actor.userId);
    const weakness = passwordWeakness(next, user.email);
    if (weakness) throw new InvalidInputError(weakness);
    const hashed = await this.uow.outside(async () => {
      const stored = await this.passwords.get(user.id);
      if (stored !== null) {
        if (current === undefined) throw new InvalidInputError('currentPassword: needed to change a password');
        if (!(await this.hasher.verify(stored, current))) throw new ForbiddenError('currentPassword is not your password');
      }
      return this.hasher.hash(next);
    });
    await this.passwords.set(user.id, hashed, this.clock.now());
    // A new password ends the user's other sessions (one opened with the old password, maybe not by them).
    const own = actor.tokenId.startsWith('session:') ? actor.tokenId.slice('session:'.length) : undefined;
    await this.forget(await this.sessions.revokeAll(user.id, this.clock.now(), own));
  }

  /**
   * A session an SSO login began (the ACS, in its unit of work): limited to that organization, as the login's API
   * token is. The organization's SSO is the way in, so its enforcement does not apply.
   */
  openForSso(user: User, organizationId: string, userAgent: string | undefined): Promise<OpenedSession> {
    return this.open(user, 'sso', userAgent, organizationId);
  }

  private async open(user: User, method: SignInMethod, userAgent: string | undefined, scope: string | null = null): Promise<OpenedSession> {
    const now = this.clock.now();
    const secret = randomBytes(32).toString('base64url');
    const session: Session = {
      id: this.ids.next(),
      userId: user.id,
      hash: secretHash(secret),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + Math.min(SESSION_IDLE_MS, scope ? SSO_SESSION_MAX_MS : SESSION_IDLE_MS)),
      revokedAt: null,
      userAgent: userAgent ? userAgent.replace(/[\u0000-\u001f]/g, ' ').slice(0, 200) : null,
      method,
      scope,
    };
    await this.sessions.insert(session);
    return { secret, session, user };
  }

  private async refuseWhereSsoIsEnforced(userId: string): Promise<void> {
    const enforcing = await this.members.organizationsRequiringSso(userId);
    if (enforcing.length) throw new ForbiddenError(`Organization ${enforcing.join(', ')} enforces SSO: this user must sign in through SSO`);
  }

  private async forget(hashes: string[]): Promise<void> {
    for (const h of hashes) {
      this.cache.delete(h);
      // Again once the revocation is committed: a request that read the row meanwhile may have kept it.
      this.uow.afterCommit(() => this.cache.delete(h));
      await this.changes.publish({ kind: 'token', hash: h });
    }
  }

  private dummyHash(): Promise<string> {
    return (this.dummy ??= this.hasher.hash(randomBytes(16).toString('hex')));
  }
}
