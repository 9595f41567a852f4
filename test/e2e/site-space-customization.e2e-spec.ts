import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

/**
 * Site-space customization overrides (official get/override/deleteSiteSpaceCustomizationById): the site's
 * customization with a site space's override over it, patched value by value (null resets), checked
 * against the official schema; and what a visitor of that site space sees (its colour, its theme, its
 * variant title).
 */
describe('site-space customization overrides', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  const official = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => t.close());

  const space = async (title: string) => {
    const id = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
    const cr = (await t.http.post(`/v1/spaces/${id}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${id}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'Start', document: { markdown: `About ${title}.` } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${id}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    return id;
  };

  it('reads the site’s customization with the override over it, patches it value by value, resets with null, removes it', async () => {
    const [v1, v2] = [await space('Version 1'), await space('Version 2')];
    const site = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Docs', visibility: 'public' }).expect(201))
      .body.id;
    const base = `/v1/orgs/${orgId}/sites/${site}`;
    const first = (await t.http.post(`${base}/site-spaces`).set(admin.auth).send({ spaceId: v1 }).expect(201)).body.id;
    const second = (await t.http.post(`${base}/site-spaces`).set(admin.auth).send({ spaceId: v2 }).expect(201)).body.id;
    const url = `${base}/site-spaces/${second}/customization`;

    const siteWide = (await t.http.get(`${base}/customization`).set(reader.auth).expect(200)).body;
    const plain = (await t.http.get(url).set(reader.auth).expect(200)).body;
    expect(official.check('SiteSpaceCustomizationSettings', plain)).toBe('');
    expect(plain).toEqual({ ...siteWide, hasOverrides: false });

    const patched = (
      await t.http
        .patch(url)
        .set(admin.auth)
        .send({
          title: 'Next release',
          styling: { primaryColor: { light: '#aa0000', dark: '#ff8888' } },
          themes: { default: 'dark', toggeable: null },
        })
        .expect(200)
    ).body;
    expect(official.check('SiteSpaceCustomizationSettings', patched)).toBe('');
    expect(patched).toMatchObject({
      title: 'Next release',
      hasOverrides: true,
      styling: { ...siteWide.styling, primaryColor: { light: '#aa0000', dark: '#ff8888' } },
      themes: { ...siteWide.themes, default: 'dark' },
    });
    // Another site space is untouched.
    expect((await t.http.get(`${base}/site-spaces/${first}/customization`).set(reader.auth).expect(200)).body.hasOverrides).toBe(false);
    // null resets one value to the site's, the rest stays.
    const reset = (
      await t.http
        .patch(url)
        .set(admin.auth)
        .send({ styling: { primaryColor: null } })
        .expect(200)
    ).body;
    expect(reset.styling.primaryColor).toEqual(siteWide.styling.primaryColor);
    expect(reset.title).toBe('Next release');
    expect(reset.themes.default).toBe('dark');

    // Bad input: 400; roles; other organizations; unknown site spaces.
    for (const bad of [
      { styling: { primaryColor: 'red' } },
      { themes: { default: 'purple' } },
      { nope: 1 },
      [],
      'x',
      { title: 'x'.repeat(200) },
    ])
      expectError(
        await t.http
          .patch(url)
          .set(admin.auth)
          .send(bad as object),
        400,
      );
    expectError(await t.http.patch(url).set(reader.auth).send({ title: 'Mine' }), 403);
    expectError(await t.http.get(url).set(outsider.auth), 404);
    expectError(await t.http.patch(url).set(outsider.auth).send({ title: 'Mine' }), 404);
    expectError(await t.http.get(`${base}/site-spaces/nope/customization`).set(admin.auth), 404);
    expectError(await t.http.patch(`${base}/site-spaces/nope/customization`).set(admin.auth).send({ title: 'Xyz' }), 404);
    await t.http.delete(url).set(outsider.auth).expect(204);
    expectError(await t.http.delete(url).set(reader.auth), 403);

    // What a visitor of that site space sees: its variant title, its theme; the other keeps the site's.
    await t.http
      .patch(url)
      .set(admin.auth)
      .send({ styling: { primaryColor: { light: '#aa0000', dark: '#ff8888' } } })
      .expect(200);
    await t.http.post(`${base}/publish`).set(admin.auth).expect(200);
    const path = (await t.http.get(`${base}/site-spaces`).set(admin.auth).expect(200)).body.items.find(
      (s: { id: string }) => s.id === second,
    ).path;
    const page = (await t.http.get(`/sites/${site}/${path}/start`).expect(200)).text;
    expect(page).toContain('<html lang="en" class="theme-dark">');
    expect(page).toContain('>Next release</a>');
    const css = page.match(/<link rel="stylesheet" href="([^"]+)"/)![1];
    expect(css).toContain(`~site.css?s=${second}`);
    expect((await t.http.get(new URL(css).pathname + new URL(css).search).expect(200)).text).toMatch(
      /^:root\{--primary:#aa0000;--on-primary:#fff\}/,
    );
    const other = (await t.http.get(`/sites/${site}/start`).expect(200)).text;
    expect(other).not.toContain('class="theme-dark"');
    expect(other).toMatch(/<link rel="stylesheet" href="[^"?]+~site.css"/);

    await t.http.delete(url).set(admin.auth).expect(205);
    await t.http.delete(url).set(admin.auth).expect(204);
    expect((await t.http.get(url).set(reader.auth).expect(200)).body).toEqual({ ...siteWide, hasOverrides: false });
    expect((await t.http.get(`/sites/${site}/${path}/start`).expect(200)).text).not.toContain('Next release');
  });
});
