import { CustomizationTheme, GitBookAPI, SiteType, SiteVisibility } from '@gitbook/api';
import { GitBookAPI as GitBookAPI0167 } from 'gitbook-api-0167';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';

/** Sites, their structure, share links, adaptive schema, customization and the published site through the official client. */
describe('contract: sites and publishing', () => {
  let t: TestApp;
  let admin: TestUser;
  let api: GitBookAPI;
  let api0167: GitBookAPI0167;
  const schemas = officialValidator();
  const schemas0167 = officialValidator('gitbook-api-0167');

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: '' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    admin = await t.user('admin');
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
    api0167 = new GitBookAPI0167({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  it('drives every site operation with the official client; every answer matches the official schemas', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Sites Org' })).data.id;
    const [a, b, c] = await Promise.all(
      ['Guide', 'API', 'Changelog'].map(async (title) => (await api.orgs.createSpace(org, { title })).data.id),
    );

    const created = await api.orgs.createSite(org, { title: 'Developer docs', visibility: SiteVisibility.ShareLink, spaces: [a] });
    expect(created.status).toBe(201);
    expect(schemas.check('Site', created.data)).toBe('');
    const siteId = created.data.id;
    const sites = await api.orgs.listSites(org, { published: false, title: 'developer', type: [SiteType.Basic], space: a });
    expect(sites.data.items.map((s) => s.id)).toEqual([siteId]);
    expect(schemas.checkList('Site', sites.data)).toBe('');
    expect(schemas.check('Site', (await api.orgs.getSiteById(org, siteId)).data)).toBe('');
    const patched = await api.orgs.updateSiteById(org, siteId, { title: 'Dev docs', basename: 'dev', adaptiveContent: { enabled: true } });
    expect(schemas.check('Site', patched.data)).toBe('');

    const section = await api.orgs.addSectionToSite(org, siteId, { spaceId: b, title: 'API reference', icon: 'code' });
    expect(section.status).toBe(201);
    expect(schemas.check('SiteSection', section.data)).toBe('');
    const section2 = (await api.orgs.addSectionToSite(org, siteId, { spaceId: c, title: 'Changelog' })).data;
    const updatedSection = await api.orgs.updateSiteSectionById(org, siteId, section2.id, {
      path: 'changes',
      condition: 'visitor.claims.beta',
    });
    expect(schemas.check('SiteSection', updatedSection.data)).toBe('');
    const sectionList = await api.orgs.listSiteSections(org, siteId);
    expect(schemas.checkList('SiteSection', sectionList.data)).toBe('');

    const added = await api.orgs.addSpaceToSite(org, siteId, { spaceId: c, sectionId: section.data.id });
    expect(added.status).toBe(201);
    expect(schemas.check('SiteSpace', added.data)).toBe('');
    expect(schemas.check('SiteSpace', (await api.orgs.updateSiteSpaceById(org, siteId, added.data.id, { path: 'log' })).data)).toBe('');
    const siteSpaces = await api.orgs.listSiteSpaces(org, siteId, { default: false });
    expect(schemas.checkList('SiteSpace', siteSpaces.data)).toBe('');
    const moved = await api.orgs.moveSiteSpace(org, siteId, added.data.id, {
      position: { before: { type: 'site-space', siteSpace: section.data.siteSpaces[0].id } },
    });
    expect(schemas.check('SiteSpace', moved.data)).toBe('');

    const group = await api.orgs.addSectionGroupToSite(org, siteId, { title: 'Reference', sections: [section.data.id] });
    expect(group.status).toBe(201);
    expect(schemas.check('SiteSectionGroup', group.data)).toBe('');
    expect(
      schemas.check('SiteSectionGroup', (await api.orgs.updateSiteSectionGroupById(org, siteId, group.data.id, { title: 'Refs' })).data),
    ).toBe('');
    expect(schemas.checkList('SiteSectionGroup', (await api.orgs.listSiteSectionGroups(org, siteId)).data)).toBe('');
    // Dropped from the newer document, still served: 0.167.0's client and schemas.
    expect((await api0167.orgs.removeSectionFromGroup(org, siteId, group.data.id, section.data.id)).status).toBe(205);
    const regrouped = await api0167.orgs.addSectionToGroup(org, siteId, group.data.id, { sectionId: section.data.id });
    expect(schemas0167.check('SiteSectionGroup', regrouped.data)).toBe('');
    const movedGroup = await api.orgs.moveSiteSectionGroup(org, siteId, group.data.id, {
      position: { after: { type: 'site-section', id: section2.id } },
    });
    expect(schemas.check('SiteSectionGroup', movedGroup.data)).toBe('');
    const movedSection = await api.orgs
      .moveSiteSection(org, siteId, section2.id, { position: { after: { type: 'site-section', siteSection: section2.id } } })
      .catch((e: { response?: Response }) => e.response);
    expect(movedSection?.status).toBe(400);
    const sorted = await api.orgs.sortSiteStructure(org, siteId, { item: { type: 'site-section', id: section2.id }, position: {} });
    expect(schemas.check('SiteStructureItem', sorted.data)).toBe('');
    const structure = await api.orgs.getSiteStructure(org, siteId);
    expect(schemas.check('SiteStructure', structure.data)).toBe('');
    expect(structure.data.structure.map((i) => i.id)).toEqual([group.data.id, section2.id]);

    const jsonSchema = {
      type: 'object' as const,
      properties: { beta: { type: 'boolean' as const, description: 'Beta tester' } },
      additionalProperties: false as const,
    };
    const schema = await api.orgs.updateSiteAdaptiveSchema(org, siteId, { jsonSchema });
    expect(schemas.check('SiteAdaptiveSchema', schema.data)).toBe('');
    expect(schemas.check('SiteAdaptiveSchema', (await api.orgs.getSiteAdaptiveSchema(org, siteId)).data)).toBe('');
    const conditions = (await api.orgs.listSiteAdaptiveTemplateConditions(org, siteId)).data;
    expect(conditions.items).toEqual([{ description: 'Beta tester', condition: 'visitor.claims.beta' }]);

    const customization = (await api.orgs.getSiteCustomizationById(org, siteId)).data;
    expect(schemas.check('SiteCustomizationSettings', customization)).toBe('');
    const put = await api.orgs.updateSiteCustomizationById(org, siteId, {
      ...customization,
      styling: { ...customization.styling, theme: CustomizationTheme.Bold },
    });
    expect(schemas.check('SiteCustomizationSettings', put.data)).toBe('');

    const link = await api.orgs.createSiteShareLink(org, siteId, { name: 'Partners' });
    expect(link.status).toBe(201);
    expect(schemas.check('ShareLink', link.data)).toBe('');
    expect(
      schemas.check('ShareLink', (await api.orgs.updateSiteShareLinkById(org, siteId, link.data.id, { name: 'Resellers' })).data),
    ).toBe('');
    expect(schemas.checkList('ShareLink', (await api.orgs.listSiteShareLinks(org, siteId)).data)).toBe('');

    const published = await api.orgs.publishSite(org, siteId);
    expect(schemas.check('Site', published.data)).toBe('');
    const key = (link.data as { key?: string }).key;
    const content = await api.orgs.getPublishedContentSite(org, siteId, { shareKey: key });
    expect(schemas.check('PublishedContentSite', content.data)).toBe('');
    // without the beta claim the conditional section is not there
    expect(content.data.structure.structure.map((i) => i.id)).toEqual([group.data.id]);
    expect(schemas.check('Site', (await api.orgs.unpublishSite(org, siteId)).data)).toBe('');

    expect((await api.orgs.deleteSiteShareLinkById(org, siteId, link.data.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteSpaceById(org, siteId, added.data.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteSectionById(org, siteId, section2.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteSectionGroupById(org, siteId, group.data.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteById(org, siteId)).status).toBe(205);
    expect((await api.orgs.deleteSiteById(org, siteId)).status).toBe(204);
  });

  it('drives the site redirect operations with the official client; every answer matches the official schemas', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Redirects Org' })).data.id;
    const space = (await api.orgs.createSpace(org, { title: 'Guide' })).data.id;
    const siteId = (await api.orgs.createSite(org, { title: 'Docs', spaces: [space] })).data.id;
    const siteSpaceId = (await api.orgs.listSiteSpaces(org, siteId)).data.items[0].id;
    const created = await api.orgs.createSiteRedirect(org, siteId, {
      source: '/old/*',
      captureWildcard: true,
      destination: { kind: 'site-space', siteSpaceId },
    });
    expect(created.status).toBe(201);
    expect(schemas.check('SiteRedirect', created.data)).toBe('');
    expect(schemas.checkList('SiteRedirect', (await api.orgs.listSiteRedirects(org, siteId, { orderBy: 'source' as never })).data)).toBe(
      '',
    );
    const found = (await api.orgs.getSiteRedirectBySource(org, siteId, { source: '/old/page' })).data;
    expect(schemas.check('SiteRedirect', found.redirect)).toBe('');
    expect(found.target).toMatch(new RegExp(`/sites/${siteId}/page$`));
    const updated = await api.orgs.updateSiteRedirectById(org, siteId, created.data.id, { permanent: true });
    expect(schemas.check('SiteRedirect', updated.data)).toBe('');
    const bulk = await api.orgs.bulkUpsertSiteRedirects(org, siteId, {
      redirects: [{ source: '/a', destination: { kind: 'external', url: 'https://example.com/' } }],
    });
    expect(bulk.data.results).toEqual([{ status: 'created', source: '/a', draft: false, id: expect.any(String) }]);
    expect((await api.orgs.deleteSiteRedirectById(org, siteId, created.data.id)).status).toBe(205);
  });
});
