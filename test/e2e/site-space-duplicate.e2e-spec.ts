import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * Official duplicateSiteSpace (`POST …/sites/{siteId}/site-spaces/{siteSpaceId}/duplicate`): the space copied
 * with its content, the copy placed beside the site space (a new section after a section holding only it, else
 * a variant right after it), through the official client; what it refuses, and that a refusal copies nothing.
 */
describe('duplicateSiteSpace', () => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let api: GitBookAPI;
  const official = officialValidator();

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

  const space = async (title: string, text: string) => {
    const id = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
    const cr = (await t.http.post(`/v1/spaces/${id}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${id}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'Start', document: { markdown: text } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${id}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    return id;
  };
  const structure = async (siteId: string) =>
    (await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/structure`).set(admin.auth).expect(200)).body;
  const spaceCount = async () => (await t.http.get(`/v1/orgs/${orgId}/spaces?limit=1000`).set(admin.auth).expect(200)).body.items.length;

  it('copies a site space at the root into a variant right after it, with the space’s content', async () => {
    const [a, b] = [await space('Version 1', 'First words.'), await space('Version 2', 'Second words.')];
    const site = (await api.orgs.createSite(orgId, { title: 'Docs', spaces: [a, b] })).data.id;
    const [first, second] = (await api.orgs.listSiteSpaces(orgId, site)).data.items;

    const res = await api.orgs.duplicateSiteSpace(orgId, site, first.id, {});
    expect(res.status).toBe(201);
    expect(official.check('SiteSpace', res.data)).toBe('');
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('POST', '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/duplicate', 201, res.data)).toEqual([]);
    expect(res.headers.get('location')).toMatch(new RegExp(`/v1/orgs/${orgId}/sites/${site}/site-spaces/${res.data.id}$`));
    const copy = res.data;
    expect(copy.space.id).not.toBe(a);
    expect(copy.space.title).not.toBe('Version 1');
    expect(copy.default).toBe(false);
    expect(copy.path).not.toBe(first.path);
    // Right after the original, before the other variant.
    expect((await api.orgs.listSiteSpaces(orgId, site)).data.items.map((s) => s.id)).toEqual([first.id, copy.id, second.id]);
    // The copy holds the space's content.
    const pages = (await t.http.get(`/v1/spaces/${copy.space.id}/content`).set(admin.auth).expect(200)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Start']);
    const md = await t.http.get(`/v1/spaces/${copy.space.id}/content/path/start?format=markdown`).set(admin.auth).expect(200);
    expect(JSON.stringify(md.body)).toContain('First words.');
  });

  it('gives a site space alone in its section a new section right after it, in the same group; a variant among others stays in its section', async () => {
    const [a, b] = [await space('Guide', 'Guide.'), await space('API', 'API.')];
    const site = (await api.orgs.createSite(orgId, { title: 'Sectioned', spaces: [a] })).data.id;
    const guide = (await api.orgs.addSectionToSite(orgId, site, { spaceId: a, title: 'Guide' })).data;
    const apiSection = (await api.orgs.addSectionToSite(orgId, site, { spaceId: b, title: 'API', icon: 'code' })).data;
    const group = (await api.orgs.addSectionGroupToSite(orgId, site, { title: 'Reference', sections: [apiSection.id] })).data;
    const guideSiteSpace = guide.siteSpaces[0].id;
    // The first section adopted the root site space (a) too: the guide section holds two site spaces.
    const adopted = (await api.orgs.listSiteSpaces(orgId, site)).data.items.filter((s) => s.section === guide.id);
    expect(adopted.length).toBe(2);

    const alone = (await api.orgs.duplicateSiteSpace(orgId, site, apiSection.siteSpaces[0].id, {})).data;
    expect(alone.section).not.toBe(apiSection.id);
    const sections = (await api.orgs.listSiteSections(orgId, site)).data.items;
    const made = sections.find((s) => s.id === alone.section)!;
    expect(made).toMatchObject({ icon: 'code', default: false, sectionGroup: group.id });
    expect(made.siteSpaces.map((s) => s.id)).toEqual([alone.id]);
    const tree = await structure(site);
    const groupItem = tree.structure.find((i: { id: string }) => i.id === group.id);
    expect(groupItem.sections.map((s: { id: string }) => s.id)).toEqual([apiSection.id, made.id]);

    const variant = (await api.orgs.duplicateSiteSpace(orgId, site, guideSiteSpace, {})).data;
    expect(variant.section).toBe(guide.id);
    const inGuide = (await api.orgs.listSiteSpaces(orgId, site)).data.items.filter((s) => s.section === guide.id).map((s) => s.id);
    expect(inGuide.indexOf(variant.id)).toBe(inGuide.indexOf(guideSiteSpace) + 1);
  });

  it('refuses draft copies, bad bodies, unknown ids, other organizations and roles without the structure right, copying nothing', async () => {
    const a = await space('Refused', 'Nothing.');
    const site = (await api.orgs.createSite(orgId, { title: 'Refusals', spaces: [a] })).data.id;
    const siteSpace = (await api.orgs.listSiteSpaces(orgId, site)).data.items[0].id;
    const url = `/v1/orgs/${orgId}/sites/${site}/site-spaces/${siteSpace}/duplicate`;
    const before = await spaceCount();

    expectError(await t.http.post(url).set(admin.auth).send({ draft: true }), 400, /draft/);
    expectError(await t.http.post(url).set(admin.auth).send({ draft: 'false' }), 400, /draft/);
    expectError(await t.http.post(url).set(admin.auth).send({ draft: null }), 400);
    expectError(await t.http.post(url).set(admin.auth).send({ other: 1 }), 400);
    expectError(await t.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces/nope/duplicate`).set(admin.auth).send({}), 404);
    expectError(await t.http.post(`/v1/orgs/${orgId}/sites/nope/site-spaces/${siteSpace}/duplicate`).set(admin.auth).send({}), 404);
    expectError(await t.http.post(url).set(editor.auth).send({}), 403);
    expectError(await t.http.post(url).set(outsider.auth).send({}), 404);
    const elsewhere = await t.organization(outsider, 'Other');
    expectError(
      await t.http.post(`/v1/orgs/${elsewhere}/sites/${site}/site-spaces/${siteSpace}/duplicate`).set(outsider.auth).send({}),
      404,
    );
    expect(await spaceCount()).toBe(before);
    expect((await api.orgs.listSiteSpaces(orgId, site)).data.items.length).toBe(1);

    // draft false is the default, said out loud.
    expect((await t.http.post(url).set(admin.auth).send({ draft: false })).status).toBe(201);
    expect(await spaceCount()).toBe(before + 1);
  });
});
