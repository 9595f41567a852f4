import { LocalAccessChanges } from '@app/access';
import { FixedClock, InvalidInputError, SequentialIdGenerator, UnauthenticatedError } from '@app/shared-kernel';
import { hashToken, IdentityService } from '../application/identity.service';
import { ApiToken, TokenRepository } from '../domain/api-token';
import { MemberRepository } from '../domain/member';
import { User, UserRepository } from '../domain/user';

class InMemoryUsers extends UserRepository {
  readonly rows = new Map<string, User>();
  async findById(id: string) {
    return this.rows.get(id) ?? null;
  }
  async findByEmail(email: string) {
    return [...this.rows.values()].find((u) => u.email === email) ?? null;
  }
  async findByIds(ids: string[]) {
    return ids.flatMap((id) => (this.rows.has(id) ? [this.rows.get(id)!] : []));
  }
  async findByEmails(emails: string[]) {
    return [...this.rows.values()].filter((u) => emails.includes(u.email));
  }
  async insert(user: User) {
    this.rows.set(user.id, user);
  }
  async updateProfile(user: Pick<User, 'id' | 'displayName' | 'photoURL'>) {
    const row = this.rows.get(user.id);
    if (row) this.rows.set(user.id, { ...row, displayName: user.displayName, photoURL: user.photoURL });
    return row !== undefined;
  }
  async count() {
    return this.rows.size;
  }
}

class InMemoryTokens extends TokenRepository {
  readonly rows = new Map<string, ApiToken>();
  lookups = 0;
  async insert(t: ApiToken) {
    this.rows.set(t.id, t);
  }
  async findByHash(hash: string) {
    this.lookups += 1;
    return [...this.rows.values()].find((t) => t.hash === hash) ?? null;
  }
  async findById(id: string) {
    return this.rows.get(id) ?? null;
  }
  async listByUser(userId: string) {
    return [...this.rows.values()].filter((t) => t.userId === userId);
  }
  async markRevoked(id: string, at: Date) {
    const t = this.rows.get(id)!;
    this.rows.set(id, { ...t, revokedAt: at });
  }
}

/** IdentityService only asks members whether two users share an organization. */
const noMembers = { shareOrganization: async () => false, organizationsRequiringSso: async () => [] } as unknown as MemberRepository;

function setup(ttlMs = 30_000) {
  const clock = new FixedClock(new Date('2026-05-01T00:00:00Z'));
  const users = new InMemoryUsers();
  const tokens = new InMemoryTokens();
  const service = new IdentityService(
    users,
    tokens,
    noMembers,
    clock,
    new SequentialIdGenerator('id'),
    { tokenTtlMs: ttlMs, roleTtlMs: 0, maxEntries: 100 },
    new LocalAccessChanges(),
  );
  return { clock, users, tokens, service };
}

describe('IdentityService', () => {
  it('stores only a SHA-256 hash and a short prefix of a token', async () => {
    const { service, tokens } = setup();
    const user = await service.createUser({ email: 'Ada@Example.com' });
    expect(user.email).toBe('ada@example.com');
    const { token, record } = await service.issueToken(user.id);
    expect(token).toMatch(/^qr_[0-9A-Za-z]{40}$/);
    const stored = tokens.rows.get(record.id)!;
    expect(stored.hash).toBe(hashToken(token));
    expect(stored.prefix).toBe(token.slice(0, 11));
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('authenticates from the cache without a repository lookup', async () => {
    const { service, tokens } = setup();
    const user = await service.createUser({ email: 'a@example.com' });
    const { token } = await service.issueToken(user.id);
    tokens.lookups = 0;
    await service.authenticate(token);
    await service.authenticate(token);
    await service.authenticate(token);
    expect(tokens.lookups).toBe(1);
  });

  it('refuses a token at once after revocation, even while cached', async () => {
    const { service } = setup();
    const user = await service.createUser({ email: 'a@example.com' });
    const { token, record } = await service.issueToken(user.id);
    await service.authenticate(token);
    await service.revokeToken(record.id);
    await expect(service.authenticate(token)).rejects.toThrow('revoked');
  });

  it('refuses an expired token, even while cached', async () => {
    const { service, clock } = setup();
    const user = await service.createUser({ email: 'a@example.com' });
    const { token } = await service.issueToken(user.id, { expiresAt: new Date('2026-05-01T00:00:10Z') });
    await expect(service.authenticate(token)).resolves.toMatchObject({ userId: user.id });
    clock.advance(10_000);
    await expect(service.authenticate(token)).rejects.toThrow(UnauthenticatedError);
  });

  it('refuses unknown tokens and bad inputs', async () => {
    const { service } = setup();
    await expect(service.authenticate('qr_nope')).rejects.toThrow('Invalid token');
    await expect(service.createUser({ email: 'not-an-email' })).rejects.toThrow(InvalidInputError);
    const user = await service.createUser({ email: 'b@example.com' });
    await expect(service.issueToken(user.id, { chosen: 'short' })).rejects.toThrow(InvalidInputError);
    await expect(service.issueToken(user.id, { expiresAt: new Date('2026-04-01T00:00:00Z') })).rejects.toThrow(InvalidInputError);
  });

  it('accepts a chosen token (bootstrap) and refuses reusing it', async () => {
    const { service } = setup();
    const user = await service.createUser({ email: 'c@example.com' });
    await service.issueToken(user.id, { chosen: 'automation-token-0123456789' });
    await expect(service.authenticate('automation-token-0123456789')).resolves.toMatchObject({ userId: user.id });
    await expect(service.issueToken(user.id, { chosen: 'automation-token-0123456789' })).rejects.toThrow('already exists');
  });
});
