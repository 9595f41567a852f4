import { Db } from '@app/persistence';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

/**
 * Page feedback (#49): "Was this page helpful?" on a published page, no account needed: the form without the
 * script, the script's two steps (rating, then comment with its key), refused input, the rate limit, the
 * site's switch (official `feedback.enabled`), and the list members read (a Quire extension).
 */
describe('page feedback on a published site', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let orgId: string;
  let spaceId: string;
  let siteId: string;
  let pages: Record<string, string>;

  const publishSite = async (title: string, visibility = 'public') => {
    const base = `/v1/orgs/${orgId}/sites`;
    const id = (await t.http.post(base).set(admin.auth).send({ title, visibility }).expect(201)).body.id as string;
    await t.http.post(`${base}/${id}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    await t.http.post(`${base}/${id}/publish`).set(admin.auth).expect(200);
    return id;
  };
  const enableFeedback = async (site: string, enabled = true) => {
    const base = `/v1/orgs/${orgId}/sites/${site}/customization`;
    const current = (await t.http.get(base).set(admin.auth).expect(200)).body;
    await t.http
      .put(base)
      .set(admin.auth)
      .send({ ...current, feedback: { enabled } })
      .expect(200);
  };
  const give = (site: string, body: Record<string, unknown>) =>
    t.http.post(`/sites/${site}/~feedback`).set('Accept', 'application/json').send(body);
  const list = (query = '', who: TestUser = admin) => t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/page-feedback${query}`).set(who.auth);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body.id;
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_page', ref: 'home', title: 'Home', document: { markdown: 'Welcome.' } },
          { operation: 'insert_page', ref: 'setup', title: 'Set up', document: { markdown: 'Steps.' } },
        ],
      })
      .expect(200);
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    const idOf = async (path: string) =>
      (await t.http.get(`/v1/spaces/${spaceId}/content/path/${path}`).set(admin.auth).expect(200)).body.id;
    pages = { Home: await idOf('home'), 'Set up': await idOf('set-up') };
    siteId = await publishSite('Docs');
  });
  afterAll(async () => t.close());

  it('is off until the site asks for it: no form, and a post answers 404', async () => {
    const html = (await t.http.get(`/sites/${siteId}/set-up`).expect(200)).text;
    expect(html).not.toContain('page-feedback');
    expectError(await give(siteId, { page: 'set-up', rating: 'good' }), 404, /does not take feedback/);
    expect((await list().expect(200)).body.items).toEqual([]);
  });

  it('without the script: the form posts a rating and a comment, answered by a thank-you page; nothing of the visitor is kept', async () => {
    await enableFeedback(siteId);
    const html = (await t.http.get(`/sites/${siteId}/set-up`).expect(200)).text;
    expect(html).toContain(`<form class="page-feedback" method="post" action="http://quire.test/sites/${siteId}/~feedback"`);
    expect(html).toContain('<input type="hidden" name="page" value="set-up"/>');
    for (const rating of ['good', 'ok', 'bad']) expect(html).toContain(`name="rating" value="${rating}"`);
    const res = await t.http
      .post(`/sites/${siteId}/~feedback`)
      .set('User-Agent', 'Feedback-Browser/1.0')
      .type('form')
      .send({ page: 'set-up', rating: 'bad', comment: '  The second step\r\nfails on Windows.  ' })
      .expect(201);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('<h1>Thank you</h1>');
    expect(res.text).toContain(`href="http://quire.test/sites/${siteId}/set-up">Back to “Set up”</a>`);
    const [item] = (await list().expect(200)).body.items;
    expect(item).toEqual({
      object: 'page-feedback',
      id: expect.any(String),
      createdAt: expect.any(String),
      rating: 'bad',
      comment: 'The second step\nfails on Windows.',
      space: spaceId,
      page: { id: pages['Set up'], path: 'set-up' },
    });
    const rows = JSON.stringify(await t.app.get(Db).query('SELECT * FROM page_feedback'));
    expect(rows).not.toContain('127.0.0.1');
    expect(rows).not.toContain('Feedback-Browser');
    // What is kept, by construction: no column could hold an address, a user agent or a visitor id.
    const columns = await t.app
      .get(Db)
      .query("SELECT column_name FROM information_schema.columns WHERE table_name = 'page_feedback' ORDER BY ordinal_position");
    expect(columns.map((c: { column_name: string }) => c.column_name)).toEqual([
      'id',
      'seq',
      'organization_id',
      'site_id',
      'space_id',
      'page_id',
      'page_path',
      'rating',
      'comment',
      'comment_key',
      'created_at',
    ]);
  });

  it("with the script: the rating at once, then its comment with the rating's key, once", async () => {
    const given = await give(siteId, { page: '/', rating: 'good' }).expect(201);
    expect(Object.keys(given.body).sort()).toEqual(['id', 'key']);
    expectError(
      await give(siteId, { id: given.body.id, key: 'not-the-key', comment: 'Hi' }),
      404,
      /without a comment, with this key, not found/,
    );
    expectError(await give(siteId, { id: given.body.id, key: given.body.key, comment: '   ' }), 400, /comment must not be empty/);
    const added = await give(siteId, { id: given.body.id, key: given.body.key, comment: 'Clear, thanks.' });
    expect([added.status, added.body]).toEqual([200, { comment: 'added' }]);
    // A comment is added once: the key cannot overwrite it.
    expectError(await give(siteId, { id: given.body.id, key: given.body.key, comment: 'Changed my mind' }), 404);
    const items = (await list('?commented=true').expect(200)).body.items;
    expect(items.map((i: { comment: string }) => i.comment)).toEqual(['Clear, thanks.', 'The second step\nfails on Windows.']);
    expect(items[0].page).toEqual({ id: pages.Home, path: 'home' });
  });

  it('refuses what is no rating, no comment, or no page the visitor can open (400, 404), never 500', async () => {
    expectError(await give(siteId, { page: 'set-up', rating: 'great' }), 400, /rating must be one of good, ok, bad/);
    expectError(await give(siteId, { page: 'set-up', rating: null }), 400, /rating/);
    expectError(await give(siteId, { page: 'set-up', rating: 0x10 }), 400, /rating/);
    expectError(await give(siteId, { page: 'set-up', rating: 'ok', comment: 'a\u0000b' }), 400, /NUL|control characters/);
    expectError(await give(siteId, { page: 'set-up', rating: 'ok', comment: 42 }), 400, /comment must be a string/);
    expectError(await give(siteId, { page: 'set-up', rating: 'ok', comment: 'é'.repeat(513) }), 400, /at most 512/);
    await give(siteId, { page: 'set-up', rating: 'ok', comment: 'é'.repeat(512) }).expect(201);
    expectError(await give(siteId, { page: ['set-up'], rating: 'ok' }), 400, /page must be the path/);
    expectError(await give(siteId, { page: 'set-up\u0000', rating: 'ok' }), 400, /NUL|page must be the path/);
    expectError(await give(siteId, { page: 'nowhere', rating: 'ok' }), 404, /No such page/);
    expectError(await give(siteId, { page: 'set-up.md', rating: 'ok' }), 404, /No such page/);
    expectError(await give(siteId, { id: { $ne: '' }, key: 'x', comment: 'x' }), 400, /id and key/);
    // The form without the script gets its answer as a page of the site.
    const html = await t.http.post(`/sites/${siteId}/~feedback`).type('form').send({ page: 'set-up', rating: 'great' }).expect(400);
    expect(html.text).toContain('Your feedback was not sent');
    // Only `~feedback` takes a post.
    await t.http.post(`/sites/${siteId}/set-up`).send({}).expect(404);
    expect((await list('?rating=ok').expect(200)).body.items).toHaveLength(1);
  });

  it('a site that needs a share key takes feedback only with it', async () => {
    const shared = await publishSite('Shared', 'share-link');
    await enableFeedback(shared);
    expect((await give(shared, { page: 'set-up', rating: 'good' })).status).toBe(404);
    const link = (await t.http.post(`/v1/orgs/${orgId}/sites/${shared}/share-links`).set(admin.auth).send({ name: 'Team' }).expect(201))
      .body;
    await t.http
      .post(`/sites/${shared}/~feedback?shareKey=${link.key}`)
      .set('Accept', 'application/json')
      .send({ page: 'set-up', rating: 'good' })
      .expect(201);
  });

  it("a site space's override turns it off for its pages; one site's feedback key adds nothing on another site", async () => {
    const other = await publishSite('Other');
    await enableFeedback(other);
    const given = await give(siteId, { page: 'set-up', rating: 'ok' }).expect(201);
    expectError(await give(other, { id: given.body.id, key: given.body.key, comment: 'Elsewhere' }), 404);
    const siteSpace = (await t.http.get(`/v1/orgs/${orgId}/sites/${other}/site-spaces`).set(admin.auth).expect(200)).body.items[0].id;
    await t.http
      .patch(`/v1/orgs/${orgId}/sites/${other}/site-spaces/${siteSpace}/customization`)
      .set(admin.auth)
      .send({ feedback: { enabled: false } })
      .expect(200);
    expect((await t.http.get(`/sites/${other}/set-up`).expect(200)).text).not.toContain('page-feedback');
    expectError(await give(other, { page: 'set-up', rating: 'good' }), 404, /does not take feedback/);
  });

  it('at most 20 an hour from one client on one site: then 429 with Retry-After, other sites unaffected', async () => {
    const busy = await publishSite('Busy');
    await enableFeedback(busy);
    for (let i = 0; i < 20; i++) await give(busy, { page: 'set-up', rating: 'good' }).expect(201);
    const refused = await give(busy, { page: 'set-up', rating: 'good' }).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(refused.body.error.message).toMatch(/Too much feedback/);
    await give(siteId, { page: 'set-up', rating: 'good' }).expect(201);
  });

  it('the list: newest first, narrowed, paged; the read role reads it, another organization and strangers get 404', async () => {
    const all = (await list('?limit=100').expect(200)).body.items as { id: string; createdAt: string; page: { id: string } }[];
    expect(all.length).toBe(5);
    const first = (await list('?limit=2').expect(200)).body;
    expect(first.items.map((i: { id: string }) => i.id)).toEqual(all.slice(0, 2).map((i) => i.id));
    const second = (await list(`?limit=2&page=${first.next.page}`).expect(200)).body;
    expect(second.items.map((i: { id: string }) => i.id)).toEqual(all.slice(2, 4).map((i) => i.id));
    const home = (await list(`?pageId=${pages.Home}`).expect(200)).body.items;
    expect(home.length).toBeGreaterThan(0);
    expect(home.every((i: { page: { id: string } }) => i.page.id === pages.Home)).toBe(true);
    expect((await list('?commented=false&rating=bad').expect(200)).body.items).toEqual([]);
    expectError(await list('?rating=great'), 400, /rating/);
    expectError(await list('?commented=yes'), 400, /commented/);
    await list('', reader).expect(200);
    const stranger = await t.user('stranger');
    expectError(await list('', stranger), 404);
    const other = await t.user('other-admin');
    const otherOrg = await t.organization(other);
    expectError(await t.http.get(`/v1/orgs/${otherOrg}/sites/${siteId}/page-feedback`).set(other.auth), 404);
  });
});
