import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

/**
 * Custom hostnames: a site with a `hostname` answers at that Host, as the whole origin (its links, assets
 * and cookies there), and nothing else does (not the API, not another site); a reverse proxy on loopback
 * may give the Host as X-Forwarded-Host. The official custom-hostname operations read and remove them.
 */
describe('custom hostnames', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let siteId: string;
  let spaceId: string;
  const official = officialValidator();
  const HOST = 'docs.example.com';

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body.id;
    const space = spaceId;
    await mergeChanges(t, admin, space, [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello from the handbook. See [more](./more.md).' } },
      { operation: 'insert_page', title: 'More', document: { markdown: 'More pages.' } },
    ]);
    siteId = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Handbook', visibility: 'public' }).expect(201))
      .body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`).set(admin.auth).send({ spaceId: space }).expect(201);
    await t.http.patch(`/v1/orgs/${orgId}/sites/${siteId}`).set(admin.auth).send({ hostname: HOST }).expect(200);
    await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/publish`).set(admin.auth).expect(200);
  });
  afterAll(async () => t.close());

  it('serves the site at its hostname as the whole origin: pages, links, assets, machine files', async () => {
    const home = await t.http.get('/').set('Host', HOST).expect(200);
    expect(home.text).toContain('Hello from the handbook.');
    expect(home.text).toContain(`<link rel="stylesheet" href="https://${HOST}/~site.css"/>`);
    expect(home.text).toContain(`href="https://${HOST}/more"`);
    expect(home.text).toContain(`<link rel="canonical" href="https://${HOST}/welcome"/>`);
    await t.http.get('/more').set('Host', HOST).expect(200);
    await t.http.get('/~site.css').set('Host', `${HOST}:443`).expect(200);
    expect((await t.http.get('/sitemap.xml').set('Host', HOST).expect(200)).text).toContain(`<loc>https://${HOST}/more</loc>`);
    expect((await t.http.get('/robots.txt').set('Host', HOST).expect(200)).text).toContain(`Sitemap: https://${HOST}/sitemap.xml`);
    // The icon a browser asks the origin for, and the one the page declares, are the site's.
    expect(home.text).toContain(`<link rel="icon" href="https://${HOST}/favicon.ico" type="image/svg+xml"/>`);
    const icon = await t.http.get('/favicon.ico').set('Host', HOST).expect(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    // A reverse proxy on loopback gives the Host it was asked for.
    await t.http.get('/more').set('X-Forwarded-Host', HOST).expect(200);
    // Upper case is the same host.
    await t.http.get('/more').set('Host', HOST.toUpperCase()).expect(200);
  });

  it('a hostname that moves to another site serves that site at once, warm pages included', async () => {
    const MOVING = 'moving.example.com';
    const other = await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Other' }).expect(201);
    await mergeChanges(t, admin, other.body.id, [
      { operation: 'insert_page', title: 'Elsewhere', document: { markdown: 'The other site.' } },
    ]);
    const make = async (title: string, space: string) => {
      const id = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title, visibility: 'public' }).expect(201)).body.id;
      await t.http.post(`/v1/orgs/${orgId}/sites/${id}/site-spaces`).set(admin.auth).send({ spaceId: space }).expect(201);
      await t.http.post(`/v1/orgs/${orgId}/sites/${id}/publish`).set(admin.auth).expect(200);
      return id as string;
    };
    const first = await make('First', spaceId);
    const second = await make('Second', other.body.id);
    await t.http.patch(`/v1/orgs/${orgId}/sites/${first}`).set(admin.auth).send({ hostname: MOVING }).expect(200);
    for (let i = 0; i < 2; i++) expect((await t.http.get('/').set('Host', MOVING).expect(200)).text).toContain('Hello from the handbook.');
    await t.http.patch(`/v1/orgs/${orgId}/sites/${first}`).set(admin.auth).send({ hostname: null }).expect(200);
    await t.http.patch(`/v1/orgs/${orgId}/sites/${second}`).set(admin.auth).send({ hostname: MOVING }).expect(200);
    expect((await t.http.get('/').set('Host', MOVING).expect(200)).text).toContain('The other site.');
  });

  it('an assistant reaches the site’s MCP at its hostname, /~mcp, with the site’s read-only tools', async () => {
    const rpc = (method: string, params: object) =>
      t.http
        .post('/~mcp')
        .set('Host', HOST)
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method, params });
    const listed = await rpc('tools/list', {}).expect(200);
    expect((listed.body.result.tools as { name: string }[]).map((x) => x.name).sort()).toEqual([
      'ask',
      'list_pages',
      'read_page',
      'search',
      'send_feedback',
    ]);
    const page = await rpc('tools/call', { name: 'read_page', arguments: { path: 'more' } }).expect(200);
    expect(page.body.result.content[0].text).toContain('More pages.');
    // The API's own MCP is not at a site's hostname.
    await t.http.post('/mcp').set('Host', HOST).set('Authorization', `Bearer ${admin.token}`).send({}).expect(404);
  });

  it('answers nothing else at that hostname: not the API, not another site; other hosts reach the API', async () => {
    const other = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Other', visibility: 'public' }).expect(201))
      .body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${other}/publish`).set(admin.auth).expect(200);
    const api = await t.http.get('/v1/orgs').set('Host', HOST).set(admin.auth).expect(404);
    expect(api.headers['content-type']).toMatch(/text\/html/);
    await t.http.get(`/sites/${other}/`).set('Host', HOST).expect(404);
    await t.http.get('/v1/orgs').set('Host', 'api.example.org').set(admin.auth).expect(200);
    await t.http.get('/health').set('Host', 'unknown.example.org').expect(200);
    await t.http.get(`/sites/${siteId}/`).expect(200); // still at urls.published on Quire's own origin
  });

  it('keeps a share key in a cookie for the whole hostname', async () => {
    const shared = (
      await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Shared', visibility: 'share-link' }).expect(201)
    ).body.id;
    const base = `/v1/orgs/${orgId}/sites/${shared}`;
    await t.http.patch(base).set(admin.auth).send({ hostname: 'partners.example.com' }).expect(200);
    await t.http.post(`${base}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    const key = (await t.http.post(`${base}/share-links`).set(admin.auth).send({ name: 'P' }).expect(201)).body.key;
    await t.http.post(`${base}/publish`).set(admin.auth).expect(200);
    await t.http.get('/').set('Host', 'partners.example.com').expect(404);
    const opened = await t.http.get(`/?shareKey=${key}`).set('Host', 'partners.example.com').expect(200);
    expect(String(opened.headers['set-cookie'])).toMatch(new RegExp(`^quire_share_${shared}=${key}; Path=/; HttpOnly; SameSite=Lax`));
  });

  it('the official operations: get (members), revalidate (nothing to do), remove (admins); 400, 404 and 403 as due', async () => {
    const got = (await t.http.get(`/v1/custom-hostnames/${HOST}`).set(reader.auth).expect(200)).body;
    expect(got).toEqual({
      object: 'custom-hostname',
      hostname: HOST,
      target: { type: 'site', site: siteId },
      isActive: true,
      urls: { location: `http://quire.test/v1/custom-hostnames/${HOST}` },
    });
    expect(official.check('CustomHostname', got)).toBe('');
    await t.http.patch(`/v1/custom-hostnames/${HOST}`).set(reader.auth).expect(204);
    expectError(await t.http.get(`/v1/custom-hostnames/${HOST}`).set(outsider.auth), 404);
    expectError(await t.http.get('/v1/custom-hostnames/nowhere.example.com').set(admin.auth), 404);
    expectError(await t.http.get('/v1/custom-hostnames/not_a_host').set(admin.auth), 400);
    expectError(await t.http.delete(`/v1/custom-hostnames/${HOST}`).set(reader.auth), 403);
    await t.http.delete(`/v1/custom-hostnames/${HOST}`).set(outsider.auth).expect(204);
    await t.http.get('/').set('Host', HOST).expect(200);
    await t.http.delete(`/v1/custom-hostnames/${HOST}`).set(admin.auth).expect(205);
    await t.http.delete(`/v1/custom-hostnames/${HOST}`).set(admin.auth).expect(204);
    expect((await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}`).set(admin.auth).expect(200)).body.hostname).toBeUndefined();
    // The hostname no longer leads to the site.
    await t.http.get('/health').set('Host', HOST).expect(200);
  });
});
