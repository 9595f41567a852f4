import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

/** Sites shared with members and teams: a grant widens the organization role on that site only. */
describe('site permissions', () => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let teammate: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrgId: string;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.user('owner');
    reader = await t.user('reader');
    teammate = await t.user('teammate');
    outsider = await t.user('outsider');
    orgId = await t.organization(owner);
    await t.member(orgId, reader, 'read');
    await t.member(orgId, teammate, 'read');
    otherOrgId = await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => t.close());

  const site = async (org = orgId, who = owner) => {
    const space = (await t.http.post(`/v1/orgs/${org}/spaces`).set(who.auth).send({ title: 'Docs' }).expect(201)).body.id as string;
    const id = (
      await t.http
        .post(`/v1/orgs/${org}/sites`)
        .set(who.auth)
        .send({ title: 'Site', spaces: [space] })
        .expect(201)
    ).body.id as string;
    return { id, space, base: `/v1/orgs/${org}/sites/${id}` };
  };
  const team = async (members: TestUser[]) =>
    (
      await t.http
        .put(`/v1/orgs/${orgId}/teams`)
        .set(owner.auth)
        .send({ title: 'Site team', members: members.map((m) => m.id) })
        .expect(201)
    ).body.id as string;

  it('a member granted admin on one site administers that site only', async () => {
    const a = await site();
    const b = await site();
    expectError(await t.http.patch(a.base).set(reader.auth).send({ title: 'Mine' }), 403);
    await t.http
      .post(`${a.base}/permissions`)
      .set(owner.auth)
      .send({ role: 'admin', users: [reader.email] })
      .expect(204);
    const mine = (await t.http.get(a.base).set(reader.auth).expect(200)).body;
    expect(mine.permissions.admin).toBe(true);
    await t.http.patch(a.base).set(reader.auth).send({ title: 'Mine' }).expect(200);
    await t.http.post(`${a.base}/publish`).set(reader.auth).expect(200);
    const link = (await t.http.post(`${a.base}/share-links`).set(reader.auth).send({ name: 'L' }).expect(201)).body;
    expect(link.key).toEqual(expect.any(String));
    expectError(await t.http.patch(b.base).set(reader.auth).send({ title: 'Not mine' }), 403);
    const listed = (await t.http.get(`/v1/orgs/${orgId}/sites?limit=100`).set(reader.auth).expect(200)).body.items;
    expect(listed.find((s: { id: string }) => s.id === a.id).permissions.admin).toBe(true);
    expect(listed.find((s: { id: string }) => s.id === b.id).permissions.admin).toBe(false);

    const users = (await t.http.get(`${a.base}/permissions/users`).set(teammate.auth).expect(200)).body.items;
    expect(users).toHaveLength(1);
    expect(schemas.check('UserSitePermissionOverride', users[0])).toBe('');
    // The grantee, now an admin of the site, manages its grants; removing the grant takes it back.
    await t.http.patch(`${a.base}/permissions/users/${reader.id}`).set(owner.auth).send({ role: 'edit' }).expect(204);
    expectError(await t.http.patch(a.base).set(reader.auth).send({ title: 'Again' }), 403);
    await t.http.delete(`${a.base}/permissions/users/${reader.id}`).set(owner.auth).expect(205);
    await t.http.delete(`${a.base}/permissions/users/${reader.id}`).set(owner.auth).expect(204);
  });

  it('a team granted a role on the site reaches its members; the aggregate says where each role comes from', async () => {
    const s = await site();
    const crew = await team([teammate]);
    expectError(await t.http.post(`${s.base}/sections`).set(teammate.auth).send({ spaceId: s.space, title: 'Team section' }), 403);
    await t.http
      .post(`${s.base}/permissions`)
      .set(owner.auth)
      .send({ role: 'create', teams: [crew] })
      .expect(204);
    await t.http.post(`${s.base}/sections`).set(teammate.auth).send({ spaceId: s.space, title: 'Team section' }).expect(201);
    const teams = (await t.http.get(`${s.base}/permissions/teams`).set(reader.auth).expect(200)).body.items;
    expect(teams).toHaveLength(1);
    expect(schemas.check('TeamSitePermissionOverride', teams[0])).toBe('');

    const all = (await t.http.get(`${s.base}/permissions/aggregate`).set(reader.auth).expect(200)).body;
    expect(all.count).toBe(3);
    for (const item of all.items) expect(schemas.check('UserSitePermission', item)).toBe('');
    const byUser = Object.fromEntries(all.items.map((i: { user: { id: string } }) => [i.user.id, i]));
    expect(byUser[teammate.id]).toMatchObject({ permission: 'create', origin: { type: 'site', site: s.id, reason: 'team', team: crew } });
    expect(byUser[owner.id]).toMatchObject({ permission: 'admin', origin: { type: 'organization', organization: orgId } });
    expect(byUser[reader.id]).toMatchObject({ permission: 'read', disabled: false });
    const filtered = async (query: string) =>
      (await t.http.get(`${s.base}/permissions/aggregate?${query}`).set(reader.auth).expect(200)).body.items.map(
        (i: { user: { id: string } }) => i.user.id,
      );
    expect(await filtered('role=create')).toEqual([teammate.id]);
    expect(await filtered(`team=${crew}`)).toEqual([teammate.id]);
    expect(await filtered('search=TEAMMATE')).toEqual([teammate.id]);
    expect(await filtered('role=guest')).toEqual([]);
    const asc = await filtered('order=asc');
    expect(await filtered('order=desc')).toEqual([...asc].reverse());
    const first = (await t.http.get(`${s.base}/permissions/aggregate?order=desc&limit=2`).set(reader.auth).expect(200)).body;
    const second = (
      await t.http.get(`${s.base}/permissions/aggregate?order=desc&limit=2&page=${first.next.page}`).set(reader.auth).expect(200)
    ).body;
    expect([...first.items, ...second.items].map((i: { user: { id: string } }) => i.user.id)).toEqual([...asc].reverse());

    await t.http.patch(`${s.base}/permissions/teams/${crew}`).set(owner.auth).send({ role: 'read' }).expect(204);
    expectError(await t.http.post(`${s.base}/sections`).set(teammate.auth).send({ spaceId: s.space, title: 'Another section' }), 403);
    await t.http.delete(`${s.base}/permissions/teams/${crew}`).set(owner.auth).expect(205);
    expect((await t.http.get(`${s.base}/permissions/teams`).set(owner.auth).expect(200)).body.items).toEqual([]);
  });

  it('a deleted site takes its grants with it', async () => {
    const s = await site();
    await t.http
      .post(`${s.base}/permissions`)
      .set(owner.auth)
      .send({ role: 'admin', users: [reader.id] })
      .expect(204);
    await t.http.delete(s.base).set(owner.auth).expect(205);
    expectError(await t.http.get(`${s.base}/permissions/users`).set(owner.auth), 404);
    const again = await site();
    expect((await t.http.get(again.base).set(reader.auth).expect(200)).body.permissions.admin).toBe(false);
  });

  it('tenant isolation and hostile input', async () => {
    const s = await site();
    const theirs = await site(otherOrgId, outsider);
    expectError(
      await t.http
        .post(`${s.base}/permissions`)
        .set(owner.auth)
        .send({ role: 'edit', users: [outsider.id] }),
      404,
      /User/,
    );
    expectError(await t.http.get(`${s.base}/permissions/users`).set(outsider.auth), 404);
    // Another organization's site through ours: 404.
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites/${theirs.id}/permissions/users`).set(owner.auth), 404);
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/sites/${theirs.id}/permissions`)
        .set(owner.auth)
        .send({ role: 'admin', users: [owner.id] }),
      404,
    );
    await t.http.delete(`${theirs.base}/permissions/users/${outsider.id}`).set(owner.auth).expect(204);
    await t.http.delete(`/v1/orgs/${orgId}/sites/${theirs.id}/permissions/users/${owner.id}`).set(owner.auth).expect(204);
    for (const body of [
      { role: 'boss', users: [reader.id] },
      { role: null, users: [reader.id] },
      { role: 'edit' },
      { role: 'edit', users: [null] },
    ])
      expectError(await t.http.post(`${s.base}/permissions`).set(owner.auth).send(body), 400);
    expectError(await t.http.get(`${s.base}/permissions/aggregate?sort=name`).set(owner.auth), 400);
    expectError(await t.http.get(`${s.base}/permissions/aggregate?role=owner`).set(owner.auth), 400, /role/);
    expectError(await t.http.get(`${s.base}/permissions/aggregate?order=sideways`).set(owner.auth), 400, /order/);
  });
});
