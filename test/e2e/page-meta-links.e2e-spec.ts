import { GitBookAPI } from '@gitbook/api';
import { TranslationsService } from '@app/translations';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges, spaceWithPages } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * A page's meta links (official listSpacePageMetaLinks, listRevisionPageMetaLinks, listChangeRequestPageMetaLinks):
 * its alternates, the same page in the spaces that translate its space or that its space translates (a translation
 * keeps its source's page ids; translated with the real Apertium), as far as the caller may read them and the page
 * is there.
 */
describe('page meta links: a page’s alternates are its translations', () => {
  let t: TestApp;
  let admin: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let api: GitBookAPI;
  let runs: TranslationsService;
  const official = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    runs = t.app.get(TranslationsService);
    admin = await t.user('admin');
    guest = await t.user('guest');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, guest, null);
    await t.organization(outsider, 'Elsewhere');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  const pageIds = async (space: string) =>
    ((await t.http.get(`/v1/spaces/${space}/content/pages`).set(admin.auth).expect(200)).body.pages as { id: string; title: string }[]).map(
      (p) => p.id,
    );
  /** A translation of `source` into Spanish, run once: its id and target space. */
  const translate = async (source: string) => {
    t.clock.advance(60_000);
    const id = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space: source, language: 'en' } })
        .expect(201)
    ).body.id as string;
    expect(await runs.run(id)).toBe('completed');
    const target = (await t.http.get(`/v1/orgs/${orgId}/translations/${id}`).set(admin.auth).expect(200)).body.result.space as string;
    return { id, target };
  };
  const ref = (page: string, space: string) => ({ kind: 'page', page, space });

  it('answers, through the official client, the same page in every version of the space, and what the caller may read', async () => {
    const source = await spaceWithPages(
      t,
      admin,
      orgId,
      [
        { title: 'Getting started', markdown: 'The house is red.' },
        { title: 'Garden', markdown: 'The dog sleeps in the garden.' },
      ],
      { title: 'Handbook', language: 'en' },
    );
    const [intro, garden] = await pageIds(source);
    const first = await translate(source);
    const second = await translate(source);
    const firstRevision = (await t.http.get(`/v1/spaces/${source}/content`).set(admin.auth).expect(200)).body.id as string;

    const links = await api.spaces.listSpacePageMetaLinks(source, intro);
    expect(official.check('RevisionPageMetaLinks', links.data)).toBe('');
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('GET', '/v1/spaces/{spaceId}/content/page/{pageId}/meta-links', 200, links.data)).toEqual([]);
    // Oldest version first; no canonical (the page's own URL is).
    expect(links.data).toEqual({ alternates: [ref(intro, first.target), ref(intro, second.target)] });
    // From a translation: its source and the other translation.
    expect((await api.spaces.listSpacePageMetaLinks(first.target, garden)).data).toEqual({
      alternates: [ref(garden, source), ref(garden, second.target)],
    });

    // A page added since the runs has no version elsewhere yet; a page that is not there is a 404.
    await mergeChanges(t, admin, source, [{ operation: 'insert_page', title: 'New', document: { markdown: 'The cat is new.' } }]);
    const fresh = (await pageIds(source)).find((p) => p !== intro && p !== garden)!;
    expect((await api.spaces.listSpacePageMetaLinks(source, fresh)).data).toEqual({ alternates: [] });
    expectError(await t.http.get(`/v1/spaces/${source}/content/page/nope/meta-links`).set(admin.auth), 404);

    // A revision: its pages, each with the versions' current content.
    const inRevision = await api.spaces.listRevisionPageMetaLinks(source, firstRevision, intro);
    expect(served.check('GET', '/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links', 200, inRevision.data)).toEqual([]);
    expect(inRevision.data).toEqual(links.data);
    expectError(await t.http.get(`/v1/spaces/${source}/revisions/${firstRevision}/page/${fresh}/meta-links`).set(admin.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${source}/revisions/nope/page/${intro}/meta-links`).set(admin.auth), 404);

    // A change request: its pages; one it adds has no version yet.
    const cr = (await t.http.post(`/v1/spaces/${source}/change-requests`).set(admin.auth).send({}).expect(201)).body.id as string;
    await t.http
      .post(`/v1/spaces/${source}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', ref: 'draft', title: 'Draft', document: { markdown: 'Soon.' } }] })
      .expect(200);
    const inCr = await api.spaces.listChangeRequestPageMetaLinks(source, cr, garden);
    expect(
      served.check('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links', 200, inCr.data),
    ).toEqual([]);
    expect(inCr.data).toEqual({ alternates: [ref(garden, first.target), ref(garden, second.target)] });
    const draft = (
      (await t.http.get(`/v1/spaces/${source}/change-requests/${cr}/content/pages`).set(admin.auth).expect(200)).body.pages as {
        id: string;
        title: string;
      }[]
    ).find((p) => p.title === 'Draft')!.id;
    expect((await api.spaces.listChangeRequestPageMetaLinks(source, cr, draft)).data).toEqual({ alternates: [] });
    expectError(await t.http.get(`/v1/spaces/${source}/content/page/${draft}/meta-links`).set(admin.auth), 404);

    // A guest who reads the source only: no version they cannot read is named.
    await t.http
      .post(`/v1/spaces/${source}/permissions`)
      .set(admin.auth)
      .send({ role: 'read', users: [guest.id] })
      .expect(204);
    expect((await t.http.get(`/v1/spaces/${source}/content/page/${intro}/meta-links`).set(guest.auth).expect(200)).body).toEqual({
      alternates: [],
    });
    expectError(await t.http.get(`/v1/spaces/${first.target}/content/page/${intro}/meta-links`).set(guest.auth), 404);
    // Another organization: nothing.
    expectError(await t.http.get(`/v1/spaces/${source}/content/page/${intro}/meta-links`).set(outsider.auth), 404);

    // A translation deleted is no longer a version; its space deleted neither.
    await t.http.delete(`/v1/orgs/${orgId}/translations/${second.id}`).set(admin.auth).expect(205);
    expect((await api.spaces.listSpacePageMetaLinks(source, intro)).data).toEqual({ alternates: [ref(intro, first.target)] });
    await t.http.delete(`/v1/spaces/${first.target}`).set(admin.auth).expect(205);
    expect((await api.spaces.listSpacePageMetaLinks(source, intro)).data).toEqual({ alternates: [] });
  });
});
