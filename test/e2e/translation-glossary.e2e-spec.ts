import { GitBookAPI, TranslationLanguage } from '@gitbook/api';
import { TranslationsService } from '@app/translations';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { spaceWithPages } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * The translation glossary (official listGlossaryEntries, updateGlossaryEntries, getGlossaryEntry) through the
 * official client, what it refuses, who may do what, and a translation run with the real Apertium rendering each
 * term as the glossary says (and translating every page again once the terms change).
 */
describe('translation glossary', () => {
  let t: TestApp;
  let admin: TestUser;
  let creator: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let api: GitBookAPI;
  let runs: TranslationsService;
  const official = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    runs = t.app.get(TranslationsService);
    admin = await t.user('admin');
    creator = await t.user('creator');
    editor = await t.user('editor');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    await t.organization(outsider, 'Elsewhere');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    orgId = await t.organization(admin);
    await t.member(orgId, creator, 'create');
    await t.member(orgId, editor, 'edit');
    await t.member(orgId, reader, 'read');
  });

  const url = (org = orgId) => `/v1/orgs/${org}/translations-glossary`;
  const put = (operations: unknown, who = admin, org = orgId) => t.http.put(url(org)).set(who.auth).send({ operations });
  const list = async (query = '', who = admin) => (await t.http.get(`${url()}${query}`).set(who.auth).expect(200)).body;

  it('inserts, lists, reads, updates and deletes entries through the official client; answers match the official and served schemas', async () => {
    const inserted = await api.orgs.updateGlossaryEntries(orgId, {
      operations: [
        { type: 'insert', translations: { en: 'change request', fr: 'demande de modification', es: 'solicitud de cambio' } },
        { type: 'insert', translations: { en: 'merge', es: 'fusión' } },
        { type: 'insert', translations: { fr: 'espace' } },
      ],
    });
    expect(inserted.status).toBe(204);
    const listed = await api.orgs.listGlossaryEntries(orgId);
    expect(official.checkList('GlossaryEntry', listed.data)).toBe('');
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('GET', '/v1/orgs/{organizationId}/translations-glossary', 200, listed.data)).toEqual([]);
    // In creation order.
    expect(listed.data.items.map((e) => e.translations.en ?? e.translations.fr)).toEqual(['change request', 'merge', 'espace']);
    const [cr, merge, espace] = listed.data.items;
    expect(cr).toMatchObject({ object: 'glossary-entry', createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(cr.urls.location).toMatch(new RegExp(`/v1/orgs/${orgId}/translations-glossary/${cr.id}$`));

    const one = await api.orgs.getGlossaryEntry(orgId, merge.id);
    expect(official.check('GlossaryEntry', one.data)).toBe('');
    expect(served.check('GET', '/v1/orgs/{organizationId}/translations-glossary/{glossaryEntryId}', 200, one.data)).toEqual([]);
    expect(one.data.translations).toEqual({ en: 'merge', es: 'fusión' });

    // Sorted by the French term: entries without one last.
    const byFrench = await api.orgs.listGlossaryEntries(orgId, { orderBy: TranslationLanguage.Fr });
    expect(byFrench.data.items.map((e) => e.id)).toEqual([cr.id, espace.id, merge.id]);
    // Pages follow one another to the end.
    const first = await list('?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await list(`?limit=2&page=${encodeURIComponent(first.next.page)}`);
    expect(second.items.map((e: { id: string }) => e.id)).toEqual([espace.id]);
    expect(second.next).toBeUndefined();

    // An update replaces the terms; a delete removes; a delete of an entry not there does nothing.
    await put([
      { type: 'update', id: merge.id, translations: { en: 'merge', es: 'fusionar', de: 'zusammenführen' } },
      { type: 'delete', id: espace.id },
      { type: 'delete', id: 'not-there' },
    ]).expect(204);
    const after = await list();
    expect(after.items.map((e: { id: string }) => e.id)).toEqual([cr.id, merge.id]);
    expect(after.items[1].translations).toEqual({ en: 'merge', es: 'fusionar', de: 'zusammenführen' });
    expect(Date.parse(after.items[1].updatedAt)).toBeGreaterThanOrEqual(Date.parse(merge.updatedAt));
    expectError(await t.http.get(`${url()}/${espace.id}`).set(admin.auth), 404);
  });

  it('refuses bad batches with 400 and writes nothing of them', async () => {
    await put([{ type: 'insert', translations: { en: 'merge' } }]).expect(204);
    const bad: unknown[] = [
      [{ type: 'insert', translations: { xx: 'term' } }],
      [{ type: 'insert', translations: { en: 'two\nlines' } }],
      [{ type: 'insert', translations: { en: 'nul\u0000byte' } }],
      [{ type: 'insert', translations: { en: 'a'.repeat(256) } }],
      [{ type: 'insert', translations: { en: '' } }],
      [{ type: 'insert', translations: {} }],
      [{ type: 'insert', translations: null }],
      [{ type: 'insert', translations: { en: 0x10 } }],
      [{ type: 'insert' }],
      [{ type: 'upsert', translations: { en: 'x' } }],
      [{ type: 'update', translations: { en: 'x' } }],
      [{ type: 'delete' }],
      [{ type: 'delete', id: null }],
      // The first operation is fine; the second fails: neither is written.
      [
        { type: 'insert', translations: { en: 'branch' } },
        { type: 'update', id: 'not-there', translations: { en: 'x' } },
      ],
      // The same term (case aside) in two entries.
      [{ type: 'insert', translations: { en: 'Merge' } }],
      Array.from({ length: 501 }, () => ({ type: 'delete', id: 'x' })),
      'insert',
      null,
    ];
    for (const operations of bad) expectError(await put(operations), 400);
    expectError(await t.http.put(url()).set(admin.auth).send({}), 400);
    expect((await list()).items.map((e: { translations: object }) => e.translations)).toEqual([{ en: 'merge' }]);
    // 255 characters is the limit, and it holds.
    await put([{ type: 'insert', translations: { en: 'a'.repeat(255) } }]).expect(204);
    expect((await list()).items).toHaveLength(2);
    expectError(await t.http.get(`${url()}?orderBy=xx`).set(admin.auth), 400);
    expectError(await t.http.get(`${url()}?page=forged`).set(admin.auth), 400);
  });

  it('members read; role create and up change it; others get 403; another organization gets 404', async () => {
    await put([{ type: 'insert', translations: { en: 'merge' } }], creator).expect(204);
    const [entry] = (await list('', reader)).items;
    await t.http.get(`${url()}/${entry.id}`).set(reader.auth).expect(200);
    expectError(await put([{ type: 'insert', translations: { en: 'branch' } }], editor), 403);
    expectError(await put([{ type: 'insert', translations: { en: 'branch' } }], reader), 403);
    expectError(await t.http.get(url()).set(outsider.auth), 404);
    expectError(await t.http.get(`${url()}/${entry.id}`).set(outsider.auth), 404);
    expectError(await put([{ type: 'delete', id: entry.id }], outsider), 404);
    // The entry is not reachable through another organization's glossary, even by its id.
    const theirs = await t.organization(outsider, 'Theirs');
    expectError(await t.http.get(`${url(theirs)}/${entry.id}`).set(outsider.auth), 404);
    await put([{ type: 'delete', id: entry.id }], outsider, theirs).expect(204);
    expect((await list()).items).toHaveLength(1);
  });

  it('two batches at once: both applied whole, one after the other; the same term twice is refused to the second', async () => {
    const results = await Promise.all([
      put([{ type: 'insert', translations: { en: 'space', fr: 'espace' } }]),
      put([{ type: 'insert', translations: { en: 'Space', de: 'Bereich' } }]),
      put([{ type: 'insert', translations: { en: 'site' } }]),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([204, 204, 400]);
    const terms = (await list()).items.map((e: { translations: { en: string } }) => e.translations.en.toLowerCase()).sort();
    expect(terms).toEqual(['site', 'space']);
  });

  it('a translation run renders each term as the glossary says, with the real Apertium; new terms translate every page again', async () => {
    const source = await spaceWithPages(t, admin, orgId, [
      { title: 'Change request', markdown: 'Open a change request before the merge. Run `git merge` to merge. The weather is nice.' },
      { title: 'The garden', markdown: 'The garden is green.' },
    ]);
    await put([
      { type: 'insert', translations: { en: 'change request', es: 'solicitud de cambio', fr: 'demande de modification' } },
      { type: 'insert', translations: { en: 'merge', es: 'fusión' } },
      { type: 'insert', translations: { en: 'garden', fr: 'jardin' } },
    ]).expect(204);
    const id = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space: source, language: 'en' } })
        .expect(201)
    ).body.id;
    expect(await runs.run(id)).toBe('completed');
    const done = (await t.http.get(`/v1/orgs/${orgId}/translations/${id}`).set(admin.auth).expect(200)).body;
    const target = done.result.space as string;
    const pages = (await t.http.get(`/v1/spaces/${target}/content`).set(admin.auth).expect(200)).body.pages as {
      id: string;
      title: string;
    }[];
    const markdown = async (pageId: string) =>
      (await t.http.get(`/v1/spaces/${target}/content/page/${pageId}?format=markdown`).set(admin.auth).expect(200)).body.markdown as string;
    // The title is capitalized where the source's was.
    expect(pages[0].title).toBe('Solicitud de cambio');
    const first = await markdown(pages[0].id);
    expect(first).toContain('solicitud de cambio');
    expect(first).toContain('fusión');
    // Inline code is code: the term inside it is not touched.
    expect(first).toContain('`git merge`');
    expect(first).not.toMatch(/change request|<code|data-g/);
    // The garden entry has no Spanish term: Apertium's own word.
    expect(await markdown(pages[1].id)).toBe('El jardín es verde.\n');

    // Nothing changed: nothing is translated again.
    await t.http.post(`/v1/orgs/${orgId}/translations/${id}/run`).set(admin.auth).expect(204);
    expect(await runs.run(id)).toBe('completed');
    expect((await t.http.get(`/v1/orgs/${orgId}/translations/${id}`).set(admin.auth).expect(200)).body.stats.latestPages).toBe(0);

    // A new term for the pair: every page is translated again, unchanged sources included.
    const gardenId = (await list()).items.find((e: { translations: { en?: string } }) => e.translations.en === 'garden').id;
    await put([{ type: 'update', id: gardenId, translations: { en: 'garden', fr: 'jardin', es: 'huerto' } }]).expect(204);
    await t.http.post(`/v1/orgs/${orgId}/translations/${id}/run`).set(admin.auth).expect(204);
    expect(await runs.run(id)).toBe('completed');
    expect((await t.http.get(`/v1/orgs/${orgId}/translations/${id}`).set(admin.auth).expect(200)).body.stats.latestPages).toBe(2);
    // (Apertium capitalizes the word after an inline element as a new sentence: "El huerto Es verde.")
    expect(await markdown(pages[1].id)).toMatch(/^El huerto es verde\.\n$/i);
    // A term for another pair (French) changes nothing for this one.
    await put([{ type: 'insert', translations: { en: 'weather', fr: 'météo' } }]).expect(204);
    await t.http.post(`/v1/orgs/${orgId}/translations/${id}/run`).set(admin.auth).expect(204);
    expect(await runs.run(id)).toBe('completed');
    expect((await t.http.get(`/v1/orgs/${orgId}/translations/${id}`).set(admin.auth).expect(200)).body.stats.latestPages).toBe(0);
  });
});
