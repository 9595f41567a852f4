import { hash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ConflictError,
  ForbiddenError,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  TtlCache,
  UnauthenticatedError,
} from '@app/shared-kernel';
import { ApiToken, isUsable, TOKEN_PREFIX, TOKEN_VISIBLE_LENGTH, TokenRepository } from '../domain/api-token';
import { MemberRepository } from '../domain/member';
import { applyUserProfilePatch, isEmail, normalizeEmail, User, UserProfilePatch, UserRepository } from '../domain/user';
import { AccessCacheSettings, AccessChanges } from '@app/access';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

interface CachedToken {
  actor: Actor;
  expiresAt: number | null;
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Users and API tokens: issuing (shown once), verifying (cached), revoking. */
@Injectable()
export class IdentityService {
  private readonly cache: TtlCache<string, CachedToken>;

  constructor(
    private readonly users: UserRepository,
    private readonly tokens: TokenRepository,
    private readonly members: MemberRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    settings: AccessCacheSettings,
    private readonly changes: AccessChanges,
  ) {
    this.cache = new TtlCache(settings.tokenTtlMs, settings.maxEntries);
    changes.subscribe((c) => {
      if (c.kind === 'token') this.cache.delete(c.hash);
      else if (c.kind === 'reset') this.cache.clear();
    });
  }

  async createUser(input: { email: string; displayName?: string; photoURL?: string | null; emailAssertedBy?: string }): Promise<User> {
    const email = normalizeEmail(input.email);
    if (!isEmail(email)) throw new InvalidInputError(`"${input.email}" is not an email address`);
    if (await this.users.findByEmail(email)) throw new ConflictError(`A user with email ${email} already exists`);
    const user: User = {
      id: this.ids.next(),
      email,
      displayName: input.displayName?.trim() || email.split('@')[0],
      photoURL: input.photoURL ?? null,
      createdAt: this.clock.now(),
      emailAssertedBy: input.emailAssertedBy ?? null,
    };
    await this.users.insert(user);
    return user;
  }

  async getUser(id: string): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundError('User', id);
    return user;
  }

  /** A user as another user may see them: themselves, or someone they share an organization with (the token's, when scoped). */
  async getVisibleUser(actor: Actor, userId: string): Promise<User> {
    const visible = userId === actor.userId || (await this.members.shareOrganization(actor.userId, userId, actor.scope));
    const user = visible ? await this.users.findById(userId) : null;
    if (!user) throw new NotFoundError('User', userId);
    return user;
  }

  /**
   * The caller's own profile, changed (the official `updateUserById`): another user they can see is 403, one
   * they cannot 404.
   */
  async updateUser(actor: Actor, userId: string, patch: UserProfilePatch): Promise<User> {
    const user = await this.getVisibleUser(actor, userId);
    if (user.id !== actor.userId) throw new ForbiddenError('You can change only your own account');
    // What other organizations see of the user is not for a token one organization's SSO issued.
    if (actor.scope !== undefined)
      throw new ForbiddenError(`Changing your account needs your own sign-in: this token is limited to organization ${actor.scope} by SSO`);
    const next = applyUserProfilePatch(user, patch);
    if (!(await this.users.updateProfile(next))) throw new NotFoundError('User', userId);
    return next;
  }

  /** Several users at once (one query), for responses that name many. */
  async usersByIds(ids: string[]): Promise<Map<string, User>> {
    return new Map((await this.users.findByIds([...new Set(ids)])).map((u) => [u.id, u]));
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.users.findByEmail(normalizeEmail(email));
  }

  countUsers(): Promise<number> {
    return this.users.count();
  }

  /**
   * Issues a token for a user. The plain token is returned once and never stored.
   * `chosen` lets automation pick the token (QUIRE_BOOTSTRAP_TOKEN).
   */
  async issueToken(
    userId: string,
    options: { label?: string; expiresAt?: Date | null; chosen?: string; via?: { sso: string } } = {},
  ): Promise<{ token: string; record: ApiToken }> {
    await this.getUser(userId);
    if (!options.via) {
      const enforcing = await this.members.organizationsRequiringSso(userId);
      if (enforcing.length) {
        throw new ForbiddenError(`Organization ${enforcing.join(', ')} enforces SSO: this user must sign in through SSO to get a token`);
      }
    }
    const token = options.chosen ?? TOKEN_PREFIX + Array.from(randomBytes(40), (b) => BASE62[b % 62]).join('');
    if (token.length < 20 || token.length > 200 || /\s/.test(token)) {
      throw new InvalidInputError('A chosen token must be 20 to 200 characters without white space');
    }
    const now = this.clock.now();
    if (options.expiresAt && options.expiresAt.getTime() <= now.getTime()) {
      throw new InvalidInputError('expiresAt must be in the future');
    }
    const hash = hashToken(token);
    if (await this.tokens.findByHash(hash)) throw new ConflictError('This token already exists');
    const record: ApiToken = {
      id: this.ids.next(),
      userId,
      label: options.label ?? 'API token',
      prefix: token.slice(0, TOKEN_VISIBLE_LENGTH),
      hash,
      createdAt: now,
      expiresAt: options.expiresAt ?? null,
      revokedAt: null,
      organizationId: options.via?.sso ?? null,
    };
    await this.tokens.insert(record);
    return { token, record };
  }

  listTokens(userId: string): Promise<ApiToken[]> {
    return this.tokens.listByUser(userId);
  }

  /** Revokes a token of the user's own: 404 for anyone else's (or none), as if it did not exist. */
  async revokeOwnToken(userId: string, tokenId: string): Promise<ApiToken> {
    const token = await this.tokens.findById(tokenId);
    if (!token || token.userId !== userId) throw new NotFoundError('Token', tokenId);
    return this.revokeToken(tokenId);
  }

  async revokeToken(tokenId: string): Promise<ApiToken> {
    const token = await this.tokens.findById(tokenId);
    if (!token) throw new NotFoundError('Token', tokenId);
    if (!token.revokedAt) await this.tokens.markRevoked(tokenId, this.clock.now());
    await this.changes.publish({ kind: 'token', hash: token.hash });
    return { ...token, revokedAt: token.revokedAt ?? this.clock.now() };
  }

  /** Resolves a Bearer token to the caller. Cached for a short TTL so most requests skip the database. */
  async authenticate(token: string): Promise<Actor> {
    const hash = hashToken(token);
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(hash, nowMs);
    if (cached) {
      if (cached.expiresAt !== null && cached.expiresAt <= nowMs) {
        this.cache.delete(hash);
        throw new UnauthenticatedError('The token has expired');
      }
      return cached.actor;
    }
    const record = await this.tokens.findByHash(hash);
    if (!record) throw new UnauthenticatedError('Invalid token');
    if (!isUsable(record, new Date(nowMs))) {
      throw new UnauthenticatedError(record.revokedAt ? 'The token has been revoked' : 'The token has expired');
    }
    const actor: Actor = record.organizationId
      ? { userId: record.userId, tokenId: record.id, scope: record.organizationId }
      : { userId: record.userId, tokenId: record.id };
    this.cache.set(hash, { actor, expiresAt: record.expiresAt?.getTime() ?? null }, nowMs);
    return actor;
  }
}
