import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

/**
 * Sharing spaces and collections with members and teams: grants widen the organization role (never
 * narrow it), reach a space through its parent collections and through teams, and go away at once.
 */
describe('content permissions: spaces and collections shared with members and teams', () => {
  let t: TestApp;
  let owner: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrgId: string;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.user('owner');
    alice = await t.user('alice');
    bob = await t.user('bob');
    carol = await t.user('carol');
    outsider = await t.user('outsider');
    orgId = await t.organization(owner);
    for (const u of [alice, bob, carol]) await t.member(orgId, u, 'read');
    otherOrgId = await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => t.close());

  /** A collection `outer` holding a collection `inner` holding a space. */
  const tree = async () => {
    const outer = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(owner.auth).send({ title: 'Outer' }).expect(201)).body.id;
    const inner = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(owner.auth).send({ title: 'Inner', parent: outer }).expect(201))
      .body.id;
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(owner.auth).send({ title: 'Docs', parent: inner }).expect(201)).body
      .id;
    return { outer: outer as string, inner: inner as string, space: space as string };
  };
  const team = async (title: string, members: TestUser[], org = orgId, who = owner) =>
    (
      await t.http
        .put(`/v1/orgs/${org}/teams`)
        .set(who.auth)
        .send({ title, members: members.map((m) => m.id) })
        .expect(201)
    ).body.id as string;
  const spacePermissions = async (space: string, who: TestUser) =>
    (await t.http.get(`/v1/spaces/${space}`).set(who.auth).expect(200)).body.permissions as Record<string, boolean>;
  const invite = (path: string, body: object, who = owner) => t.http.post(`${path}/permissions`).set(who.auth).send(body);

  it('a role granted to a member on a space widens what they may do there, and only there', async () => {
    const { space } = await tree();
    const other = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(owner.auth).send({ title: 'Other' }).expect(201)).body.id;
    expect((await spacePermissions(space, alice)).edit).toBe(false);
    await invite(`/v1/spaces/${space}`, { role: 'edit', users: [alice.id] }).expect(204);
    expect(await spacePermissions(space, alice)).toMatchObject({ view: true, edit: true, merge: true, admin: false });
    expect((await spacePermissions(other, alice)).edit).toBe(false);
    // The grant lets alice edit: a change request of hers is accepted.
    await t.http.post(`/v1/spaces/${space}/change-requests`).set(alice.auth).send({}).expect(201);
    expectError(await t.http.post(`/v1/spaces/${other}/change-requests`).set(alice.auth).send({}), 403);

    const users = (await t.http.get(`/v1/spaces/${space}/permissions/users`).set(bob.auth).expect(200)).body;
    expect(users.items).toHaveLength(1);
    expect(users.items[0]).toMatchObject({ permission: 'edit', user: { id: alice.id } });
    expect(schemas.check('UserContentPermission', users.items[0])).toBe('');

    // An admin of the space (by grant) manages its permissions; a mere editor may not.
    expectError(await invite(`/v1/spaces/${space}`, { role: 'read', users: [bob.id] }, alice), 403);
    await t.http.patch(`/v1/spaces/${space}/permissions/users/${alice.id}`).set(owner.auth).send({ role: 'admin' }).expect(204);
    await invite(`/v1/spaces/${space}`, { role: 'comment', users: [bob.email] }, alice).expect(204);
    expect((await spacePermissions(space, bob)).comment).toBe(true);

    await t.http.delete(`/v1/spaces/${space}/permissions/users/${alice.id}`).set(owner.auth).expect(205);
    await t.http.delete(`/v1/spaces/${space}/permissions/users/${alice.id}`).set(owner.auth).expect(204);
    expect((await spacePermissions(space, alice)).edit).toBe(false);
    expectError(
      await t.http.patch(`/v1/spaces/${space}/permissions/users/${alice.id}`).set(owner.auth).send({ role: 'edit' }),
      404,
      /User/,
    );
  });

  it('a team granted a role on a parent collection reaches every space below it; leaving the team takes it away at once', async () => {
    const { outer, inner, space } = await tree();
    const writers = await team('Writers', [bob]);
    await invite(`/v1/collections/${outer}`, { role: 'edit', teams: [writers] }).expect(204);
    expect((await spacePermissions(space, bob)).edit).toBe(true);
    expect((await spacePermissions(space, carol)).edit).toBe(false);
    const inInner = (await t.http.get(`/v1/collections/${inner}/spaces`).set(bob.auth).expect(200)).body.items[0];
    expect(inInner.permissions.edit).toBe(true);

    // The team reaches the space below the collection (and a space granted to it directly): its `spaces` count.
    const solo = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(owner.auth).send({ title: 'Solo' }).expect(201)).body.id;
    await invite(`/v1/spaces/${solo}`, { role: 'read', teams: [writers] }).expect(204);
    expect((await t.http.get(`/v1/orgs/${orgId}/teams/${writers}`).set(owner.auth).expect(200)).body.spaces).toBe(2);
    const ofBob = (await t.http.get(`/v1/orgs/${orgId}/members/${bob.id}/teams`).set(owner.auth).expect(200)).body.items;
    expect(ofBob.find((x: { team: { id: string } }) => x.team.id === writers).team.spaces).toBe(2);
    await t.http.delete(`/v1/spaces/${solo}`).set(owner.auth).expect(205);
    expect((await t.http.get(`/v1/orgs/${orgId}/teams/${writers}`).set(owner.auth).expect(200)).body.spaces).toBe(1);
    const teams = (await t.http.get(`/v1/collections/${outer}/permissions/teams`).set(carol.auth).expect(200)).body;
    expect(teams.items).toHaveLength(1);
    expect(teams.items[0]).toMatchObject({ permission: 'edit', team: { id: writers, spaces: 1 } });

    // The member's spaces list shows the effective role too.
    const bobs = (await t.http.get(`/v1/orgs/${orgId}/members/${bob.id}/spaces?limit=1000`).set(owner.auth).expect(200)).body.items;
    expect(bobs.find((x: { space: { id: string } }) => x.space.id === space).permission).toBe('edit');

    await t.http.put(`/v1/orgs/${orgId}/teams/${writers}/members/${carol.id}`).set(owner.auth).send({}).expect(204);
    expect((await spacePermissions(space, carol)).edit).toBe(true);
    await t.http.delete(`/v1/orgs/${orgId}/teams/${writers}/members/${bob.id}`).set(owner.auth).expect(205);
    expect((await spacePermissions(space, bob)).edit).toBe(false);

    await t.http.patch(`/v1/collections/${outer}/permissions/teams/${writers}`).set(owner.auth).send({ role: 'create' }).expect(204);
    // `create` on a collection lets carol create spaces in it (and in the collections below).
    await t.http.post(`/v1/orgs/${orgId}/spaces`).set(carol.auth).send({ title: 'Carol’s', parent: inner }).expect(201);
    expectError(await t.http.post(`/v1/orgs/${orgId}/spaces`).set(carol.auth).send({ title: 'Top' }), 403);

    // Deleting the team removes its grants.
    await t.http.delete(`/v1/orgs/${orgId}/teams/${writers}`).set(owner.auth).expect(205);
    expect((await spacePermissions(space, carol)).edit).toBe(false);
    expect((await t.http.get(`/v1/collections/${outer}/permissions/teams`).set(owner.auth).expect(200)).body.items).toEqual([]);
  });

  it("a member's spaces count the spaces granted to them, directly or through a collection; their team's grants are not theirs", async () => {
    const dave = await t.user('dave');
    await t.member(orgId, dave, 'read');
    const { outer } = await tree();
    const solo = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(owner.auth).send({ title: 'Solo' }).expect(201)).body.id;
    const teamOnly = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(owner.auth).send({ title: 'Team only' }).expect(201)).body.id;
    const counts = async () => {
      const m = (await t.http.get(`/v1/orgs/${orgId}/members/${dave.id}`).set(owner.auth).expect(200)).body;
      return { spaces: m.spaces as number, sites: m.sites as number };
    };
    expect(await counts()).toEqual({ spaces: 0, sites: 0 });
    await invite(`/v1/collections/${outer}`, { role: 'comment', users: [dave.id] }).expect(204);
    await invite(`/v1/spaces/${solo}`, { role: 'edit', users: [dave.id] }).expect(204);
    const daves = await team('Dave’s team', [dave]);
    await invite(`/v1/spaces/${teamOnly}`, { role: 'edit', teams: [daves] }).expect(204);
    expect(await counts()).toEqual({ spaces: 2, sites: 0 });
    // As a team member in the team's member list, with the same counts.
    const listed = (await t.http.get(`/v1/orgs/${orgId}/teams/${daves}/members`).set(owner.auth).expect(200)).body.items;
    expect(listed[0].organization).toMatchObject({ id: dave.id, spaces: 2, sites: 0, teams: 1 });
    expect(schemas.check('OrganizationMember', listed[0].organization)).toBe('');
    // A deleted space no longer counts.
    await t.http.delete(`/v1/spaces/${solo}`).set(owner.auth).expect(205);
    expect(await counts()).toEqual({ spaces: 1, sites: 0 });
  });

  it('the aggregate lists everyone with their effective role, filterable by role', async () => {
    const org = await t.organization(owner, 'Aggregate');
    const [x, y, z] = [await t.user('x'), await t.user('y'), await t.user('z')];
    for (const u of [x, y, z]) await t.member(org, u, 'read');
    const folder = (await t.http.post(`/v1/orgs/${org}/collections`).set(owner.auth).send({ title: 'F' }).expect(201)).body.id;
    const space = (await t.http.post(`/v1/orgs/${org}/spaces`).set(owner.auth).send({ title: 'S', parent: folder }).expect(201)).body.id;
    const crew = await team('Crew', [y], org);
    await invite(`/v1/spaces/${space}`, { role: 'edit', users: [x.id] }).expect(204);
    await invite(`/v1/collections/${folder}`, { role: 'review', teams: [crew] }).expect(204);
    const all = (await t.http.get(`/v1/spaces/${space}/permissions/aggregate?limit=2`).set(z.auth).expect(200)).body;
    expect(all.count).toBe(4);
    const rest = (await t.http.get(`/v1/spaces/${space}/permissions/aggregate?limit=2&page=${all.next.page}`).set(z.auth).expect(200)).body;
    const roles = Object.fromEntries(
      [...all.items, ...rest.items].map((i: { permission: string; user: { id: string } }) => [i.user.id, i.permission]),
    );
    expect(roles).toEqual({ [owner.id]: 'admin', [x.id]: 'edit', [y.id]: 'review', [z.id]: 'read' });
    expect(schemas.check('UserContentPermission', all.items[0])).toBe('');
    const editors = (await t.http.get(`/v1/spaces/${space}/permissions/aggregate?role=edit`).set(z.auth).expect(200)).body.items;
    expect(editors.map((i: { user: { id: string } }) => i.user.id)).toEqual([x.id]);
    const onFolder = (await t.http.get(`/v1/collections/${folder}/permissions/aggregate?role=review`).set(z.auth).expect(200)).body.items;
    expect(onFolder.map((i: { user: { id: string } }) => i.user.id)).toEqual([y.id]);
    expectError(await t.http.get(`/v1/spaces/${space}/permissions/aggregate?role=guest`).set(z.auth), 400, /role/);
    expectError(await t.http.get(`/v1/spaces/${space}/permissions/aggregate`).set(outsider.auth), 404);
  });

  it('grants never narrow: an admin granted read stays admin; the strongest of several grants wins', async () => {
    const { outer, space } = await tree();
    await invite(`/v1/spaces/${space}`, { role: 'read', users: [owner.id] }).expect(204);
    expect((await spacePermissions(space, owner)).admin).toBe(true);
    const reviewers = await team('Reviewers', [carol]);
    await invite(`/v1/spaces/${space}`, { role: 'comment', users: [carol.id] }).expect(204);
    await invite(`/v1/collections/${outer}`, { role: 'review', teams: [reviewers] }).expect(204);
    // `review` ranks above `edit` and `comment` (admin > create > review > edit > comment > read).
    expect(await spacePermissions(space, carol)).toMatchObject({ review: true, comment: true, edit: true, admin: false });
  });

  it('removing a member from the organization takes their access and their grants away', async () => {
    const { space } = await tree();
    const dave = await t.user('dave');
    await t.member(orgId, dave, 'read');
    await invite(`/v1/spaces/${space}`, { role: 'edit', users: [dave.id] }).expect(204);
    expect((await spacePermissions(space, dave)).edit).toBe(true);
    await t.http.delete(`/v1/orgs/${orgId}/members/${dave.id}`).set(owner.auth).expect(205);
    expectError(await t.http.get(`/v1/spaces/${space}`).set(dave.auth), 404);
    const users = (await t.http.get(`/v1/spaces/${space}/permissions/users`).set(owner.auth).expect(200)).body.items;
    expect(users.map((u: { user: { id: string } }) => u.user.id)).not.toContain(dave.id);
  });

  it('a space or collection transferred to another organization leaves its grants behind', async () => {
    const { outer, space } = await tree();
    const elsewhere = await t.organization(owner, 'Elsewhere too');
    await invite(`/v1/spaces/${space}`, { role: 'edit', users: [alice.id] }).expect(204);
    await invite(`/v1/collections/${outer}`, { role: 'admin', users: [bob.id] }).expect(204);
    const solo = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(owner.auth).send({ title: 'Solo' }).expect(201)).body.id;
    await invite(`/v1/spaces/${solo}`, { role: 'edit', users: [carol.id] }).expect(204);
    await t.http.post(`/v1/spaces/${solo}/transfer`).set(owner.auth).send({ organization: elsewhere }).expect(200);
    expect((await t.http.get(`/v1/spaces/${solo}/permissions/users`).set(owner.auth).expect(200)).body.items).toEqual([]);
    await t.http.post(`/v1/collections/${outer}/transfer`).set(owner.auth).send({ organization: elsewhere }).expect(200);
    expect((await t.http.get(`/v1/collections/${outer}/permissions/users`).set(owner.auth).expect(200)).body.items).toEqual([]);
    expect((await t.http.get(`/v1/spaces/${space}/permissions/users`).set(owner.auth).expect(200)).body.items).toEqual([]);
  });

  it('tenant isolation: people and teams of another organization cannot be granted anything; outsiders see nothing', async () => {
    const { space, outer } = await tree();
    const theirs = await team('Theirs', [], otherOrgId, outsider);
    expectError(await invite(`/v1/spaces/${space}`, { role: 'edit', users: [outsider.id] }), 404, /User/);
    expectError(await invite(`/v1/spaces/${space}`, { role: 'edit', users: [outsider.email] }), 404, /User/);
    expectError(await invite(`/v1/collections/${outer}`, { role: 'edit', teams: [theirs] }), 404, /Team/);
    expectError(await invite(`/v1/spaces/${space}`, { role: 'edit', users: ['nobody'] }), 404, /User/);
    // Nothing was written by a refused invitation (all or nothing).
    expectError(await invite(`/v1/spaces/${space}`, { role: 'edit', users: [alice.id, outsider.id] }), 404);
    expect((await t.http.get(`/v1/spaces/${space}/permissions/users`).set(owner.auth).expect(200)).body.items).toEqual([]);
    expectError(await t.http.get(`/v1/spaces/${space}/permissions/users`).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/collections/${outer}/permissions/teams`).set(outsider.auth), 404);
    expectError(await invite(`/v1/spaces/${space}`, { role: 'admin', users: [outsider.id] }, outsider), 404);
    await t.http.delete(`/v1/spaces/${space}/permissions/users/${alice.id}`).set(outsider.auth).expect(204);
  });

  it('hostile input answers 400, never 500', async () => {
    const { space } = await tree();
    const bad: [object, RegExp][] = [
      [{ role: 'owner', users: [alice.id] }, /role/],
      [{ role: null, users: [alice.id] }, /guests/],
      [{ users: [alice.id] }, /role/],
      [{ role: 'edit' }, /users.*teams/],
      [{ role: 'edit', users: [] }, /users/],
      [{ role: 'edit', users: 'alice' }, /users/],
      [{ role: 'edit', users: [null] }, /users/],
      [{ role: 'edit', users: [0x10] }, /users/],
      [{ role: 'edit', teams: [''] }, /teams/],
      [{ role: 'edit', users: Array.from({ length: 101 }, (_, i) => `u${i}`) }, /users/],
      [{ role: ['edit'], users: [alice.id] }, /role/],
    ];
    for (const [body, message] of bad) expectError(await invite(`/v1/spaces/${space}`, body), 400, message);
    expectError(
      await t.http.patch(`/v1/spaces/${space}/permissions/users/${alice.id}`).set(owner.auth).send({ role: 'boss' }),
      400,
      /role/,
    );
    expectError(
      await t.http.patch(`/v1/spaces/${space}/permissions/users/${alice.id}`).set(owner.auth).send({ role: null }),
      400,
      /guests/,
    );
    expectError(await t.http.get(`/v1/spaces/${space}/permissions/users?page=forged`).set(owner.auth), 400, /page/);
    expectError(await t.http.get(`/v1/spaces/${space}/permissions/teams?limit=0x10`).set(owner.auth), 400, /limit/);
  });

  /**
   * The permission matrix's "access through" axis: a `read` member reaches `edit` (or `admin`) on a space
   * through each documented way, and exactly that: editing is allowed, administering only with `admin`;
   * and no way narrows an organization admin.
   */
  describe('access through', () => {
    type Way = (space: string, parent: string, who: TestUser, role: string) => Promise<void>;
    const ways: [string, Way][] = [
      ['organization role', async (_s, _p, who, role) => t.member(orgId, who, role as 'edit')],
      [
        'default level of the space',
        async (s) => void (await t.http.patch(`/v1/spaces/${s}`).set(owner.auth).send({ defaultLevel: 'edit' }).expect(200)),
      ],
      [
        'default level of the parent collection',
        async (_s, p) => void (await t.http.patch(`/v1/collections/${p}`).set(owner.auth).send({ defaultLevel: 'edit' }).expect(200)),
      ],
      ['direct user permission', async (s, _p, who, role) => void (await invite(`/v1/spaces/${s}`, { role, users: [who.id] }).expect(204))],
      [
        'team permission',
        async (s, _p, who, role) => void (await invite(`/v1/spaces/${s}`, { role, teams: [await team(`T ${who.id}`, [who])] }).expect(204)),
      ],
      [
        'user permission on the parent collection',
        async (_s, p, who, role) => void (await invite(`/v1/collections/${p}`, { role, users: [who.id] }).expect(204)),
      ],
      [
        'team permission on the parent collection',
        async (_s, p, who, role) =>
          void (await invite(`/v1/collections/${p}`, { role, teams: [await team(`P ${who.id}`, [who])] }).expect(204)),
      ],
    ];
    const fresh = async () => {
      const parent = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(owner.auth).send({ title: 'Axis' }).expect(201)).body.id;
      const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(owner.auth).send({ title: 'Axis', parent }).expect(201)).body.id;
      const who = await t.user('axis');
      await t.member(orgId, who, 'read');
      return { space: space as string, parent: parent as string, who };
    };

    it.each(ways)('%s: edit widens a read member to edit, not to admin', async (_name, widen) => {
      const { space, parent, who } = await fresh();
      expectError(await t.http.patch(`/v1/spaces/${space}`).set(who.auth).send({ title: 'Before' }), 403);
      await widen(space, parent, who, 'edit');
      await t.http.patch(`/v1/spaces/${space}`).set(who.auth).send({ title: 'Edited' }).expect(200);
      expectError(await t.http.patch(`/v1/spaces/${space}`).set(who.auth).send({ editMode: 'locked' }), 403);
      expect(await spacePermissions(space, who)).toMatchObject({ edit: true, admin: false });
    });

    it.each(ways.filter(([name]) => !name.startsWith('default level')))('%s: admin widens to admin', async (_name, widen) => {
      const { space, parent, who } = await fresh();
      await widen(space, parent, who, 'admin');
      await t.http.patch(`/v1/spaces/${space}`).set(who.auth).send({ editMode: 'locked' }).expect(200);
      expect((await spacePermissions(space, who)).admin).toBe(true);
    });

    it('nothing narrows an organization admin', async () => {
      const { space, parent } = await fresh();
      const boss = await t.user('boss');
      await t.member(orgId, boss, 'admin');
      await t.http.patch(`/v1/spaces/${space}`).set(owner.auth).send({ defaultLevel: 'read' }).expect(200);
      await t.http.patch(`/v1/collections/${parent}`).set(owner.auth).send({ defaultLevel: 'read' }).expect(200);
      await invite(`/v1/spaces/${space}`, { role: 'read', users: [boss.id] }).expect(204);
      await invite(`/v1/collections/${parent}`, { role: 'read', teams: [await team('Readers', [boss])] }).expect(204);
      expect((await spacePermissions(space, boss)).admin).toBe(true);
      await t.http.patch(`/v1/spaces/${space}`).set(boss.auth).send({ editMode: 'locked' }).expect(200);
    });
  });
});
