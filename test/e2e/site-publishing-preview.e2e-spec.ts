import { GitBookAPI } from '@gitbook/api';
import { putAdaptiveSchema } from '../support/sites';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges } from '../support/content';
import { expectError } from '../support/expect';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * Official getSitePublishingPreviewById (`GET …/sites/{siteId}/publishing/preview`): a link for an hour that shows
 * the site as it is now (unpublished here), on a site space's path, on the page a URL of the site names, and as
 * a visitor with unsigned claims; followed as a browser would, through the redirect and its cookie.
 */
describe('getSitePublishingPreviewById', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let api: GitBookAPI;
  let siteId: string;
  let v2: { id: string; path: string };
  const base = () => `/v1/orgs/${orgId}/sites/${siteId}`;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://quire.test' });
    admin = await t.user('admin');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });

    const space = async (title: string, pages: object[]) => {
      const id = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
      await mergeChanges(t, admin, id, pages);
      return id;
    };
    const v1Space = await space('Version 1', [{ operation: 'insert_page', title: 'Start', document: { markdown: 'Version one.' } }]);
    const v2Space = await space('Version 2', [
      { operation: 'insert_page', title: 'Start', document: { markdown: 'Version two.' } },
      { operation: 'insert_page', title: 'Beta notes', condition: 'visitor.claims.unsigned.beta', document: { markdown: 'Beta only.' } },
    ]);
    siteId = (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Docs', spaces: [v1Space, v2Space] })
        .expect(201)
    ).body.id;
    await t.http
      .patch(base())
      .set(admin.auth)
      .send({ hostname: 'docs.example.com', basename: 'help', adaptiveContent: { enabled: true } })
      .expect(200);
    await putAdaptiveSchema(t, admin, base(), { signed: ['isPaid'], unsigned: ['beta'] });
    const siteSpaces = (await t.http.get(`${base()}/site-spaces`).set(admin.auth).expect(200)).body.items;
    v2 = siteSpaces[1];
  });
  afterAll(async () => t.close());

  /** Opens a preview link as a browser: the redirect sets the cookie, then the page. */
  const open = async (url: string) => {
    const u = new URL(url);
    const start = await t.http.get(`${u.pathname}${u.search}`).expect(302);
    const cookie = (start.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const to = new URL(start.headers.location, 'http://quire.test');
    const location = `${to.pathname}${to.search}`;
    return { location, page: await t.http.get(location).set('Cookie', cookie) };
  };

  it('gives a link for an hour that opens the unpublished site on its default site space', async () => {
    const res = await api.orgs.getSitePublishingPreviewById(orgId, siteId);
    expect(res.status).toBe(200);
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('GET', '/v1/orgs/{organizationId}/sites/{siteId}/publishing/preview', 200, res.data)).toEqual([]);
    expect(res.data.url).toMatch(new RegExp(`^http://quire.test/sites/${siteId}/~preview/\\d+\\.[\\w-]{43}/$`));
    const expires = Number(/~preview\/(\d+)\./.exec(res.data.url)![1]) * 1000;
    expect(expires - t.clock.now().getTime()).toBeGreaterThan(55 * 60_000);
    expect(expires - t.clock.now().getTime()).toBeLessThanOrEqual(65 * 60_000);
    const { location, page } = await open(res.data.url);
    expect(location).toBe(`/sites/${siteId}/help/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Version one.');
    // The site is not published: without the preview, nothing.
    await t.http.get(`/sites/${siteId}/help/`).expect(404);
  });

  it('opens on a site space, on the page a URL of the site names, and as a visitor with unsigned claims', async () => {
    const onV2 = (await t.http.get(`${base()}/publishing/preview?siteSpace=${v2.id}`).set(reader.auth).expect(200)).body.url;
    expect(onV2).toMatch(new RegExp(`/~preview/[^/]+/${v2.path}/$`));
    expect((await open(onV2)).page.text).toContain('Version two.');

    // A URL at the custom hostname, below the basename; and Quire's own URL of the site.
    for (const target of [
      `https://docs.example.com/help/${v2.path}/start`,
      `http://quire.test/sites/${siteId}/help/${v2.path}/start?x=1#top`,
    ]) {
      const url = (await t.http.get(`${base()}/publishing/preview`).query({ target, siteSpace: 'ignored' }).set(admin.auth).expect(200))
        .body.url;
      expect(url).toMatch(new RegExp(`/~preview/[^/]+/${v2.path}/start$`));
      expect((await open(url)).page.text).toContain('Version two.');
    }

    // The beta page shows to a visitor claiming beta, and only then.
    const target = `https://docs.example.com/help/${v2.path}/beta-notes`;
    const plain = (await t.http.get(`${base()}/publishing/preview`).query({ target }).set(admin.auth).expect(200)).body.url;
    expect((await open(plain)).page.status).toBe(404);
    const claimed = (
      await t.http
        .get(`${base()}/publishing/preview`)
        .query({ target, claims: '(unsigned:(beta:!t))', draft: 'false' })
        .set(admin.auth)
        .expect(200)
    ).body.url;
    expect(claimed).toMatch(/\/beta-notes\?visitor\.beta=true$/);
    const opened = await open(claimed);
    expect(opened.location).toBe(`/sites/${siteId}/help/${v2.path}/beta-notes?visitor.beta=true`);
    expect(opened.page.text).toContain('Beta only.');
  });

  it('refuses what it cannot honour with 400, unknown ids with 404, other organizations with 404', async () => {
    const preview = (query: Record<string, string>, who = admin) => t.http.get(`${base()}/publishing/preview`).query(query).set(who.auth);
    for (const query of <Record<string, string>[]>[
      { target: 'https://elsewhere.example.com/help/' },
      { target: `https://docs.example.com/other/` },
      { target: 'javascript:alert(1)' },
      { target: 'not a url' },
      { claims: '(unsigned:(beta:!t)' },
      { claims: '(unsigned:(beta:yes))' },
      { claims: '(isPaid:!t)' },
      { claims: '(unknown:!t)' },
      { claims: '!t' },
      { draft: 'maybe' },
      { siteSpace: '' },
    ])
      expectError(await preview(query), 400);
    expectError(await preview({ siteSpace: 'nope' }), 404);
    expectError(await preview({}, outsider), 404);
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites/nope/publishing/preview`).set(admin.auth), 404);
  });
});
