import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/** The official `getDocumentById` (`GET /spaces/{spaceId}/documents/{documentId}`): a body by the id pages give. */
describe('a document by its id', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let org: string;
  let api: GitBookAPI;

  const post = (path: string, who: TestUser, body: object) => t.http.post(`/v1${path}`).set(who.auth).send(body);
  /** Writes changes into a new change request of the space and merges it. */
  const merge = async (space: string, changes: object[]) => {
    const cr = (await post(`/spaces/${space}/change-requests`, admin, { subject: 'Edit' }).expect(201)).body.id;
    const res = await post(`/spaces/${space}/change-requests/${cr}/content`, admin, { changes }).query({ compat: 'false' }).expect(200);
    await post(`/spaces/${space}/change-requests/${cr}/merge`, admin, {}).expect(200);
    return res.body as { changes: { page: { id: string } }[] };
  };
  const pageOf = async (space: string, pageId: string) =>
    (await t.http.get(`/v1/spaces/${space}/content/page/${pageId}`).set(admin.auth).expect(200)).body as {
      documentId: string;
      document: unknown;
    };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    org = await t.organization(admin);
    await t.member(org, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: reader.token });
  });
  afterAll(async () => t.close());

  it('gives the body a page names by documentId, as the official client reads it, and keeps giving it after the page changes', async () => {
    const space = (await post(`/orgs/${org}/spaces`, admin, { title: 'Docs' }).expect(201)).body.id as string;
    const written = await merge(space, [{ operation: 'insert_page', ref: 'p', document: { markdown: '# Guide\n\nThe **first** words.' } }]);
    const pageId = written.changes[0].page.id;
    const before = await pageOf(space, pageId);
    expect(before.documentId).toEqual(expect.any(String));

    const res = await api.spaces.getDocumentById(space, before.documentId);
    expect(res.status).toBe(200);
    expect(officialValidator().check('JSONDocument', res.data)).toBe('');
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('GET', '/v1/spaces/{spaceId}/documents/{documentId}', 200, res.data)).toEqual([]);
    expect(res.data).toEqual(before.document);
    for (const schema of ['current', 'next'])
      expect(
        (await t.http.get(`/v1/spaces/${space}/documents/${before.documentId}?schema=${schema}`).set(reader.auth).expect(200)).body,
      ).toEqual(before.document);

    // A new body for the page: the old one stays readable (the space's history references it).
    await merge(space, [{ operation: 'update_page', page: pageId, document: { markdown: '# Guide\n\nOther words.' } }]);
    const after = await pageOf(space, pageId);
    expect(after.documentId).not.toBe(before.documentId);
    expect((await t.http.get(`/v1/spaces/${space}/documents/${after.documentId}`).set(reader.auth).expect(200)).body).toEqual(
      after.document,
    );
    expect((await t.http.get(`/v1/spaces/${space}/documents/${before.documentId}`).set(reader.auth).expect(200)).body).toEqual(
      before.document,
    );
  });

  it('gives nothing through another space, to another organization, for an unknown id; a bad schema is 400', async () => {
    const space = (await post(`/orgs/${org}/spaces`, admin, { title: 'Docs' }).expect(201)).body.id as string;
    const written = await merge(space, [{ operation: 'insert_page', ref: 'p', document: { markdown: 'Secret plans.' } }]);
    const { documentId } = await pageOf(space, written.changes[0].page.id);
    // The same organization's other space does not reference it: 404 there, though the body is stored.
    const other = (await post(`/orgs/${org}/spaces`, admin, { title: 'Other' }).expect(201)).body.id as string;
    expectError(await t.http.get(`/v1/spaces/${other}/documents/${documentId}`).set(reader.auth), 404, /Document/);
    // Another organization's member, through its own space or this one.
    const foreign = (
      await post(`/orgs/${(await t.http.get('/v1/orgs').set(outsider.auth).expect(200)).body.items[0].id}/spaces`, outsider, {
        title: 'Mine',
      }).expect(201)
    ).body.id as string;
    expectError(await t.http.get(`/v1/spaces/${foreign}/documents/${documentId}`).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space}/documents/${documentId}`).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space}/documents/nope`).set(reader.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space}/documents/${documentId}?schema=old`).set(reader.auth), 400);
    expectError(await t.http.get(`/v1/spaces/${space}/documents/${documentId}`), 401);
  });
});
