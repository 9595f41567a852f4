import { GitBookAPI } from '@gitbook/api';
import { putAdaptiveSchema } from '../support/sites';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * Site external links (official addExternalLinkToSite, updateSiteExternalLinkById, deleteSiteExternalLinkById): links
 * of a sectioned site's navigation to other sites, at the root or in a group, in the structure the API answers, sorted
 * like sections, and shown among the published site's section tabs (hidden by a condition the visitor fails).
 */
describe('site external links', () => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let api: GitBookAPI;
  const official = officialValidator();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://quire.test' });
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

  const space = async (title: string) => {
    const id = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
    await mergeChanges(t, admin, id, [{ operation: 'insert_page', title: 'Start', document: { markdown: `About ${title}.` } }]);
    return id;
  };
  const sectionedSite = async () => {
    const site = (await api.orgs.createSite(orgId, { title: 'Docs' })).data.id;
    const guide = (await api.orgs.addSectionToSite(orgId, site, { spaceId: await space('Guide'), title: 'Guide' })).data;
    const apiSection = (await api.orgs.addSectionToSite(orgId, site, { spaceId: await space('API'), title: 'API' })).data;
    return { site, guide, apiSection, base: `/v1/orgs/${orgId}/sites/${site}` };
  };

  it('adds, reads in the structure, updates, sorts and deletes links through the official client; answers match the schemas', async () => {
    const { site, guide, apiSection, base } = await sectionedSite();
    const group = (await api.orgs.addSectionGroupToSite(orgId, site, { title: 'Reference', sections: [apiSection.id] })).data;

    const added = await api.orgs.addExternalLinkToSite(orgId, site, {
      title: 'Status',
      url: 'https://status.example.com/',
      description: 'Is it up?',
      icon: 'signal',
    });
    expect(added.status).toBe(201);
    expect(official.check('SiteExternalLink', added.data)).toBe('');
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('POST', '/v1/orgs/{organizationId}/sites/{siteId}/external-links', 201, added.data)).toEqual([]);
    expect(added.headers.get('location')).toMatch(new RegExp(`${base}/external-links/${added.data.id}$`));
    expect(added.data).toMatchObject({ object: 'site-external-link', title: 'Status', url: 'https://status.example.com/', draft: false });
    expect(added.data.sectionGroup).toBeUndefined();

    const inGroup = (
      await api.orgs.addExternalLinkToSite(orgId, site, { title: 'Changelog', url: 'http://changes.example.com', parent: group.id })
    ).data;
    expect(inGroup.sectionGroup).toBe(group.id);

    const structure = (await api.orgs.getSiteStructure(orgId, site)).data;
    expect(official.check('SiteStructure', structure)).toBe('');
    expect(served.check('GET', '/v1/orgs/{organizationId}/sites/{siteId}/structure', 200, structure)).toEqual([]);
    const ids = (structure.structure as { id: string }[]).map((i) => i.id);
    expect(ids).toEqual([guide.id, group.id, added.data.id]);
    const groupDto = (structure.structure as { id: string; children: { id: string }[] }[]).find((i) => i.id === group.id)!;
    expect(groupDto.children.map((c) => c.id)).toEqual([apiSection.id, inGroup.id]);

    // Update: fields, null clears, parent moves it; Prefer: return=minimal answers 204.
    const updated = await api.orgs.updateSiteExternalLinkById(orgId, site, added.data.id, {
      title: 'Service status',
      description: null,
      condition: 'visitor.claims.unsigned.staff',
      parent: group.id,
    });
    expect(official.check('SiteExternalLink', updated.data)).toBe('');
    expect(updated.data).toMatchObject({ title: 'Service status', sectionGroup: group.id, condition: 'visitor.claims.unsigned.staff' });
    expect(updated.data.description).toBeUndefined();
    const minimal = await t.http
      .patch(`${base}/external-links/${added.data.id}`)
      .set(admin.auth)
      .set('Prefer', 'return=minimal')
      .send({ parent: null, condition: null });
    expect(minimal.status).toBe(204);
    expect(minimal.headers['preference-applied']).toBe('return=minimal');
    // Sorted like sections: before the guide.
    const sorted = await t.http
      .patch(`${base}/structure/sort`)
      .set(admin.auth)
      .send({ item: { type: 'site-external-link', id: added.data.id }, position: { before: { type: 'site-section', id: guide.id } } })
      .expect(200);
    expect(sorted.body).toMatchObject({ object: 'site-external-link', id: added.data.id });
    expect(((await api.orgs.getSiteStructure(orgId, site)).data.structure as { id: string }[]).map((i) => i.id)).toEqual([
      added.data.id,
      guide.id,
      group.id,
    ]);

    // The last section cannot go while the site has external links (they need sections): 409, nothing changed.
    await t.http.delete(`${base}/sections/${apiSection.id}`).set(admin.auth).expect(205);
    expectError(await t.http.delete(`${base}/sections/${guide.id}`).set(admin.auth), 409, /external links/);
    expect((await t.http.delete(`${base}/external-links/${inGroup.id}`).set(admin.auth)).status).toBe(205);
    expect((await t.http.delete(`${base}/external-links/${inGroup.id}`).set(admin.auth)).status).toBe(204);
    expectError(await t.http.patch(`${base}/external-links/${inGroup.id}`).set(admin.auth).send({ title: 'Gone' }), 404);
  });

  it('shows the links among the section tabs of the published site, out of the site, hidden by a condition the visitor fails', async () => {
    const { site, base } = await sectionedSite();
    await putAdaptiveSchema(t, admin, base, { unsigned: ['staff'] });
    await t.http
      .patch(base)
      .set(admin.auth)
      .send({ visibility: 'public', adaptiveContent: { enabled: true } })
      .expect(200);
    await api.orgs.addExternalLinkToSite(orgId, site, { title: 'Status page', url: 'https://status.example.com/?a=1&b=2' });
    await api.orgs.addExternalLinkToSite(orgId, site, {
      title: 'Staff wiki',
      url: 'https://wiki.example.com/',
      condition: 'visitor.claims.unsigned.staff',
    });
    await t.http.post(`${base}/publish`).set(admin.auth).expect(200);

    const page = (await t.http.get(`/sites/${site}/`).expect(200)).text;
    const tabs = /<nav class="sections"[^>]*>([\s\S]*?)<\/nav>/.exec(page)![1];
    expect(tabs).toContain('>Guide</a>');
    expect(tabs).toContain('<a href="https://status.example.com/?a=1&amp;b=2" rel="noopener noreferrer" class="external">Status page');
    expect(tabs).not.toContain('Staff wiki');
    const staff = (await t.http.get(`/sites/${site}/?visitor.staff=true`).expect(200)).text;
    expect(/<nav class="sections"[^>]*>([\s\S]*?)<\/nav>/.exec(staff)![1]).toContain('https://wiki.example.com/');
  });

  it('refuses a site without sections, bad URLs and parents, drafts, hostile input; roles and other organizations', async () => {
    const plain = (await api.orgs.createSite(orgId, { title: 'Plain', spaces: [await space('Only')] })).data.id;
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/sites/${plain}/external-links`)
        .set(admin.auth)
        .send({ title: 'Status', url: 'https://x.example.com' }),
      400,
      /sections/,
    );
    const { base } = await sectionedSite();
    const add = (body: unknown, who = admin) =>
      t.http
        .post(`${base}/external-links`)
        .set(who.auth)
        .send(body as object);
    for (const body of [
      {},
      { title: 'Status' },
      { title: 'S', url: 'https://x.example.com' },
      { title: 'x'.repeat(129), url: 'https://x.example.com' },
      { title: 'Status', url: 'javascript:alert(1)' },
      { title: 'Status', url: 'mailto:a@example.com' },
      { title: 'Status', url: '/relative' },
      { title: 'Status', url: `https://x.example.com/${'a'.repeat(2048)}` },
      { title: 'Status', url: null },
      { title: null, url: 'https://x.example.com' },
      { title: 'Status', url: 0x10 },
      { title: 'Status', url: 'https://x.example.com', parent: 'no-such-group' },
      { title: 'Status', url: 'https://x.example.com', draft: true },
      { title: 'Status', url: 'https://x.example.com', condition: 'visitor.claims.(' },
      { title: 'Status\u0000', url: 'https://x.example.com', extra: 1 },
    ])
      expectError(await add(body), 400);
    const link = (await add({ title: 'Status', url: 'https://x.example.com' }).expect(201)).body.id;
    expectError(await t.http.patch(`${base}/external-links/${link}`).set(admin.auth).send({ url: 'ftp://x.example.com' }), 400);
    expectError(await t.http.patch(`${base}/external-links/${link}`).set(admin.auth).send({ title: null }), 400);
    expectError(await add({ title: 'Status', url: 'https://x.example.com' }, editor), 403);
    expectError(await t.http.patch(`${base}/external-links/${link}`).set(editor.auth).send({ title: 'Mine' }), 403);
    expectError(await add({ title: 'Status', url: 'https://x.example.com' }, outsider), 404);
    expect((await t.http.delete(`${base}/external-links/${link}`).set(outsider.auth)).status).toBe(204);
    expect(
      (await t.http.get(`${base}/structure`).set(admin.auth).expect(200)).body.structure.some((i: { id: string }) => i.id === link),
    ).toBe(true);
  });
});
