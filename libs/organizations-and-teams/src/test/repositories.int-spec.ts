import { Db } from '@app/persistence';
import type { Page, PageRequest } from '@app/shared-kernel';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { newOrganization } from '../domain/organization';
import type { SamlProvider } from '../domain/saml-provider';
import { ORGANIZATION_ENTITIES } from '../infrastructure/orm-entities';
import {
  TypeOrmMemberRepository,
  TypeOrmOrganizationRepository,
  TypeOrmUserRepository,
} from '../infrastructure/organizations.repositories';
import { SqlSamlProviderRepository, SqlSsoIdentityRepository } from '../infrastructure/saml.repositories-and-gateway';
import { SqlInviteRepository, SqlTeamRepository } from '../infrastructure/teams-and-invites.repositories';

/** The SQL-heavy adapters of this context (members, teams, invites, SAML) against a real PostgreSQL. */
describe('organizations-and-teams adapters (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let members: TypeOrmMemberRepository;
  let teams: SqlTeamRepository;
  let invites: SqlInviteRepository;
  let saml: SqlSamlProviderRepository;
  let identities: SqlSsoIdentityRepository;
  const t0 = new Date('2026-01-01T00:00:00.000Z');
  const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

  /** Every page of a list, following `next` cursors (limit 2), to prove the keyset round trip. */
  async function all<T>(list: (page: PageRequest) => Promise<Page<T>>): Promise<{ items: T[]; counts: number[] }> {
    const items: T[] = [];
    const counts: number[] = [];
    let after: PageRequest['after'];
    for (let i = 0; i < 50; i++) {
      const page = await list({ limit: 2, after });
      items.push(...page.items);
      counts.push(page.count);
      if (!page.next) return { items, counts };
      after = JSON.parse(Buffer.from(page.next, 'base64url').toString('utf8')).k;
    }
    throw new Error('more than 50 pages');
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: ORGANIZATION_ENTITIES });
    await ds.initialize();
    const d = new Db(ds);
    members = new TypeOrmMemberRepository(d);
    teams = new SqlTeamRepository(d);
    invites = new SqlInviteRepository(d);
    saml = new SqlSamlProviderRepository(d);
    identities = new SqlSsoIdentityRepository(d);
    const users = new TypeOrmUserRepository(d);
    const names = ['Ada', 'bob', 'Cleo', 'dan', 'Eve'];
    for (const [i, name] of names.entries()) {
      await users.insert({
        id: `u${i}`,
        email: `${name.toLowerCase()}@example.com`,
        displayName: name,
        photoURL: null,
        createdAt: t0,
        emailAssertedBy: null,
      });
    }
    const orgs = new TypeOrmOrganizationRepository(d);
    await orgs.insert(newOrganization('org1', 'One', [], t0));
    await orgs.insert(newOrganization('org2', 'Two', [], t0));
    for (const [i] of names.entries()) {
      await members.upsert({
        organizationId: 'org1',
        userId: `u${i}`,
        role: i === 0 ? 'admin' : 'read',
        joinedAt: at(10 - i),
        sso: false,
        disabled: false,
      });
    }
    await members.upsert({ organizationId: 'org2', userId: 'u0', role: 'admin', joinedAt: at(0), sso: false, disabled: false });
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  describe('members', () => {
    it('pages by name (case-insensitive) both ways, by join time, and filters by role and search', async () => {
      const byName = await all((p) => members.list('org1', {}, 'name', 'asc', p));
      expect(byName.items.map((m) => m.user.displayName)).toEqual(['Ada', 'bob', 'Cleo', 'dan', 'Eve']);
      expect(byName.counts).toEqual([5, 5, 5]);
      const desc = await all((p) => members.list('org1', {}, 'name', 'desc', p));
      expect(desc.items.map((m) => m.user.displayName)).toEqual(['Eve', 'dan', 'Cleo', 'bob', 'Ada']);
      const joined = await all((p) => members.list('org1', {}, 'joinedAt', 'asc', p));
      expect(joined.items.map((m) => m.user.id)).toEqual(['u4', 'u3', 'u2', 'u1', 'u0']);
      expect((await members.list('org1', { role: 'admin' }, 'name', 'asc', { limit: 10 })).items.map((m) => m.user.id)).toEqual(['u0']);
      expect((await members.list('org1', { search: 'CLE' }, 'name', 'asc', { limit: 10 })).items.map((m) => m.user.id)).toEqual(['u2']);
      expect((await members.list('org1', { role: 'guest' }, 'name', 'asc', { limit: 10 })).count).toBe(0);
    });

    it('keeps the last admin (demote and remove), changes and removes others', async () => {
      expect(await members.changeRole('org1', 'u0', 'read')).toBe('last-admin');
      expect(await members.remove('org1', 'u0')).toBe('last-admin');
      expect(await members.changeRole('org1', 'nobody', 'read')).toBe('absent');
      expect(await members.changeRole('org1', 'u1', 'admin')).toBe('changed');
      expect(await members.changeRole('org1', 'u0', 'edit')).toBe('changed');
      expect((await members.find('org1', 'u0'))?.role).toBe('edit');
      expect(await members.changeRole('org1', 'u1', 'read')).toBe('last-admin');
      await members.changeRole('org1', 'u0', 'admin');
      expect(await members.remove('org1', 'u4')).toBe('changed');
      expect(await members.find('org1', 'u4')).toBeNull();
      await members.upsert({ organizationId: 'org1', userId: 'u4', role: 'read', joinedAt: at(6), sso: false, disabled: false });
    });

    it('two concurrent demotions of the only two admins leave one admin', async () => {
      const outcomes = await Promise.all([members.changeRole('org1', 'u0', 'read'), members.changeRole('org1', 'u1', 'read')]);
      expect(outcomes.sort()).toEqual(['changed', 'last-admin']);
      expect((await members.list('org1', { role: 'admin' }, 'name', 'asc', { limit: 10 })).count).toBe(1);
      await members.changeRole('org1', 'u0', 'admin');
      await members.changeRole('org1', 'u1', 'read');
    });

    it('lists a user’s organizations by join time (one organization only, for a scoped token), and who shares one', async () => {
      const mine = await all((p) => members.listOrganizationsOfUser('u0', p));
      expect(mine.items.map((m) => m.organization.id)).toEqual(['org2', 'org1']);
      expect((await members.listOrganizationsOfUser('u0', { limit: 10 }, 'org1')).items.map((m) => m.organization.id)).toEqual(['org1']);
      expect(await members.shareOrganization('u0', 'u2')).toBe(true);
      expect(await members.shareOrganization('u0', 'u2', 'org2')).toBe(false);
      expect(await members.shareOrganization('u2', 'nobody')).toBe(false);
    });
  });

  describe('teams', () => {
    it('creates, lists (title filter, paging), applies members atomically, and lists a member’s teams', async () => {
      for (const [i, title] of ['Alpha', 'Beta', 'Gamma'].entries()) {
        await teams.insert(
          { id: `t${i}`, organizationId: 'org1', title, createdAt: at(i) },
          i === 0 ? [{ userId: 'u1', role: 'owner' }] : [],
        );
      }
      const listed = await all((p) => teams.list('org1', {}, p));
      expect(listed.items.map((v) => v.team.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
      expect((await teams.list('org1', { title: 'amm' }, { limit: 10 })).items.map((v) => v.team.id)).toEqual(['t2']);
      expect((await teams.list('org1', { ownedBy: 'u1' }, { limit: 10 })).items.map((v) => v.team.id)).toEqual(['t0']);
      await teams.applyMembers(
        'org1',
        't1',
        new Map([
          ['u2', null],
          ['u3', 'owner'],
        ]),
        new Set(),
        at(5),
      );
      await teams.applyMembers('org1', 't1', new Map([['u2', 'owner']]), new Set(['u3']), at(6));
      const inBeta = await all((p) => teams.listMembers('org1', 't1', p));
      expect(inBeta.items.map((m) => [m.member.user.id, m.role])).toEqual([['u2', 'owner']]);
      expect(await teams.roleOf('t1', 'u2')).toBe('owner');
      expect([...(await teams.ownedTeamIds('org1', 'u2'))]).toEqual(['t1']);
      expect([...(await teams.organizationsOwningTeams('u1'))]).toEqual(['org1']);
      const ofU2 = await teams.teamsOfMember('org1', 'u2', undefined, { limit: 10 });
      expect(ofU2.items.map((x) => [x.team.team.id, x.role])).toEqual([['t1', 'owner']]);
      expect((await teams.view('org1', 't1'))?.members).toBe(1);
      expect(await teams.view('org2', 't1')).toBeNull();
      expect(await teams.delete('org2', 't1')).toBe(false);
      expect(await teams.delete('org1', 't1')).toBe(true);
      expect(await teams.roleOf('t1', 'u2')).toBeNull();
    });
  });

  describe('invites', () => {
    it('inserts, pages, finds within the organization only, changes the role and deletes', async () => {
      for (let i = 0; i < 3; i++)
        await invites.insert({ id: `i${i}`, organizationId: 'org1', role: 'read', createdBy: 'u0', createdAt: at(i) });
      const listed = await all((p) => invites.list('org1', p));
      expect(listed.items.map((x) => x.id)).toEqual(['i0', 'i1', 'i2']);
      expect(await invites.find('org2', 'i0')).toBeNull();
      await invites.updateRole('org1', 'i0', 'edit');
      expect((await invites.find('org1', 'i0'))?.role).toBe('edit');
      expect(await invites.delete('org2', 'i0')).toBe(false);
      expect(await invites.delete('org1', 'i0')).toBe(true);
      expect(await invites.find('org1', 'i0')).toBeNull();
    });
  });

  describe('SAML providers and SSO identities', () => {
    const provider = (id: string, minutes: number): SamlProvider => ({
      id,
      organizationId: 'org1',
      label: id,
      entityID: null,
      certificate: null,
      ssoURL: null,
      defaultTeamId: null,
      defaultRole: null,
      status: 'pending',
      createdAt: at(minutes),
    });

    it('pages providers, refuses a replayed assertion, links identities once, and deleting a provider drops its identities', async () => {
      for (let i = 0; i < 3; i++) await saml.insert(provider(`p${i}`, i));
      const listed = await all((p) => saml.list('org1', p));
      expect(listed.items.map((x) => x.id)).toEqual(['p0', 'p1', 'p2']);
      expect(await saml.find('org2', 'p0')).toBeNull();
      expect(await saml.rememberAssertion('p0', 'a1', at(60 * 24 * 365))).toBe(true);
      expect(await saml.rememberAssertion('p0', 'a1', at(60 * 24 * 365))).toBe(false);
      expect(await saml.rememberAssertion('p1', 'a1', at(60 * 24 * 365))).toBe(true);
      const link = { providerId: 'p0', nameId: 'emp-1', userId: 'u2', organizationId: 'org1', createdAt: t0 };
      expect(await identities.insert(link)).toBe(true);
      expect(await identities.insert({ ...link, userId: 'u3' })).toBe(false);
      expect(await identities.find('p0', 'emp-1')).toEqual(link);
      expect(await identities.find('p1', 'emp-1')).toBeNull();
      expect(await saml.delete('org1', 'p0')).toBe(true);
      expect(await identities.find('p0', 'emp-1')).toBeNull();
    });
  });
});
