import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

/** A member of organization B (even its admin) never sees or changes anything of organization A. */
describe('tenant isolation', () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;
  let orgA: string;
  let orgB: string;
  let collectionA: string;
  let spaceA: string;
  let spaceB: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.user('alice');
    b = await t.user('bob');
    orgA = await t.organization(a, 'Org A');
    orgB = await t.organization(b, 'Org B');
    collectionA = (await t.http.post(`/v1/orgs/${orgA}/collections`).set(a.auth).send({ title: 'A collection' }).expect(201)).body.id;
    spaceA = (await t.http.post(`/v1/orgs/${orgA}/spaces`).set(a.auth).send({ title: 'A space', parent: collectionA }).expect(201)).body.id;
    spaceB = (await t.http.post(`/v1/orgs/${orgB}/spaces`).set(b.auth).send({ title: 'B space' }).expect(201)).body.id;
  });
  afterAll(async () => t.close());

  const reads = () => [
    ['GET', `/v1/orgs/${orgA}`],
    ['GET', `/v1/orgs/${orgA}/spaces`],
    ['GET', `/v1/orgs/${orgA}/collections`],
    ['GET', `/v1/collections/${collectionA}`],
    ['GET', `/v1/collections/${collectionA}/spaces`],
    ['GET', `/v1/spaces/${spaceA}`],
  ];
  const writes = (): [string, string, object][] => [
    ['PATCH', `/v1/orgs/${orgA}`, { title: 'Hijacked' }],
    ['POST', `/v1/orgs/${orgA}/spaces`, { title: 'Planted' }],
    ['POST', `/v1/orgs/${orgA}/collections`, { title: 'Planted' }],
    ['PATCH', `/v1/collections/${collectionA}`, { title: 'Hijacked' }],
    ['POST', `/v1/collections/${collectionA}/move`, { parent: null }],
    ['POST', `/v1/collections/${collectionA}/transfer`, { organization: orgB }],
    ['PATCH', `/v1/spaces/${spaceA}`, { title: 'Hijacked' }],
    ['POST', `/v1/spaces/${spaceA}/duplicate`, {}],
    ['POST', `/v1/spaces/${spaceA}/restore`, {}],
    ['POST', `/v1/spaces/${spaceA}/move`, { parent: null }],
    ['POST', `/v1/spaces/${spaceA}/transfer`, { organization: orgB }],
  ];

  it('every read of an organization-A resource answers 404 to a member of B', async () => {
    for (const [, path] of reads()) expectError(await t.http.get(path).set(b.auth), 404);
  });

  it('every write answers 404 and changes nothing', async () => {
    for (const [method, path, body] of writes()) {
      const res = await t.http[method.toLowerCase() as 'post' | 'patch'](path).set(b.auth).send(body);
      expectError(res, 404);
    }
    const org = await t.http.get(`/v1/orgs/${orgA}`).set(a.auth).expect(200);
    expect(org.body.title).toBe('Org A');
    const space = await t.http.get(`/v1/spaces/${spaceA}`).set(a.auth).expect(200);
    expect(space.body).toMatchObject({ title: 'A space', organization: orgA, parent: collectionA });
    const collection = await t.http.get(`/v1/collections/${collectionA}`).set(a.auth).expect(200);
    expect(collection.body).toMatchObject({ title: 'A collection', organization: orgA });
    const spaces = await t.http.get(`/v1/orgs/${orgA}/spaces`).set(a.auth).expect(200);
    expect(spaces.body.count).toBe(1);
  });

  it('DELETE of a foreign resource answers like an absent one (204) and deletes nothing', async () => {
    await t.http.delete(`/v1/spaces/${spaceA}`).set(b.auth).expect(204);
    await t.http.delete(`/v1/collections/${collectionA}`).set(b.auth).expect(204);
    const space = await t.http.get(`/v1/spaces/${spaceA}`).set(a.auth).expect(200);
    expect(space.body).not.toHaveProperty('deletedAt');
    await t.http.get(`/v1/collections/${collectionA}`).set(a.auth).expect(200);
  });

  it('B cannot pull its own space into a collection of A, nor position it against A’s items', async () => {
    expectError(await t.http.post(`/v1/spaces/${spaceB}/move`).set(b.auth).send({ parent: collectionA }), 400, /not found/);
    expectError(await t.http.post(`/v1/orgs/${orgB}/spaces`).set(b.auth).send({ parent: collectionA }), 400);
    expectError(
      await t.http
        .post(`/v1/spaces/${spaceB}/move`)
        .set(b.auth)
        .send({ position: { before: { type: 'space', space: spaceA } } }),
      400,
    );
  });

  it('lists never include the other organization', async () => {
    const orgs = await t.http.get('/v1/orgs').set(b.auth).expect(200);
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([orgB]);
    const spaces = await t.http.get(`/v1/orgs/${orgB}/spaces`).set(b.auth).expect(200);
    expect(spaces.body.items.map((s: { id: string }) => s.id)).toEqual([spaceB]);
  });
});
