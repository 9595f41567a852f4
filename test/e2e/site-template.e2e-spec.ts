import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

/**
 * Official applyTemplateToSite (`POST …/sites/{siteId}/template`): an empty site gets a space made from Quire's
 * `product-docs` template as its site space, and reads as a site at once; a site with a space, a role without the
 * structure right, another organization and a second call at the same time change nothing.
 */
describe('applyTemplateToSite', () => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let api: GitBookAPI;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    editor = await t.user('editor');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, editor, 'edit');
    await t.organization(outsider, 'Elsewhere');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  const spaces = async () =>
    (await t.http.get(`/v1/orgs/${orgId}/spaces?limit=1000`).set(admin.auth).expect(200)).body.items.length as number;

  it('fills an empty site with a space of the template, which the published site shows', async () => {
    const site = (await api.orgs.createSite(orgId, { title: 'Acme docs', visibility: 'public' as never })).data.id;
    const res = await api.orgs.applyTemplateToSite(orgId, site);
    expect(res.status).toBe(200);
    const siteSpaces = (await api.orgs.listSiteSpaces(orgId, site)).data.items;
    expect(siteSpaces).toHaveLength(1);
    expect(siteSpaces[0]).toMatchObject({ default: true, space: { title: 'Acme docs' } });
    const pages = (await t.http.get(`/v1/spaces/${siteSpaces[0].space.id}/content`).set(admin.auth).expect(200)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Introduction', 'Guides', 'Changelog']);
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(admin.auth).expect(200);
    expect((await t.http.get(`/sites/${site}/`).expect(200)).text).toContain('What the product does, and for whom.');
    // Not empty any more: 400, and no space is made.
    const before = await spaces();
    expectError(await t.http.post(`/v1/orgs/${orgId}/sites/${site}/template`).set(admin.auth), 400, /empty site/);
    expect(await spaces()).toBe(before);
  });

  it('refuses roles without the structure right (403) and other organizations (404); two calls at once make one space', async () => {
    // A site title longer than a space's may be (50): the space's is cut to fit.
    const long = (await api.orgs.createSite(orgId, { title: `A site whose title is long ${'x'.repeat(60)}` })).data.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${long}/template`).set(admin.auth).expect(200);
    expect((await api.orgs.listSiteSpaces(orgId, long)).data.items[0].space.title).toHaveLength(50);
    const site = (await api.orgs.createSite(orgId, { title: 'Twice' })).data.id;
    const url = `/v1/orgs/${orgId}/sites/${site}/template`;
    const before = await spaces();
    expectError(await t.http.post(url).set(editor.auth), 403);
    expectError(await t.http.post(url).set(outsider.auth), 404);
    expectError(await t.http.post(`/v1/orgs/${orgId}/sites/nope/template`).set(admin.auth), 404);
    expect(await spaces()).toBe(before);
    const both = await Promise.all([t.http.post(url).set(admin.auth), t.http.post(url).set(admin.auth)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await api.orgs.listSiteSpaces(orgId, site)).data.items).toHaveLength(1);
    expect(await spaces()).toBe(before + 1);
  });
});
