import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * Official getContentByUrl (`GET /urls/content?url=`): the web app URLs Quire hands out (`urls.app`) read back as
 * the collection, space, change request and page they show, for a caller who may read them; anything else 404.
 */
describe('getContentByUrl', () => {
  let t: TestApp;
  let admin: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let api: GitBookAPI;
  const official = officialValidator();
  const APP = 'https://quire.test/app';

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://quire.test' });
    admin = await t.user('admin');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.organization(outsider, 'Elsewhere');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  const byUrl = (url: string, who = admin) => t.http.get('/v1/urls/content').query({ url }).set(who.auth);

  it('resolves the app URLs of a collection, a space, a page, a change request and its page; every answer matches the schemas', async () => {
    const collection = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ title: 'Guides' }).expect(201)).body;
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body;
    await mergeChanges(t, admin, space.id, [
      { operation: 'insert_page', title: 'Getting started', document: { markdown: 'Welcome.' } },
      { operation: 'insert_page', title: 'Setup', document: { markdown: 'Install it.' } },
    ]);
    const pages = (await t.http.get(`/v1/spaces/${space.id}/content`).set(admin.auth).expect(200)).body.pages;
    const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(admin.auth).send({ subject: 'More' }).expect(201)).body;
    await t.http
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'Draft page', document: { markdown: 'Not merged.' } }] })
      .expect(200);
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);

    // The URLs the API hands out are the ones it reads back.
    expect(collection.urls.app).toBe(`${APP}/c/${collection.id}`);
    const c = await api.urls.getContentByUrl({ url: collection.urls.app });
    expect(c.status).toBe(200);
    expect(served.check('GET', '/v1/urls/content', 200, c.data)).toEqual([]);
    expect(c.data).toEqual({ collection: expect.objectContaining({ id: collection.id, title: 'Guides' }) });
    expect(official.check('Collection', (c.data as { collection: unknown }).collection)).toBe('');

    const s = (await byUrl(space.urls.app).expect(200)).body;
    expect(Object.keys(s)).toEqual(['space']);
    expect(s.space.id).toBe(space.id);
    expect(official.check('Space', s.space)).toBe('');

    const p = (await byUrl(`${APP}/s/${space.id}/setup#install`).expect(200)).body;
    expect(served.check('GET', '/v1/urls/content', 200, p)).toEqual([]);
    expect(p.space.id).toBe(space.id);
    expect(p.page).toMatchObject({ id: pages[1].id, title: 'Setup', path: 'setup' });

    const inCr = (await byUrl(`${cr.urls.app}/draft-page`).expect(200)).body;
    expect(served.check('GET', '/v1/urls/content', 200, inCr)).toEqual([]);
    expect(official.check('ChangeRequest', inCr.changeRequest)).toBe('');
    expect(inCr.changeRequest.id).toBe(cr.id);
    expect(inCr.page).toMatchObject({ title: 'Draft page', path: 'draft-page' });
    // The change request's own URL: no page.
    expect(Object.keys((await byUrl(cr.urls.app).expect(200)).body).sort()).toEqual(['changeRequest', 'space']);
    // Another screen of the space (its history, its Git Sync) names the space.
    expect((await byUrl(`${APP}/s/${space.id}/~/revisions`).expect(200)).body.page).toBeUndefined();
    // The page is not in main: 404.
    expectError(await byUrl(`${APP}/s/${space.id}/draft-page`), 404);
  });

  it('gives nothing to whom may not read it, nor for URLs that are not this app’s; refuses what is not a URL', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Private' }).expect(201)).body;
    expectError(await byUrl(space.urls.app, outsider), 404);
    for (const url of [
      `https://elsewhere.test/app/s/${space.id}`,
      `https://quire.test/other/s/${space.id}`,
      `https://quire.test/app/x/${space.id}`,
      `${APP}/s/unknown-space`,
      `${APP}/c/unknown-collection`,
      `${APP}/s/${space.id}/~/changes/999`,
      `${APP}/s/${space.id}/%E0%A4%A`,
      `${APP}`,
    ])
      expectError(await byUrl(url), 404);
    expectError(await byUrl('not a url'), 400);
    expectError(await t.http.get('/v1/urls/content').set(admin.auth), 400);
    expectError(await byUrl('x'.repeat(2049)), 400);
    expectError(await t.http.get('/v1/urls/content').query({ url: space.urls.app }), 401);
  });
});
