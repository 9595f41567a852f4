import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

/**
 * Site redirects: the official operations (create, bulk upsert, list, update, delete, get by source) with
 * their validation, roles and tenant isolation; and what visitors get: a live redirect for a path that
 * names no page (never shadowing one), and a 301 for a page that moved or was renamed.
 */
describe('site redirects', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let spaceId: string;
  let setupPageId: string;
  let guidePageId: string;
  const official = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body.id;
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const written = await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_page', ref: 'intro', title: 'Introduction', document: { markdown: 'Welcome.' } },
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
          { operation: 'insert_page', ref: 'setup', into: 'guide', title: 'Setup', document: { markdown: 'Install it.' } },
        ],
      })
      .expect(200);
    setupPageId = written.body.changes[2].page.id;
    guidePageId = written.body.changes[1].page.id;
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
  });
  afterAll(async () => t.close());

  const site = async (body: object = { visibility: 'public' }) => {
    const id = (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Docs', ...body })
        .expect(201)
    ).body.id as string;
    const siteSpace = (await t.http.post(`/v1/orgs/${orgId}/sites/${id}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201)).body;
    await t.http.post(`/v1/orgs/${orgId}/sites/${id}/publish`).set(admin.auth).expect(200);
    return { id, siteSpaceId: siteSpace.id as string };
  };
  const base = (id: string) => `/v1/orgs/${orgId}/sites/${id}`;

  it('creates, lists, finds by source, updates and deletes redirects, in the official shapes', async () => {
    const { id, siteSpaceId } = await site();
    const created = await t.http
      .post(`${base(id)}/redirects`)
      .set(admin.auth)
      .send({ source: '/old-setup', destination: { kind: 'site-page', siteSpaceId, pageId: setupPageId }, permanent: true })
      .expect(201);
    expect(created.body).toMatchObject({
      object: 'site-redirect',
      source: '/old-setup',
      draft: false,
      captureWildcard: false,
      permanent: true,
      destination: { kind: 'site-page', siteSpaceId, pageId: setupPageId },
    });
    expect(created.body.updatedAt).toBeUndefined();
    expect(official.check('SiteRedirect', created.body)).toBe('');
    // A page by its path becomes the page it names.
    const byPath = await t.http
      .post(`${base(id)}/redirects`)
      .set(admin.auth)
      .send({ source: '/docs/*', captureWildcard: true, destination: { kind: 'path', spaceId, path: 'guide' } })
      .expect(201);
    expect(byPath.body.destination).toEqual({ kind: 'site-page', siteSpaceId, pageId: expect.any(String) });
    const drafted = await t.http
      .post(`${base(id)}/redirects`)
      .set(admin.auth)
      .send({ source: '/old-setup', draft: true, destination: { kind: 'external', url: 'https://example.com/setup' } })
      .expect(201);
    // One live and one draft per source.
    expectError(
      await t.http
        .post(`${base(id)}/redirects`)
        .set(admin.auth)
        .send({ source: '/old-setup', destination: { kind: 'external', url: 'https://example.com/' } }),
      409,
      /already has a live redirect/,
    );

    const live = (
      await t.http
        .get(`${base(id)}/redirects`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(official.checkList('SiteRedirect', live)).toBe('');
    expect(live.items.map((r: { source: string }) => r.source)).toEqual(['/docs/*', '/old-setup']); // newest first
    const drafts = (
      await t.http
        .get(`${base(id)}/redirects?draft=true`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(drafts.items.map((r: { id: string }) => r.id)).toEqual([drafted.body.id]);
    const bySource = (
      await t.http
        .get(`${base(id)}/redirects?orderBy=source&search=OLD`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(bySource.items.map((r: { source: string }) => r.source)).toEqual(['/old-setup']);
    const paged = (
      await t.http
        .get(`${base(id)}/redirects?orderBy=source&limit=1`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(paged.items[0].source).toBe('/docs/*');
    const next = (
      await t.http
        .get(`${base(id)}/redirects?orderBy=source&limit=1&page=${paged.next.page}`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(next.items[0].source).toBe('/old-setup');

    const found = (
      await t.http
        .get(`${base(id)}/redirect?source=/old-setup`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(found.redirect.id).toBe(created.body.id);
    expect(found.target).toBe(`http://quire.test/sites/${id}/guide/setup`);
    const wild = (
      await t.http
        .get(`${base(id)}/redirect?source=/docs/a/b`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(wild.target).toBe(`http://quire.test/sites/${id}/guide/a/b`);
    expectError(await t.http.get(`${base(id)}/redirect?source=/nothing`).set(reader.auth), 404);
    // shareKey: the key of an active share link resolves the published URL for whoever holds it (it carries the key);
    // any other key is a 404, as on every read that takes one.
    await t.http.patch(base(id)).set(admin.auth).send({ visibility: 'share-link' }).expect(200);
    const link = (
      await t.http
        .post(`${base(id)}/share-links`)
        .set(admin.auth)
        .send({ name: 'Partners' })
        .expect(201)
    ).body;
    const keyed = (
      await t.http
        .get(`${base(id)}/redirect?source=/old-setup&shareKey=${encodeURIComponent(link.key)}`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(keyed.target).toBe(`http://quire.test/sites/${id}/guide/setup?shareKey=${encodeURIComponent(link.key)}`);
    expectError(await t.http.get(`${base(id)}/redirect?source=/old-setup&shareKey=wrong-key`).set(reader.auth), 404);
    expectError(await t.http.get(`${base(id)}/redirect?source=/old-setup&shareKey=`).set(reader.auth), 400, /shareKey/);
    await t.http
      .patch(`${base(id)}/share-links/${link.id}`)
      .set(admin.auth)
      .send({ active: false })
      .expect(200);
    expectError(await t.http.get(`${base(id)}/redirect?source=/old-setup&shareKey=${encodeURIComponent(link.key)}`).set(reader.auth), 404);
    await t.http.patch(base(id)).set(admin.auth).send({ visibility: 'public' }).expect(200);

    const patched = await t.http
      .patch(`${base(id)}/redirects/${created.body.id}`)
      .set(admin.auth)
      .send({ source: '/older-setup', permanent: false })
      .expect(200);
    expect(patched.body).toMatchObject({ source: '/older-setup', permanent: false, updatedAt: expect.any(String) });
    // Promoting the draft to live (its source is free now).
    await t.http
      .patch(`${base(id)}/redirects/${drafted.body.id}`)
      .set(admin.auth)
      .send({ draft: false })
      .expect(200);
    await t.http
      .delete(`${base(id)}/redirects/${created.body.id}`)
      .set(admin.auth)
      .expect(205);
    await t.http
      .delete(`${base(id)}/redirects/${created.body.id}`)
      .set(admin.auth)
      .expect(204);
    expectError(
      await t.http
        .patch(`${base(id)}/redirects/${created.body.id}`)
        .set(admin.auth)
        .send({ draft: true }),
      404,
    );
  });

  it('refuses bad input with 400: sources, destinations, nulls, wrong kinds', async () => {
    const { id, siteSpaceId } = await site();
    const post = (body: unknown) =>
      t.http
        .post(`${base(id)}/redirects`)
        .set(admin.auth)
        .send(body as object);
    const external = { kind: 'external', url: 'https://example.com/' };
    for (const source of ['old', '/*', '/a*b', '/a/**', '/a b', '/a\u0000b', `/${'a'.repeat(512)}`, null, 42, ''])
      expectError(await post({ source, destination: external }), 400);
    for (const destination of [
      null,
      'https://example.com',
      { kind: 'external', url: 'javascript:alert(1)' },
      { kind: 'external', url: 'not a url' },
      { kind: 'external' },
      { kind: 'site-section', siteSectionId: 'nope' },
      { kind: 'site-space', siteSpaceId: 'nope' },
      { kind: 'site-page', siteSpaceId, pageId: 'nope' },
      { kind: 'path', spaceId, path: 'no/such/page' },
      { kind: 'path', spaceId: 'another-space', path: 'guide' },
      { kind: 'teleport' },
      { kind: 'external', url: null },
    ])
      expectError(await post({ source: '/x', destination }), 400);
    expectError(await post({ source: '/x', destination: external, permanent: 'yes' }), 400);
    expectError(await post({ source: '/x', destination: external, draft: null }), 400);
    const created = (await post({ source: '/x', destination: external }).expect(201)).body;
    expectError(
      await t.http
        .patch(`${base(id)}/redirects/${created.id}`)
        .set(admin.auth)
        .send({}),
      400,
    );
    expectError(
      await t.http
        .patch(`${base(id)}/redirects/${created.id}`)
        .set(admin.auth)
        .send({ source: null }),
      400,
    );
    expectError(await t.http.get(`${base(id)}/redirects?orderBy=random`).set(admin.auth), 400);
    expectError(await t.http.get(`${base(id)}/redirects?draft=1`).set(admin.auth), 400);
    expectError(await t.http.get(`${base(id)}/redirects?page=forged-cursor`).set(admin.auth), 400);
    expectError(await t.http.get(`${base(id)}/redirect`).set(admin.auth), 400);
  });

  it('members read, editors of the structure write; other organizations and non-members get nothing', async () => {
    const { id } = await site();
    const body = { source: '/a', destination: { kind: 'external', url: 'https://example.com/' } };
    expectError(
      await t.http
        .post(`${base(id)}/redirects`)
        .set(reader.auth)
        .send(body),
      403,
    );
    expectError(
      await t.http
        .put(`${base(id)}/redirects`)
        .set(reader.auth)
        .send({ redirects: [body] }),
      403,
    );
    const created = (
      await t.http
        .post(`${base(id)}/redirects`)
        .set(admin.auth)
        .send(body)
        .expect(201)
    ).body;
    expectError(await t.http.delete(`${base(id)}/redirects/${created.id}`).set(reader.auth), 403);
    await t.http
      .get(`${base(id)}/redirects`)
      .set(reader.auth)
      .expect(200);
    expectError(await t.http.get(`${base(id)}/redirects`).set(outsider.auth), 404);
    expectError(await t.http.get(`${base(id)}/redirect?source=/a`).set(outsider.auth), 404);
    expectError(
      await t.http
        .post(`${base(id)}/redirects`)
        .set(outsider.auth)
        .send(body),
      404,
    );
    await t.http
      .delete(`${base(id)}/redirects/${created.id}`)
      .set(outsider.auth)
      .expect(204);
    // The outsider's own organization cannot reach this site's redirects through its id either.
    const theirs = (await t.http.get('/v1/orgs').set(outsider.auth).expect(200)).body.items[0].id;
    expectError(await t.http.get(`/v1/orgs/${theirs}/sites/${id}/redirects`).set(outsider.auth), 404);
    expect(
      (
        await t.http
          .get(`${base(id)}/redirects`)
          .set(admin.auth)
          .expect(200)
      ).body.items,
    ).toHaveLength(1);
  });

  it('bulk: each item created, updated, deleted, published or its own error, in one transaction; at most 500', async () => {
    const { id, siteSpaceId } = await site();
    const put = (redirects: unknown[]) =>
      t.http
        .put(`${base(id)}/redirects`)
        .set(admin.auth)
        .send({ redirects });
    const ext = (url: string) => ({ kind: 'external', url });
    const first = (
      await put([
        { source: '/a', destination: ext('https://example.com/a') },
        { source: '/b', intent: 'draft', destination: { kind: 'site-space', siteSpaceId } },
        { source: '/c', destination: { kind: 'site-section', siteSectionId: 'nope' } },
      ]).expect(200)
    ).body;
    expect(first.results).toEqual([
      { status: 'created', source: '/a', draft: false, id: expect.any(String) },
      { status: 'created', source: '/b', draft: true, id: expect.any(String) },
      { status: 'error', source: '/c', draft: false, error: expect.stringMatching(/no section/) },
    ]);
    const second = (
      await put([
        { source: '/a', destination: ext('https://example.com/a2'), permanent: true },
        { source: '/b', intent: 'publish' },
        { source: '/zzz', intent: 'publish' },
        { source: '/a', intent: 'draft', destination: null },
      ]).expect(200)
    ).body;
    expect(second.results).toEqual([
      { status: 'updated', source: '/a', draft: false, id: first.results[0].id },
      { status: 'published', source: '/b', draft: false, id: expect.any(String) },
      { status: 'error', source: '/zzz', draft: false, error: expect.stringMatching(/not found/i) },
      { status: 'deleted', source: '/a', draft: true },
    ]);
    const live = (
      await t.http
        .get(`${base(id)}/redirects?orderBy=source`)
        .set(admin.auth)
        .expect(200)
    ).body.items;
    expect(live.map((r: { source: string; permanent: boolean }) => [r.source, r.permanent])).toEqual([
      ['/a', true],
      ['/b', false],
    ]);
    expect(
      (
        await t.http
          .get(`${base(id)}/redirects?draft=true`)
          .set(admin.auth)
          .expect(200)
      ).body.items,
    ).toEqual([]);
    expectError(await put([]), 400);
    expectError(await put(Array.from({ length: 501 }, (_, i) => ({ source: `/p${i}`, destination: ext('https://example.com/') }))), 400);
    expectError(await put([{ source: '/a' }]), 400);
    expectError(await put([{ source: '/a', intent: 'publish', destination: ext('https://example.com/') }]), 400);
    // 500 at once is fine.
    const many = (
      await put(Array.from({ length: 500 }, (_, i) => ({ source: `/p${i}`, destination: ext(`https://example.com/${i}`) }))).expect(200)
    ).body;
    expect(many.results.filter((r: { status: string }) => r.status === 'created')).toHaveLength(500);
  });

  it('visitors: a live redirect answers a path with no page (308 permanent on a public site, 302 otherwise), never a draft, never over a page', async () => {
    const { id, siteSpaceId } = await site();
    const post = (body: object) =>
      t.http
        .post(`${base(id)}/redirects`)
        .set(admin.auth)
        .send(body)
        .expect(201);
    await post({ source: '/gone', permanent: true, destination: { kind: 'site-page', siteSpaceId, pageId: setupPageId } });
    await post({ source: '/away', destination: { kind: 'external', url: 'https://example.com/docs' } });
    await post({ source: '/api/*', captureWildcard: true, destination: { kind: 'external', url: 'https://example.com/api' } });
    await post({ source: '/drafted', draft: true, destination: { kind: 'external', url: 'https://example.com/' } });
    await post({ source: '/introduction', destination: { kind: 'external', url: 'https://example.com/' } });
    const gone = await t.http.get(`/sites/${id}/gone`).expect(308);
    expect(gone.headers.location).toBe(`http://quire.test/sites/${id}/guide/setup`);
    expect((await t.http.get(`/sites/${id}/away`).expect(302)).headers.location).toBe('https://example.com/docs');
    expect((await t.http.get(`/sites/${id}/api/v1/users`).expect(302)).headers.location).toBe('https://example.com/api/v1/users');
    await t.http.get(`/sites/${id}/drafted`).expect(404);
    await t.http.get(`/sites/${id}/introduction`).expect(200); // a page wins over a redirect
    // A permanent redirect of a site that is not public is a 307.
    const { id: unlisted, siteSpaceId: ss2 } = await site({ visibility: 'unlisted' });
    await t.http
      .post(`${base(unlisted)}/redirects`)
      .set(admin.auth)
      .send({ source: '/gone', permanent: true, destination: { kind: 'site-page', siteSpaceId: ss2, pageId: setupPageId } })
      .expect(201);
    await t.http.get(`/sites/${unlisted}/gone`).expect(307);
  });

  it('visitors: a page that moved or was renamed keeps answering with a 301 to where it is now', async () => {
    const { id } = await site();
    await t.http.get(`/sites/${id}/guide/setup`).expect(200);
    await mergeChanges(t, admin, spaceId, [{ operation: 'update_page', page: setupPageId, slug: 'installation', into: null }]);
    const moved = await t.http.get(`/sites/${id}/guide/setup`).expect(301);
    expect(moved.headers.location).toBe(`http://quire.test/sites/${id}/installation`);
    expect((await t.http.get(`/sites/${id}/guide/setup.md`).expect(301)).headers.location).toBe(
      `http://quire.test/sites/${id}/installation.md`,
    );
    await t.http.get(`/sites/${id}/installation`).expect(200);
    await t.http.get(`/sites/${id}/never/was`).expect(404);
    // Moved back: the old path is a page again, the in-between one redirects.
    await mergeChanges(t, admin, spaceId, [{ operation: 'update_page', page: setupPageId, slug: 'setup', into: guidePageId }]);
    await t.http.get(`/sites/${id}/guide/setup`).expect(200);
    expect((await t.http.get(`/sites/${id}/installation`).expect(301)).headers.location).toBe(`http://quire.test/sites/${id}/guide/setup`);
  });
});
