import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('templates', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
  });
  afterAll(async () => t.close());

  const tree = async (spaceId: string) =>
    (await t.http.get(`/v1/spaces/${spaceId}/content/pages`).set(admin.auth).expect(200)).body.pages.map(
      (p: { title: string; pages: { title: string }[] }) => (p.pages.length ? [p.title, p.pages.map((c) => c.title)] : p.title),
    );

  it('createSpace with a template fills the space; with empty: true it has no page', async () => {
    const space = (
      await t.http
        .post(`/v1/orgs/${orgId}/spaces`)
        .set(admin.auth)
        .send({ title: 'API', template: { id: 'api-reference' }, editMode: 'locked' })
        .expect(201)
    ).body;
    expect(await tree(space.id)).toEqual(['Overview', 'Authentication', ['Endpoints', ['Users']], 'Errors']);
    expect(space.editMode).toBe('locked');
    const overview = (await t.http.get(`/v1/spaces/${space.id}/content/pages`).set(admin.auth).expect(200)).body.pages[0].id;
    const md = (await t.http.get(`/v1/spaces/${space.id}/content/page/${overview}?format=markdown`).set(admin.auth).expect(200)).body
      .markdown;
    expect(md).toBe('The API speaks JSON over HTTPS. See [authentication](./authentication.md).\n');
    const empty = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ empty: true }).expect(201)).body;
    expect(await tree(empty.id)).toEqual([]);
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/spaces`)
        .set(admin.auth)
        .send({ template: { id: 'nope' } }),
      400,
      /unknown template/,
    );
    expectError(await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ template: 'x' }), 400, /template/);
  });

  it('POST /content/template appends a template (204), fills content refs, needs edit, refuses locked spaces', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Product' }).expect(201)).body;
    await t.http
      .post(`/v1/spaces/${space.id}/content/template`)
      .set(admin.auth)
      .send({ id: 'product-docs', params: { contentRefs: { logo: { kind: 'file', file: 'logo123' } } } })
      .expect(204);
    expect(await tree(space.id)).toEqual(['Introduction', ['Guides', ['First steps']], 'Changelog']);
    const intro = (await t.http.get(`/v1/spaces/${space.id}/content/pages`).set(admin.auth).expect(200)).body.pages[0].id;
    const md = (await t.http.get(`/v1/spaces/${space.id}/content/page/${intro}?format=markdown`).set(admin.auth).expect(200)).body.markdown;
    expect(md).toContain('![logo](/files/logo123)');
    await t.http.post(`/v1/spaces/${space.id}/content/template`).set(admin.auth).send({ id: 'getting-started' }).expect(204);
    expect((await tree(space.id)).length).toBe(6);
    expectError(await t.http.post(`/v1/spaces/${space.id}/content/template`).set(reader.auth).send({ id: 'getting-started' }), 403);
    expectError(
      await t.http.post(`/v1/spaces/${space.id}/content/template`).set(admin.auth).send({ id: 'missing' }),
      400,
      /unknown template/,
    );
    expectError(
      await t.http
        .post(`/v1/spaces/${space.id}/content/template`)
        .set(admin.auth)
        .send({ id: 'getting-started', params: { contentRefs: { logo: 'x' } } }),
      400,
      /contentRefs/,
    );
    await t.http.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ editMode: 'locked' }).expect(200);
    expectError(
      await t.http.post(`/v1/spaces/${space.id}/content/template`).set(admin.auth).send({ id: 'getting-started' }),
      412,
      /locked/,
    );
    const found = await t.http.get(`/v1/spaces/${space.id}/search?query=changelog`).set(admin.auth).expect(200);
    expect(found.body.count).toBe(1);
  });
});
