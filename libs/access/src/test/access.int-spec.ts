import { Db } from '@app/persistence';
import { Actor, FixedClock, ForbiddenError, NotFoundError, Role } from '@app/shared-kernel';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../../test/support/database';
import { Access } from '../application/access';
import { LocalAccessChanges } from '../application/access-changes';
import { SqlContentPermissionRepository } from '../infrastructure/content-permissions.repository';
import { SqlMemberships } from '../infrastructure/sql-memberships';

/**
 * Access's adapters against a real PostgreSQL (a clone of the migrated template): memberships read from
 * the organizations context's tables, grants written and read, team space counts followed down the
 * collection tree, and the Access service over them (effective roles, cache eviction on a change).
 */
describe('access adapters (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;
  let sql: Db;
  let memberships: SqlMemberships;
  let grants: SqlContentPermissionRepository;
  const t0 = new Date('2026-03-01T10:00:00.000Z');

  const exec = (text: string, params: unknown[] = []) => sql.query(text, params);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource({ type: 'postgres', url: db.url, entities: [] });
    await ds.initialize();
    sql = new Db(ds);
    memberships = new SqlMemberships(sql);
    grants = new SqlContentPermissionRepository(sql);
    for (const u of ['ann', 'bob', 'cy', 'off', 'gus'])
      await exec('INSERT INTO users (id, email, display_name, created_at) VALUES ($1, $2, $1, $3)', [u, `${u}@example.com`, t0]);
    for (const o of ['o1', 'o2'])
      await exec(
        `INSERT INTO organizations (id, title, created_at, type, plan, merge_rules) VALUES ($1, $1, $2, 'business', 'free', '{"type":"none"}')`,
        [o, t0],
      );
    const member = (o: string, u: string, role: Role | null, disabled = false) =>
      exec('INSERT INTO organization_members (organization_id, user_id, role, joined_at, disabled) VALUES ($1, $2, $3, $4, $5)', [
        o,
        u,
        role,
        t0,
        disabled,
      ]);
    await member('o1', 'ann', 'admin');
    await member('o1', 'bob', 'read');
    await member('o1', 'off', 'edit', true);
    await member('o2', 'cy', 'read');
    await member('o1', 'gus', null); // a guest
    await exec('INSERT INTO teams (id, organization_id, title, created_at) VALUES ($1, $2, $1, $3)', ['writers', 'o1', t0]);
    await exec('INSERT INTO teams (id, organization_id, title, created_at) VALUES ($1, $2, $1, $3)', ['other', 'o2', t0]);
    await exec(
      "INSERT INTO team_members (team_id, organization_id, user_id, role, added_at) VALUES ('writers', 'o1', 'bob', 'member', $1)",
      [t0],
    );
    // A collection c1 holding c2, which holds space s2; s1 at the top; s3 in c1 but deleted.
    const collection = (id: string, parent: string | null) =>
      exec(
        "INSERT INTO collections (id, organization_id, title, position, created_at, updated_at, parent_id) VALUES ($1, 'o1', $1, 'a0', $2, $2, $3)",
        [id, t0, parent],
      );
    await collection('c1', null);
    await collection('c2', 'c1');
    const space = (id: string, parent: string | null, deleted: Date | null = null) =>
      exec(
        `INSERT INTO spaces (id, organization_id, title, visibility, edit_mode, merge_rules, position, revision_id, created_at, updated_at, parent_id, deleted_at)
         VALUES ($1, 'o1', $1, 'private', 'live', '{"type":"inherit"}', 'a0', 'r0', $2, $2, $3, $4)`,
        [id, t0, parent, deleted],
      );
    await space('s1', null);
    await space('s2', 'c2');
    await space('s3', 'c1', t0);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('reads memberships: the role of an active member only, guests, teams, active roles, members of teams', async () => {
    expect(await memberships.membershipOf('o1', 'ann')).toBe('admin');
    expect(await memberships.membershipOf('o1', 'gus')).toBe('guest');
    expect(await memberships.membershipOf('o1', 'off')).toBeNull(); // disabled
    expect(await memberships.membershipOf('o1', 'cy')).toBeNull(); // another organization's member
    expect(await memberships.teamIdsOf('o1', 'bob')).toEqual(['writers']);
    expect(await memberships.teamIdsOf('o2', 'bob')).toEqual([]);
    expect((await memberships.activeRoles('o1')).sort((a, b) => a.userId.localeCompare(b.userId))).toEqual([
      { userId: 'ann', role: 'admin' },
      { userId: 'bob', role: 'read' },
      { userId: 'gus', role: 'guest' },
    ]);
    expect(await memberships.membersOfTeams('o1', ['writers', 'other'])).toEqual([{ teamId: 'writers', userId: 'bob' }]);
    expect(await memberships.membersOfTeams('o1', [])).toEqual([]);
  });

  it('grants: the strongest role per item, directly or through a team; team space counts follow collections down, live spaces only', async () => {
    await grants.grant([
      {
        organizationId: 'o1',
        content: { kind: 'collection', id: 'c1' },
        principal: { kind: 'team', id: 'writers' },
        role: 'edit',
        grantedAt: t0,
      },
      {
        organizationId: 'o1',
        content: { kind: 'space', id: 's1' },
        principal: { kind: 'team', id: 'writers' },
        role: 'comment',
        grantedAt: t0,
      },
      { organizationId: 'o1', content: { kind: 'space', id: 's1' }, principal: { kind: 'user', id: 'bob' }, role: 'admin', grantedAt: t0 },
    ]);
    expect(await grants.grantsOf('o1', 'bob', ['writers'])).toEqual(
      new Map<string, Role>([
        ['c1', 'edit'],
        ['s1', 'admin'],
      ]),
    );
    expect(await grants.grantsOf('o1', 'bob', [])).toEqual(new Map([['s1', 'admin']]));
    // c1 reaches s2 (in c2, below c1) but not the deleted s3; s1 directly: 2 live spaces.
    expect(await grants.teamSpaceCounts('o1', ['writers'], null)).toEqual(new Map([['writers', 2]]));
    expect(await grants.teamSpaceCounts('o2', ['writers'], null)).toEqual(new Map());
    expect(await grants.teamSpaceCounts('o1', [], null)).toEqual(new Map());
    // Counted among the spaces the caller may read only.
    expect(await grants.teamSpaceCounts('o1', ['writers'], { except: ['s2'] })).toEqual(new Map([['writers', 1]]));
    expect(await grants.teamSpaceCounts('o1', ['writers'], { only: ['s2'] })).toEqual(new Map([['writers', 1]]));
    expect(await grants.teamSpaceCounts('o1', ['writers'], { only: [] })).toEqual(new Map());
  });

  it('Access: effective roles widen the organization role by grants on the chain; a change evicts the cached grants', async () => {
    const changes = new LocalAccessChanges();
    const access = new Access(memberships, grants, new FixedClock(t0), { tokenTtlMs: 60_000, roleTtlMs: 60_000, maxEntries: 100 }, changes);
    const bob: Actor = { userId: 'bob', tokenId: 't1' };
    const chainOfS2 = [
      { id: 's2', level: 'inherit' as const },
      { id: 'c2', level: 'inherit' as const },
      { id: 'c1', level: 'inherit' as const },
    ];
    expect(await access.roleOn('o1', 'bob', 'read', chainOfS2)).toBe('edit');
    expect(await access.roleOf('o1', bob)).toBe('read');
    expect(await access.roleOf('o2', bob)).toBeNull();
    // An SSO-issued token reaches only its own organization.
    expect(await access.roleOf('o1', { ...bob, scope: 'o2' })).toBeNull();
    await expect(access.require('o2', bob, 'read')).rejects.toBeInstanceOf(NotFoundError);
    await expect(access.require('o1', bob, 'admin')).rejects.toBeInstanceOf(ForbiddenError);
    // Cached until a change: the grant is revoked in the table, the answer stays until grantsChanged.
    await grants.revoke('c1', { kind: 'team', id: 'writers' });
    expect(await access.roleOn('o1', 'bob', 'read', chainOfS2)).toBe('edit');
    await access.grantsChanged('o1');
    expect(await access.roleOn('o1', 'bob', 'read', chainOfS2)).toBe('read');
    // A role change is evicted the same way.
    await exec("UPDATE organization_members SET role = 'edit' WHERE organization_id = 'o1' AND user_id = 'bob'");
    expect(await access.roleOf('o1', bob)).toBe('read');
    await access.forget('o1', 'bob');
    expect(await access.roleOf('o1', bob)).toBe('edit');
  });

  it('Access: a guest has no organization role (404 on organization-wide operations) but reaches what is granted', async () => {
    const access = new Access(
      memberships,
      grants,
      new FixedClock(t0),
      { tokenTtlMs: 60_000, roleTtlMs: 60_000, maxEntries: 100 },
      new LocalAccessChanges(),
    );
    const gus: Actor = { userId: 'gus', tokenId: 't2' };
    expect(await access.membershipOf('o1', gus)).toBe('guest');
    expect(await access.roleOf('o1', gus)).toBeNull();
    await expect(access.require('o1', gus, 'read')).rejects.toBeInstanceOf(NotFoundError);
    await expect(access.contentMember('o1', gus, 'Space', 's1')).resolves.toBe('guest');
    await expect(access.contentMember('o2', gus, 'Space', 's1')).rejects.toBeInstanceOf(NotFoundError);
    await expect(access.roleOnItem('o1', gus, 's2', 'Site')).rejects.toBeInstanceOf(NotFoundError);
    expect(await access.itemNarrowing('o1', gus)).toEqual({ only: [] });
    await grants.grant([
      { organizationId: 'o1', content: { kind: 'space', id: 's2' }, principal: { kind: 'user', id: 'gus' }, role: 'read', grantedAt: t0 },
    ]);
    await access.grantsChanged('o1');
    expect(await access.roleOnItem('o1', gus, 's2', 'Site')).toBe('read');
    expect(await access.itemNarrowing('o1', gus)).toEqual({ only: ['s2'] });
    expect(await access.itemNarrowing('o1', { userId: 'bob', tokenId: 't1' })).toBeNull(); // members see every site
  });
});
