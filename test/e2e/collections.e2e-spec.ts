import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('collections', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let creator: TestUser;
  let orgId: string;

  const create = async (body: object = {}, who: TestUser = admin, org = orgId) =>
    (await t.http.post(`/v1/orgs/${org}/collections`).set(who.auth).send(body).expect(201)).body;
  const createSpace = async (body: object = {}, who: TestUser = admin, org = orgId) =>
    (await t.http.post(`/v1/orgs/${org}/spaces`).set(who.auth).send(body).expect(201)).body;
  const childrenOf = async (collectionId: string) =>
    (await t.http.get(`/v1/collections/${collectionId}/spaces`).set(admin.auth).expect(200)).body.items.map(
      (s: { title: string }) => s.title,
    );

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    creator = await t.user('creator');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
    await t.member(orgId, creator, 'create');
  });
  afterAll(async () => t.close());

  it('POST creates (201, Location) with the official shape', async () => {
    const res = await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ title: 'Guides' }).expect(201);
    expect(res.headers.location).toBe(res.body.urls.location);
    expect(res.body).toEqual({
      object: 'collection',
      id: expect.any(String),
      title: 'Guides',
      organization: orgId,
      defaultLevel: 'inherit',
      urls: { location: `http://quire.test/v1/collections/${res.body.id}`, app: `http://quire.test/app/c/${res.body.id}` },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    const untitled = await create();
    expect(untitled.title).toBe('Untitled');
  });

  it('POST validates: title ≤ 50, parent in the organization, role create', async () => {
    await create({ title: 'x'.repeat(50) });
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/collections`)
        .set(admin.auth)
        .send({ title: 'x'.repeat(51) }),
      400,
      /title/,
    );
    expectError(await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ parent: 'nope' }), 400, /parent/);
    expectError(await t.http.post(`/v1/orgs/${orgId}/collections`).set(reader.auth).send({ title: 'R' }), 403);
    const byCreator = await create({ title: 'By creator' }, creator);
    expect(byCreator.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    const stranger = await t.user('stranger');
    expectError(await t.http.post(`/v1/orgs/${orgId}/collections`).set(stranger.auth).send({ title: 'S' }), 404);
  });

  it('GET /collections/{id}: 200 for members with permissions by role, 404 otherwise', async () => {
    const c = await create({ title: 'Readable' });
    const asReader = await t.http.get(`/v1/collections/${c.id}`).set(reader.auth).expect(200);
    expect(asReader.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expectError(await t.http.get('/v1/collections/nope').set(admin.auth), 404, /Collection/);
  });

  it('defaultLevel of a collection widens access to what is inside', async () => {
    const c = await create({ title: 'Open to edits' });
    await t.http.patch(`/v1/collections/${c.id}`).set(admin.auth).send({ defaultLevel: 'create' }).expect(200);
    const child = await create({ title: 'Nested', parent: c.id });
    const asReader = await t.http.get(`/v1/collections/${child.id}`).set(reader.auth).expect(200);
    expect(asReader.body.permissions.create).toBe(true);
    await t.http.post(`/v1/orgs/${orgId}/collections`).set(reader.auth).send({ parent: c.id }).expect(201);
  });

  it('PATCH updates title, description and defaultLevel with limits; admin only', async () => {
    const c = await create({ title: 'Before' });
    const res = await t.http
      .patch(`/v1/collections/${c.id}`)
      .set(admin.auth)
      .send({ title: 'After', description: 'd'.repeat(100), defaultLevel: 'read' })
      .expect(200);
    expect(res.body).toMatchObject({ title: 'After', description: 'd'.repeat(100), defaultLevel: 'read' });
    // null restricts it: a member below admin no longer sees it (docs/permissions.md); inherit opens it again.
    await t.http.patch(`/v1/collections/${c.id}`).set(admin.auth).send({ defaultLevel: null }).expect(200);
    expectError(await t.http.get(`/v1/collections/${c.id}`).set(creator.auth), 404);
    await t.http.patch(`/v1/collections/${c.id}`).set(admin.auth).send({ defaultLevel: 'inherit' }).expect(200);
    expectError(
      await t.http
        .patch(`/v1/collections/${c.id}`)
        .set(admin.auth)
        .send({ description: 'd'.repeat(101) }),
      400,
      /description/,
    );
    expectError(
      await t.http
        .patch(`/v1/collections/${c.id}`)
        .set(admin.auth)
        .send({ title: 't'.repeat(51) }),
      400,
      /title/,
    );
    expectError(await t.http.patch(`/v1/collections/${c.id}`).set(admin.auth).send({ defaultLevel: 'owner' }), 400, /defaultLevel/);
    expectError(await t.http.patch(`/v1/collections/${c.id}`).set(creator.auth).send({ title: 'X' }), 403);
    expectError(await t.http.patch('/v1/collections/nope').set(admin.auth).send({ title: 'X' }), 404);
  });

  it('lists with nested=true (default) and nested=false, paged', async () => {
    const u = await t.user('lister');
    const org = await t.organization(u);
    const top = await create({ title: 'Top' }, u, org);
    t.clock.advance(1000);
    await create({ title: 'Inner', parent: top.id }, u, org);
    t.clock.advance(1000);
    await create({ title: 'Top 2' }, u, org);
    const all = await t.http.get(`/v1/orgs/${org}/collections`).set(u.auth).expect(200);
    expect(all.body.items.map((c: { title: string }) => c.title)).toEqual(['Top', 'Inner', 'Top 2']);
    expect(all.body.count).toBe(3);
    const tops = await t.http.get(`/v1/orgs/${org}/collections?nested=false`).set(u.auth).expect(200);
    expect(tops.body.items.map((c: { title: string }) => c.title)).toEqual(['Top', 'Top 2']);
    expect(tops.body.count).toBe(2);
    const page1 = await t.http.get(`/v1/orgs/${org}/collections?limit=2`).set(u.auth).expect(200);
    const page2 = await t.http.get(`/v1/orgs/${org}/collections?limit=2&page=${page1.body.next.page}`).set(u.auth).expect(200);
    expect(page2.body.items.map((c: { title: string }) => c.title)).toEqual(['Top 2']);
    expect(page2.body.next).toBeUndefined();
    expectError(await t.http.get(`/v1/orgs/${org}/collections?nested=maybe`).set(u.auth), 400, /nested/);
    expectError(await t.http.get(`/v1/orgs/${org}/collections`).set(admin.auth), 404);
  });

  it('GET /collections/{id}/spaces lists the spaces in order', async () => {
    const c = await create({ title: 'With spaces' });
    await createSpace({ title: 'One', parent: c.id });
    await createSpace({ title: 'Two', parent: c.id });
    await createSpace({ title: 'Elsewhere' });
    expect(await childrenOf(c.id)).toEqual(['One', 'Two']);
    const page = await t.http.get(`/v1/collections/${c.id}/spaces?limit=1`).set(admin.auth).expect(200);
    expect(page.body.count).toBe(2);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.next.page).toEqual(expect.any(String));
  });

  describe('move', () => {
    it('reorders among siblings with before/after, and refuses no-op moves (409)', async () => {
      const parent = await create({ title: 'Parent' });
      const a = await create({ title: 'A', parent: parent.id });
      const s = await createSpace({ title: 'S', parent: parent.id });
      const b = await create({ title: 'B', parent: parent.id });
      const res = await t.http
        .post(`/v1/collections/${b.id}/move`)
        .set(admin.auth)
        .send({ position: { before: { type: 'collection', collection: a.id } } })
        .expect(200);
      expect(res.body.parent).toBe(parent.id);
      expectError(
        await t.http
          .post(`/v1/collections/${b.id}/move`)
          .set(admin.auth)
          .send({ position: { before: { type: 'collection', collection: a.id } } }),
        409,
        /not change/,
      );
      await t.http
        .post(`/v1/collections/${b.id}/move`)
        .set(admin.auth)
        .send({ position: { after: { type: 'space', space: s.id } } })
        .expect(200);
      expectError(await t.http.post(`/v1/collections/${b.id}/move`).set(admin.auth).send({ parent: parent.id }), 409);
    });

    it('moves under another parent or to the top level', async () => {
      const p1 = await create({ title: 'P1' });
      const p2 = await create({ title: 'P2' });
      const c = await create({ title: 'C', parent: p1.id });
      const moved = await t.http.post(`/v1/collections/${c.id}/move`).set(admin.auth).send({ parent: p2.id }).expect(200);
      expect(moved.body.parent).toBe(p2.id);
      const top = await t.http.post(`/v1/collections/${c.id}/move`).set(admin.auth).send({ parent: null }).expect(200);
      expect(top.body).not.toHaveProperty('parent');
    });

    it('400 for invalid positions, unknown parents and cycles; 400 for an empty body', async () => {
      const root = await create({ title: 'Root' });
      const child = await create({ title: 'Child', parent: root.id });
      const elsewhere = await create({ title: 'Elsewhere' });
      expectError(
        await t.http.post(`/v1/collections/${root.id}/move`).set(admin.auth).send({ parent: child.id }),
        400,
        /itself or its descendants/,
      );
      expectError(await t.http.post(`/v1/collections/${root.id}/move`).set(admin.auth).send({ parent: root.id }), 400);
      expectError(await t.http.post(`/v1/collections/${root.id}/move`).set(admin.auth).send({ parent: 'nope' }), 400, /not found/);
      expectError(
        await t.http
          .post(`/v1/collections/${child.id}/move`)
          .set(admin.auth)
          .send({ position: { before: { type: 'collection', collection: elsewhere.id } } }),
        400,
        /not in the target parent/,
      );
      expectError(
        await t.http
          .post(`/v1/collections/${child.id}/move`)
          .set(admin.auth)
          .send({ position: { before: { type: 'page', page: 'x' } } }),
        400,
        /position/,
      );
      expectError(await t.http.post(`/v1/collections/${child.id}/move`).set(admin.auth).send({}), 400, /parent.*position/);
      expectError(await t.http.post(`/v1/collections/${child.id}/move`).set(creator.auth).send({ parent: null }), 403);
      expectError(await t.http.post('/v1/collections/nope/move').set(admin.auth).send({ parent: null }), 404);
    });
  });

  describe('transfer', () => {
    it('moves the collection with its nested collections and spaces to an organization the caller administers', async () => {
      const target = await t.organization(admin, 'Target');
      const c = await create({ title: 'Movable' });
      const inner = await create({ title: 'Inner', parent: c.id });
      const space = await createSpace({ title: 'Inside', parent: inner.id });
      const res = await t.http.post(`/v1/collections/${c.id}/transfer`).set(admin.auth).send({ organization: target }).expect(200);
      expect(res.body).toMatchObject({ organization: target });
      expect(res.body).not.toHaveProperty('parent');
      expect((await t.http.get(`/v1/collections/${inner.id}`).set(admin.auth).expect(200)).body.organization).toBe(target);
      expect((await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.organization).toBe(target);
      const orgSpaces = await t.http.get(`/v1/orgs/${orgId}/spaces?limit=1000`).set(admin.auth).expect(200);
      expect(orgSpaces.body.items.map((s: { id: string }) => s.id)).not.toContain(space.id);
    });

    it('409 to the same organization; 404 to one the caller is not in; 403 without admin there', async () => {
      const c = await create({ title: 'Stay' });
      expectError(await t.http.post(`/v1/collections/${c.id}/transfer`).set(admin.auth).send({ organization: orgId }), 409);
      const stranger = await t.user('foreign-admin');
      const foreign = await t.organization(stranger, 'Foreign');
      expectError(await t.http.post(`/v1/collections/${c.id}/transfer`).set(admin.auth).send({ organization: foreign }), 404);
      await t.member(foreign, admin, 'edit');
      expectError(await t.http.post(`/v1/collections/${c.id}/transfer`).set(admin.auth).send({ organization: foreign }), 403);
      expectError(await t.http.post(`/v1/collections/${c.id}/transfer`).set(admin.auth).send({}), 400, /organization/);
      expectError(await t.http.post(`/v1/collections/${c.id}/transfer`).set(creator.auth).send({ organization: foreign }), 403);
    });
  });

  describe('delete', () => {
    it('205 when it existed, then 204; nested collections go, spaces inside become restorable deleted spaces', async () => {
      const c = await create({ title: 'Doomed' });
      const inner = await create({ title: 'Inner', parent: c.id });
      const space = await createSpace({ title: 'Inside', parent: inner.id });
      expectError(await t.http.delete(`/v1/collections/${c.id}`).set(creator.auth), 403);
      const res = await t.http.delete(`/v1/collections/${c.id}`).set(admin.auth).expect(205);
      expect(res.text).toBe('');
      await t.http.delete(`/v1/collections/${c.id}`).set(admin.auth).expect(204);
      expectError(await t.http.get(`/v1/collections/${inner.id}`).set(admin.auth), 404);
      const deleted = await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
      expect(deleted.body.deletedAt).toBe(t.clock.now().toISOString());
      const restored = await t.http.post(`/v1/spaces/${space.id}/restore`).set(admin.auth).expect(200);
      expect(restored.body).not.toHaveProperty('parent');
      expect(restored.body).not.toHaveProperty('deletedAt');
    });

    it('204 for an unknown collection', async () => {
      await t.http.delete('/v1/collections/never-existed').set(admin.auth).expect(204);
    });
  });
});
