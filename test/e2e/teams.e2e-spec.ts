import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('teams and team members', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let orgId: string;

  const createTeam = async (body: object, who: TestUser = admin) =>
    (await t.http.put(`/v1/orgs/${orgId}/teams`).set(who.auth).send(body).expect(201)).body;
  const memberIds = async (teamId: string) =>
    (await t.http.get(`/v1/orgs/${orgId}/teams/${teamId}/members`).set(admin.auth).expect(200)).body.items.map(
      (i: { organization: { id: string }; team: { role: string } }) => `${i.organization.id}:${i.team.role}`,
    );

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    alice = await t.user('alice');
    bob = await t.user('bob');
    carol = await t.user('carol');
    for (const u of [alice, bob, carol]) await t.member(orgId, u, 'read');
  });
  afterAll(async () => t.close());

  it('PUT /teams creates a team with members (201, official shape)', async () => {
    const team = await createTeam({ title: 'Writers', members: [alice.id, bob.email] });
    expect(team).toEqual({
      object: 'team',
      id: expect.any(String),
      title: 'Writers',
      members: 2,
      spaces: 0,
      createdAt: t.clock.now().toISOString(),
      permissions: { admin: true, view: true },
    });
    expect((await memberIds(team.id)).sort()).toEqual([`${alice.id}:member`, `${bob.id}:member`].sort());
  });

  it('creating validates the title (1..64), members (organization members only) and needs admin', async () => {
    await createTeam({ title: 'x'.repeat(64) });
    expectError(await t.http.put(`/v1/orgs/${orgId}/teams`).set(admin.auth).send({ title: '' }), 400, /title/);
    expectError(
      await t.http
        .put(`/v1/orgs/${orgId}/teams`)
        .set(admin.auth)
        .send({ title: 'x'.repeat(65) }),
      400,
      /title/,
    );
    expectError(await t.http.put(`/v1/orgs/${orgId}/teams`).set(admin.auth).send({}), 400, /title/);
    const stranger = await t.user('stranger');
    expectError(
      await t.http
        .put(`/v1/orgs/${orgId}/teams`)
        .set(admin.auth)
        .send({ title: 'T', members: [stranger.id] }),
      400,
      /not a member/,
    );
    expectError(await t.http.put(`/v1/orgs/${orgId}/teams`).set(alice.auth).send({ title: 'Mine' }), 403);
    expectError(await t.http.put(`/v1/orgs/${orgId}/teams`).set(stranger.auth).send({ title: 'Mine' }), 404);
  });

  it('lists teams, filtered by title (case-insensitive substring) and by owner (teams they can manage)', async () => {
    const u = await t.user('lister');
    const org = await t.organization(u);
    const m = await t.user('member');
    await t.member(org, m, 'read');
    const mk = async (title: string) => (await t.http.put(`/v1/orgs/${org}/teams`).set(u.auth).send({ title }).expect(201)).body;
    const docs = await mk('Docs Team');
    t.clock.advance(1000);
    await mk('Support');
    t.clock.advance(1000);
    await mk('docs-review');
    const titles = async (q: string, who = u) =>
      (await t.http.get(`/v1/orgs/${org}/teams?${q}`).set(who.auth).expect(200)).body.items.map((x: { title: string }) => x.title);
    expect(await titles('')).toEqual(['Docs Team', 'Support', 'docs-review']);
    expect(await titles('title=DOCS')).toEqual(['Docs Team', 'docs-review']);
    expect(await titles(`owner=${m.id}`)).toEqual([]);
    await t.http.put(`/v1/orgs/${org}/teams/${docs.id}/members/${m.id}`).set(u.auth).send({ role: 'owner' }).expect(204);
    expect(await titles(`owner=${m.id}`)).toEqual(['Docs Team']);
    expect(await titles(`owner=${u.id}`)).toEqual(['Docs Team', 'Support', 'docs-review']);
    const asMember = await t.http.get(`/v1/orgs/${org}/teams`).set(m.auth).expect(200);
    expect(asMember.body.items.map((x: { permissions: { admin: boolean } }) => x.permissions.admin)).toEqual([true, false, false]);
    const orgView = await t.http.get(`/v1/orgs/${org}`).set(m.auth).expect(200);
    expect(orgView.body.permissions.ownTeam).toBe(true);
    expectError(await t.http.get(`/v1/orgs/${org}/teams?owner=nobody`).set(u.auth), 400, /owner/);
    const page = await t.http.get(`/v1/orgs/${org}/teams?limit=2`).set(u.auth).expect(200);
    expect(page.body.count).toBe(3);
    expect(page.body.next.page).toEqual(expect.any(String));
  });

  it('GET, PATCH (title) and DELETE a team; owners manage it, plain members cannot', async () => {
    const team = await createTeam({ title: 'Ops', members: [alice.id] });
    await t.http.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${bob.id}`).set(admin.auth).send({ role: 'owner' }).expect(204);
    const asAlice = await t.http.get(`/v1/orgs/${orgId}/teams/${team.id}`).set(alice.auth).expect(200);
    expect(asAlice.body.permissions).toEqual({ admin: false, view: true });
    expectError(await t.http.patch(`/v1/orgs/${orgId}/teams/${team.id}`).set(alice.auth).send({ title: 'Nope' }), 403);
    const renamed = await t.http.patch(`/v1/orgs/${orgId}/teams/${team.id}`).set(bob.auth).send({ title: 'Operations' }).expect(200);
    expect(renamed.body).toMatchObject({ title: 'Operations', members: 2, permissions: { admin: true, view: true } });
    expectError(
      await t.http
        .patch(`/v1/orgs/${orgId}/teams/${team.id}`)
        .set(bob.auth)
        .send({ title: 'x'.repeat(65) }),
      400,
      /title/,
    );
    expectError(await t.http.delete(`/v1/orgs/${orgId}/teams/${team.id}`).set(alice.auth), 403);
    await t.http.delete(`/v1/orgs/${orgId}/teams/${team.id}`).set(bob.auth).expect(205);
    await t.http.delete(`/v1/orgs/${orgId}/teams/${team.id}`).set(admin.auth).expect(204);
    expectError(await t.http.get(`/v1/orgs/${orgId}/teams/${team.id}`).set(admin.auth), 404);
  });

  it('PUT /members adds, removes and sets roles atomically; a user in both add and remove ends up removed', async () => {
    const team = await createTeam({ title: 'Bulk', members: [alice.id] });
    await t.http
      .put(`/v1/orgs/${orgId}/teams/${team.id}/members`)
      .set(admin.auth)
      .send({ add: [bob.id, carol.email], remove: [carol.id, alice.email], memberships: { [bob.id]: { role: 'owner' } } })
      .expect(204);
    expect(await memberIds(team.id)).toEqual([`${bob.id}:owner`]);
    await t.http
      .put(`/v1/orgs/${orgId}/teams/${team.id}/members`)
      .set(admin.auth)
      .send({ memberships: { [bob.id]: { role: 'member' }, [carol.id]: { role: 'owner' } } })
      .expect(204);
    expect((await memberIds(team.id)).sort()).toEqual([`${bob.id}:member`, `${carol.id}:owner`].sort());
    const outsider = await t.user('outsider');
    expectError(
      await t.http
        .put(`/v1/orgs/${orgId}/teams/${team.id}/members`)
        .set(admin.auth)
        .send({ add: [outsider.id, alice.id] }),
      400,
      /not a member/,
    );
    expect((await memberIds(team.id)).length).toBe(2); // nothing of the refused batch was applied
    expectError(
      await t.http
        .put(`/v1/orgs/${orgId}/teams/${team.id}/members`)
        .set(admin.auth)
        .send({ memberships: { [bob.id]: { role: 'boss' } } }),
      400,
      /memberships/,
    );
    expectError(
      await t.http
        .put(`/v1/orgs/${orgId}/teams/${team.id}/members`)
        .set(alice.auth)
        .send({ add: [alice.id] }),
      403,
    );
    const counts = await t.http.get(`/v1/orgs/${orgId}/teams/${team.id}`).set(admin.auth).expect(200);
    expect(counts.body.members).toBe(2);
    // Emails match whatever their case; an unknown email cannot be added, and removing one is a no-op.
    expectError(
      await t.http
        .put(`/v1/orgs/${orgId}/teams/${team.id}/members`)
        .set(admin.auth)
        .send({ add: ['nobody@example.com'] }),
      400,
      /add: "nobody@example.com" is not a member/,
    );
    await t.http
      .put(`/v1/orgs/${orgId}/teams/${team.id}/members`)
      .set(admin.auth)
      .send({ add: [alice.email.toUpperCase()], remove: ['nobody@example.com'] })
      .expect(204);
    expect((await memberIds(team.id)).sort()).toEqual([`${alice.id}:member`, `${bob.id}:member`, `${carol.id}:owner`].sort());
  });

  it('PUT /members/{userId} adds or updates; DELETE removes (205, then 204); member team counts follow', async () => {
    const team = await createTeam({ title: 'Single' });
    await t.http.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${carol.id}`).set(admin.auth).send({}).expect(204);
    expect(await memberIds(team.id)).toEqual([`${carol.id}:member`]);
    await t.http.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${carol.id}`).set(admin.auth).send({ role: 'owner' }).expect(204);
    expect(await memberIds(team.id)).toEqual([`${carol.id}:owner`]);
    await t.http.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${carol.id}`).set(admin.auth).send({}).expect(204);
    expect(await memberIds(team.id)).toEqual([`${carol.id}:owner`]); // no role: keeps the current one
    const stranger = await t.user('not-in-org');
    expectError(
      await t.http.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${stranger.id}`).set(admin.auth).send({}),
      400,
      /not a member/,
    );
    expectError(
      await t.http.put(`/v1/orgs/${orgId}/teams/${team.id}/members/${carol.id}`).set(admin.auth).send({ role: 'lead' }),
      400,
      /role/,
    );
    const member = await t.http.get(`/v1/orgs/${orgId}/members/${carol.id}`).set(admin.auth).expect(200);
    const allTeams = await t.http.get(`/v1/orgs/${orgId}/members/${carol.id}/teams?limit=1000`).set(admin.auth).expect(200);
    expect(allTeams.body.items.map((i: { team: { id: string } }) => i.team.id)).toContain(team.id);
    expect(member.body.teams).toBe(allTeams.body.count);
    const teamsOf = await t.http.get(`/v1/orgs/${orgId}/members/${carol.id}/teams?title=single`).set(admin.auth).expect(200);
    expect(teamsOf.body.items).toEqual([{ team: expect.objectContaining({ id: team.id, title: 'Single' }), member: { role: 'owner' } }]);
    await t.http.delete(`/v1/orgs/${orgId}/teams/${team.id}/members/${carol.id}`).set(admin.auth).expect(205);
    await t.http.delete(`/v1/orgs/${orgId}/teams/${team.id}/members/${carol.id}`).set(admin.auth).expect(204);
    expect(await memberIds(team.id)).toEqual([]);
  });

  it('removing someone from the organization removes them from its teams', async () => {
    const leaver = await t.user('leaver');
    await t.member(orgId, leaver, 'read');
    const team = await createTeam({ title: 'Temp', members: [leaver.id] });
    await t.http.delete(`/v1/orgs/${orgId}/members/${leaver.id}`).set(admin.auth).expect(205);
    expect(await memberIds(team.id)).toEqual([]);
  });

  it('teams of another organization are invisible (404) and unchangeable', async () => {
    const other = await t.user('other');
    const otherOrg = await t.organization(other);
    const team = await createTeam({ title: 'Private' });
    expectError(await t.http.get(`/v1/orgs/${otherOrg}/teams/${team.id}`).set(other.auth), 404);
    expectError(await t.http.get(`/v1/orgs/${orgId}/teams/${team.id}`).set(other.auth), 404);
    expectError(await t.http.patch(`/v1/orgs/${orgId}/teams/${team.id}`).set(other.auth).send({ title: 'x' }), 404);
    await t.http.delete(`/v1/orgs/${orgId}/teams/${team.id}`).set(other.auth).expect(204);
    await t.http.get(`/v1/orgs/${orgId}/teams/${team.id}`).set(admin.auth).expect(200);
  });
});
