import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TranslationsService } from '@app/translations';
import { markdownToDocument } from '@app/content-model';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges, spaceWithPages } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/** Pages of a small English handbook: headings, prose with marks, inline code, links, a list, code and a table. */
const HANDBOOK = [
  {
    title: 'Getting started',
    markdown: [
      '## Install the package',
      '',
      'Run `npm install quire` and read the [installation guide](https://example.com/docs/install?lang=en) before you start.',
      '',
      '- The house is **red**.',
      '- The dog sleeps in the garden.',
      '',
      '```bash',
      'npm install quire --save',
      'export QUIRE_TOKEN=secret # the token',
      '```',
      '',
      '| Option | Meaning |',
      '| --- | --- |',
      '| `timeout` | The time to wait |',
    ].join('\n'),
  },
  { title: 'Configuration', markdown: '### The settings file\n\nThe file is small. See [the reference](https://example.com/ref).' },
  { title: 'Frequently asked questions', markdown: 'Where is the cat? The cat is in the house.' },
];

describe('translations', () => {
  let t: TestApp;
  let admin: TestUser;
  let creator: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let runs: TranslationsService;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    runs = t.app.get(TranslationsService);
    admin = await t.user('admin');
    creator = await t.user('creator');
    editor = await t.user('editor');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, creator, 'create');
    await t.member(orgId, editor, 'edit');
    await t.member(orgId, reader, 'read');
    otherOrgId = await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => t.close());

  const base = (org = orgId) => `/v1/orgs/${org}/translations`;
  const spaceWith = (pages: { title: string; markdown: string }[], org = orgId, who = admin) =>
    spaceWithPages(t, who, org, pages, { title: 'Handbook', language: 'en' });
  const merge = (spaceId: string, changes: object[], who = admin) => mergeChanges(t, who, spaceId, changes);
  const pagesOf = async (spaceId: string) =>
    (await t.http.get(`/v1/spaces/${spaceId}/content/pages`).set(admin.auth).expect(200)).body.pages as {
      id: string;
      title: string;
      pages: { id: string; title: string }[];
    }[];
  const markdownOf = async (spaceId: string, pageId: string) =>
    (await t.http.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`).set(admin.auth).expect(200)).body.markdown as string;
  const documentOf = async (spaceId: string, pageId: string) =>
    (await t.http.get(`/v1/spaces/${spaceId}/content/page/${pageId}`).set(admin.auth).expect(200)).body.document as unknown;
  const create = (body: object, who = admin, org = orgId) => t.http.post(base(org)).set(who.auth).send(body);
  const get = async (id: string, who = admin) => (await t.http.get(`${base()}/${id}`).set(who.auth).expect(200)).body;

  it('translates an English space into Spanish with the real Apertium: prose changes language, code and links stay byte-identical', async () => {
    const source = await spaceWith(HANDBOOK);
    const res = await create({ language: 'es', source: { space: source, language: 'en' } }).expect(201);
    expect(schemas.check('Translation', res.body)).toBe('');
    expect(res.body).toMatchObject({
      object: 'translation',
      status: 'pending',
      source: { space: source, language: 'en' },
      language: 'es',
      instructions: { object: 'document', nodes: [] },
      stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
      permissions: { view: true, edit: true },
    });
    expect(res.body.result).toBeUndefined();
    expect(res.body.urls.location).toMatch(new RegExp(`/v1/orgs/${orgId}/translations/${res.body.id}$`));

    expect(await runs.run(res.body.id)).toBe('completed');
    const done = await get(res.body.id);
    expect(schemas.check('Translation', done)).toBe('');
    // And against the document Quire serves, every object closed: each field it returns is described there.
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('POST', `/v1/orgs/${orgId}/translations`, 201, res.body)).toEqual([]);
    expect(served.check('GET', `/v1/orgs/${orgId}/translations/${res.body.id}`, 200, done)).toEqual([]);
    expect(done.result).toBeDefined();
    expect(done.latestRun).toBeDefined();
    expect(done.status).toBe('completed');
    expect(done.latestRun).toMatchObject({ status: 'completed', translator: 'apertium', error: null });
    expect(done.stats).toMatchObject({ runs: 1, totalPages: 3, latestPages: 3 });
    expect(done.stats.latestWords).toBeGreaterThan(40);
    expect(done.stats.totalWords).toBe(done.stats.latestWords);
    const target = done.result.space as string;
    expect(done.result.language).toBe('es');

    // The target space: same organization, Spanish, beside its source, at the revision the run wrote.
    const space = (await t.http.get(`/v1/spaces/${target}`).set(reader.auth).expect(200)).body;
    expect(space).toMatchObject({ language: 'es', title: 'Handbook (es)', organization: orgId, revision: done.result.revision });

    const [sourcePages, targetPages] = [await pagesOf(source), await pagesOf(target)];
    expect(targetPages.map((p) => p.id)).toEqual(sourcePages.map((p) => p.id));
    expect(targetPages.map((p) => p.title)).toEqual(['Empezando', 'Configuración', 'Frecuentemente pidió preguntas']);

    const page = await markdownOf(target, targetPages[0].id);
    // Headings stay headings, lists stay lists, the table stays a table; prose is Spanish.
    expect(page).toMatch(/^## Instalar el envase$/m);
    expect(page).toMatch(/^- La casa es \*\*roja\*\*\.$/m);
    expect(page).toMatch(/^- Los sueños de perro en el jardín\.$/m);
    expect(page).toMatch(/^\| Opción +\| Significado +\|$/m);
    // Code and link targets: byte-identical.
    expect(page).toContain('`npm install quire`');
    expect(page).toContain('```bash\nnpm install quire --save\nexport QUIRE_TOKEN=secret # the token\n```');
    expect(page).toContain('(https://example.com/docs/install?lang=en)');
    expect(page).toMatch(/^\| `timeout` +\| /m);
    expect(page).not.toMatch(/The house is|Install the package/);
    expect(await markdownOf(target, targetPages[2].id)).toBe('Dónde es el gato? El gato es en la casa.\n');

    // Search in the target space finds the Spanish words.
    const hits = (await t.http.get(`/v1/spaces/${target}/search?query=jardín`).set(admin.auth).expect(200)).body.items;
    expect(hits.map((h: { id: string }) => h.id)).toContain(targetPages[0].id);
  });

  it('a second run after editing one page translates that page only; the others keep their translation (and edits made in the target)', async () => {
    const source = await spaceWith(HANDBOOK);
    const id = (await create({ language: 'es', source: { space: source, language: 'en' } }).expect(201)).body.id;
    expect(await runs.run(id)).toBe('completed');
    const first = await get(id);
    const target = first.result.space as string;
    const pages = await pagesOf(source);
    const before = await Promise.all(pages.map((p) => documentOf(target, p.id)));

    // Someone polishes the Spanish of page 3 in the target space: an unchanged source page keeps it.
    await merge(target, [{ operation: 'update_page', page: pages[2].id, document: { markdown: '¿Dónde está el gato? Está en casa.' } }]);
    await merge(source, [{ operation: 'update_page', page: pages[1].id, document: { markdown: 'The garden is green.' } }]);
    await t.http.post(`${base()}/${id}/run`).set(creator.auth).expect(204);
    expect((await get(id)).status).toBe('pending');
    expect(await runs.run(id)).toBe('completed');
    const second = await get(id);
    expect(second.stats).toMatchObject({ runs: 2, latestPages: 1, totalPages: 3, latestWords: 5 });
    // 'Configuration' and 'The garden is green.'
    expect(second.stats.totalWords).toBe(first.stats.totalWords + 5);
    expect(second.result.space).toBe(target);
    expect(second.result.revision).not.toBe(first.result.revision);
    expect(await markdownOf(target, pages[1].id)).toBe('El jardín es verde.\n');
    expect(await documentOf(target, pages[0].id)).toEqual(before[0]);
    expect(await markdownOf(target, pages[2].id)).toBe('¿Dónde está el gato? Está en casa.\n');

    // Nothing changed: a run translates nothing and keeps the content.
    await t.http.post(`${base()}/${id}/run`).set(admin.auth).expect(204);
    expect(await runs.run(id)).toBe('completed');
    const third = await get(id);
    expect(third.stats).toMatchObject({ runs: 3, latestPages: 0, latestWords: 0, totalWords: second.stats.totalWords });

    // A page added, a page deleted: the target follows the source's structure.
    await merge(source, [
      { operation: 'delete_page', page: pages[2].id },
      { operation: 'insert_page', title: 'The red book', document: { markdown: 'The book is on the table.' } },
    ]);
    await t.http.post(`${base()}/${id}/run`).set(admin.auth).expect(204);
    expect(await runs.run(id)).toBe('completed');
    const titles = (await pagesOf(target)).map((p) => p.title);
    expect(titles).toEqual(['Empezando', 'Configuración', 'El libro rojo']);
  });

  it('a run whose source space was deleted fails with the reason recorded and writes nothing', async () => {
    const source = await spaceWith([HANDBOOK[2]]);
    const id = (await create({ language: 'es', source: { space: source, language: 'en' } }).expect(201)).body.id;
    expect(await runs.run(id)).toBe('completed');
    const done = await get(id);
    await t.http.delete(`/v1/spaces/${source}`).set(admin.auth).expect(205);
    await t.http.post(`${base()}/${id}/run`).set(admin.auth).expect(204);
    expect(await runs.run(id)).toBe('failed');
    const failed = await get(id);
    expect(schemas.check('Translation', failed)).toBe('');
    expect(failed.status).toBe('pending');
    expect(failed.latestRun).toMatchObject({ status: 'failed', translator: null });
    expect(failed.latestRun.error).toMatch(/source space .* was deleted/);
    expect(failed.stats).toMatchObject({ runs: 2, latestPages: 0, latestWords: 0, totalWords: done.stats.totalWords });
    expect(failed.result).toEqual(done.result);
    expect((await t.http.get(`/v1/spaces/${done.result.space}`).set(admin.auth).expect(200)).body.revision).toBe(done.result.revision);
  });

  it('a target space deleted since the last run is replaced by a new one', async () => {
    const source = await spaceWith([HANDBOOK[1]]);
    const id = (await create({ language: 'es', source: { space: source, language: 'en' } }).expect(201)).body.id;
    await runs.run(id);
    const first = (await get(id)).result.space;
    await t.http.delete(`/v1/spaces/${first}`).set(admin.auth).expect(205);
    await t.http.post(`${base()}/${id}/run`).set(admin.auth).expect(204);
    expect(await runs.run(id)).toBe('completed');
    const again = await get(id);
    expect(again.result.space).not.toBe(first);
    expect(again.stats.latestPages).toBe(1);
    expect((await pagesOf(again.result.space)).map((p) => p.title)).toEqual(['Configuración']);
  });

  it('one run at a time: a second claim gets nothing, a run asked for during a run follows it', async () => {
    const source = await spaceWith([HANDBOOK[2]]);
    const id = (await create({ language: 'es', source: { space: source, language: 'en' } }).expect(201)).body.id;
    const [a, b] = await Promise.all([runs.run(id), runs.run(id)]);
    expect([a, b].sort()).toEqual(['completed', 'skipped']);
    expect(await runs.run(id)).toBe('skipped');
    expect((await get(id)).stats.runs).toBe(1);
    // The sweep finds nothing waiting now; a requested run older than the grace period is sent again.
    expect(await runs.sweep()).toBe(0);
    await t.http.post(`${base()}/${id}/run`).set(admin.auth).expect(204);
    t.clock.advance(61_000);
    expect(await runs.sweep()).toBeGreaterThanOrEqual(1);
  });

  it('a pair Apertium does not have here is a 400 naming the Debian package, on create', async () => {
    const source = await spaceWith([HANDBOOK[2]]);
    expectError(await create({ language: 'fr', source: { space: source, language: 'en' } }), 400, /apertium-eng-fra/);
    expectError(await create({ language: 'en', source: { space: source, language: 'en' } }), 400, /language/);
    expect(
      (await t.http.get(`${base()}?limit=1000`).set(admin.auth).expect(200)).body.items.map((x: { language: string }) => x.language),
    ).not.toContain('fr');
  });

  it('instructions: set on create and by PUT (a document), checked', async () => {
    const source = await spaceWith([HANDBOOK[2]]);
    const instructions = markdownToDocument('Use tú, not usted.').document;
    const created = (await create({ language: 'es', source: { space: source, language: 'en' }, instructions }).expect(201)).body;
    expect(JSON.stringify(created.instructions)).toContain('Use tú, not usted.');
    const put = await t.http
      .put(`${base()}/${created.id}`)
      .set(creator.auth)
      .send({ instructions: markdownToDocument('Keep **product names** in English.').document });
    expect(put.status).toBe(200);
    expect(schemas.check('Translation', put.body)).toBe('');
    expect(JSON.stringify(put.body.instructions)).toContain('product names');
    expect(JSON.stringify((await get(created.id)).instructions)).toContain('product names');
    expectError(await t.http.put(`${base()}/${created.id}`).set(admin.auth).send({}), 400, /instructions/);
    expectError(await t.http.put(`${base()}/${created.id}`).set(admin.auth).send({ instructions: 'plain' }), 400, /instructions/);
    expectError(
      await t.http
        .put(`${base()}/${created.id}`)
        .set(admin.auth)
        .send({ instructions: { object: 'nope' } }),
      400,
      /instructions/,
    );
  });

  it('lists with paging, oldest first; DELETE answers 205 then 204 and leaves the target space', async () => {
    const org = await t.organization(admin, 'Paging');
    const source = await spaceWith([HANDBOOK[2]], org);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await create({ language: 'es', source: { space: source, language: 'en' } }, admin, org).expect(201)).body.id);
      t.clock.advance(1000);
    }
    const first = (
      await t.http
        .get(`${base(org)}?limit=2`)
        .set(admin.auth)
        .expect(200)
    ).body;
    expect(first.count).toBe(3);
    expect(first.items.map((x: { id: string }) => x.id)).toEqual(ids.slice(0, 2));
    const second = (
      await t.http
        .get(`${base(org)}?limit=2&page=${first.next.page}`)
        .set(admin.auth)
        .expect(200)
    ).body;
    expect(second.items.map((x: { id: string }) => x.id)).toEqual([ids[2]]);
    expect(second.next).toBeUndefined();
    expectError(await t.http.get(`${base(org)}?page=forged-cursor`).set(admin.auth), 400, /page/);

    expect(await runs.run(ids[0])).toBe('completed');
    const result = (
      await t.http
        .get(`${base(org)}/${ids[0]}`)
        .set(admin.auth)
        .expect(200)
    ).body.result.space;
    await t.http
      .delete(`${base(org)}/${ids[0]}`)
      .set(admin.auth)
      .expect(205);
    await t.http
      .delete(`${base(org)}/${ids[0]}`)
      .set(admin.auth)
      .expect(204);
    expectError(await t.http.get(`${base(org)}/${ids[0]}`).set(admin.auth), 404, /Translation/);
    await t.http.get(`/v1/spaces/${result}`).set(admin.auth).expect(200);
    // A run of a deleted translation has nothing to take.
    expect(await runs.run(ids[0])).toBe('skipped');
    expectError(await t.http.post(`${base(org)}/${ids[0]}/run`).set(admin.auth), 404, /Translation/);
  });

  it('roles: members read; create and up manage; others get 403, non-members 404', async () => {
    const source = await spaceWith([HANDBOOK[2]]);
    const id = (await create({ language: 'es', source: { space: source, language: 'en' } }, creator).expect(201)).body.id;
    for (const who of [reader, editor]) {
      const seen = await get(id, who);
      expect(seen.permissions).toEqual({ view: true, edit: false });
      expectError(await create({ language: 'es', source: { space: source, language: 'en' } }, who), 403, /create/);
      expectError(
        await t.http
          .put(`${base()}/${id}`)
          .set(who.auth)
          .send({ instructions: { markdown: 'x' } }),
        403,
        /create/,
      );
      expectError(await t.http.post(`${base()}/${id}/run`).set(who.auth), 403, /create/);
      expectError(await t.http.delete(`${base()}/${id}`).set(who.auth), 403, /create/);
    }
    expect((await get(id, creator)).permissions).toEqual({ view: true, edit: true });
    expectError(await t.http.get(`${base()}/${id}`).set(outsider.auth), 404, /Translation/);
    expectError(await t.http.get(base()).set(outsider.auth), 404);
    expectError(await t.http.post(`${base()}/${id}/run`).set(outsider.auth), 404);
    expectError(
      await t.http
        .put(`${base()}/${id}`)
        .set(outsider.auth)
        .send({ instructions: { markdown: 'x' } }),
      404,
    );
    await t.http.delete(`${base()}/${id}`).set(outsider.auth).expect(204);
    await get(id);
  });

  it('tenant isolation: another organization’s space is not a source, its translations are not reachable through ours', async () => {
    const foreign = await spaceWith([HANDBOOK[2]], otherOrgId, outsider);
    expectError(await create({ language: 'es', source: { space: foreign, language: 'en' } }), 400, /source\.space/);
    const theirs = (await create({ language: 'es', source: { space: foreign, language: 'en' } }, outsider, otherOrgId).expect(201)).body.id;
    expectError(await t.http.get(`${base()}/${theirs}`).set(admin.auth), 404, /Translation/);
    expectError(await t.http.post(`${base()}/${theirs}/run`).set(admin.auth), 404);
    await t.http.delete(`${base()}/${theirs}`).set(admin.auth).expect(204);
    await t.http
      .get(`${base(otherOrgId)}/${theirs}`)
      .set(outsider.auth)
      .expect(200);
  });

  it('hostile input answers 400, never 500', async () => {
    const source = await spaceWith([HANDBOOK[2]]);
    const bad: [object, RegExp][] = [
      [{}, /language/],
      [{ language: 'es' }, /source/],
      [{ language: 'xx', source: { space: source, language: 'en' } }, /language/],
      [{ language: null, source: { space: source, language: 'en' } }, /language/],
      [{ language: 'es', source: null }, /source/],
      [{ language: 'es', source: { space: null, language: 'en' } }, /space/],
      [{ language: 'es', source: { space: 0x10, language: 'en' } }, /space/],
      [{ language: 'es', source: { space: source, language: 'klingon' } }, /language/],
      [{ language: 'es', source: { space: 'sp\u0000ace', language: 'en' } }, /NUL/],
      [{ language: 'es', source: { space: 'x'.repeat(101), language: 'en' } }, /space/],
      [{ language: 'es', source: { space: source, language: 'en' }, instructions: 'text' }, /instructions/],
      [{ language: 'es', source: { space: source, language: 'en' }, instructions: { object: 'document', nodes: 'x' } }, /instructions/],
      [{ language: ['es'], source: { space: source, language: 'en' } }, /language/],
      [{ language: 'es', source: { space: 'missing', language: 'en' } }, /not found/],
    ];
    for (const [body, message] of bad) expectError(await create(body), 400, message);
    expectError(await t.http.get(`${base()}?limit=0x10`).set(admin.auth), 400, /limit/);
    expectError(await t.http.get(`${base()}/a%00b`).set(admin.auth), 404);
  });
});

/** A LibreTranslate-compatible service on loopback, chosen by configuration before Apertium. */
describe('translations through a configured LibreTranslate service', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let server: Server;
  let served = [{ code: 'en', targets: ['de'] }];
  let failing = false;
  const requests: { q: string[]; source: string; target: string; format: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.url === '/languages') return res.end(JSON.stringify(served));
        if (failing) {
          res.statusCode = 500;
          return res.end('{"error":"upstream key sk-secret-123 refused"}');
        }
        const input = JSON.parse(body) as (typeof requests)[number];
        requests.push(input);
        // "Translates" by upper-casing the text between tags.
        const out = input.q.map((h) => h.replace(/(^|>)([^<]*)/g, (_m, gt: string, text: string) => gt + text.toUpperCase()));
        res.end(JSON.stringify({ translatedText: out }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    t = await createTestApp({ QUIRE_APERTIUM: 'off', QUIRE_LIBRETRANSLATE_URL: `http://127.0.0.1:${port}` });
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  it('serves the pair it offers (HTML format); when it stops offering it, the run fails with the reason and writes nothing', async () => {
    const space = await spaceWithPages(t, admin, orgId, [{ title: 'Intro', markdown: 'Read `the code` and [this](https://x.test/a).' }]);
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space, language: 'en' } }),
      400,
      /libretranslate does not translate en → es/,
    );
    const id = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'de', source: { space, language: 'en' } })
        .expect(201)
    ).body.id;
    const runs = t.app.get(TranslationsService);
    expect(await runs.run(id)).toBe('completed');
    const done = (await t.http.get(`/v1/orgs/${orgId}/translations/${id}`).set(admin.auth).expect(200)).body;
    expect(done.latestRun.translator).toBe('libretranslate');
    expect(requests.every((r) => r.format === 'html' && r.source === 'en' && r.target === 'de')).toBe(true);
    const pages = (await t.http.get(`/v1/spaces/${done.result.space}/content/pages`).set(admin.auth).expect(200)).body.pages;
    expect(pages[0].title).toBe('INTRO');
    const md = (await t.http.get(`/v1/spaces/${done.result.space}/content/page/${pages[0].id}?format=markdown`).set(admin.auth).expect(200))
      .body.markdown;
    expect(md).toBe('READ `the code` AND [THIS](https://x.test/a).\n');

    served = [];
    await t.http.post(`/v1/orgs/${orgId}/translations/${id}/run`).set(admin.auth).expect(400);
    // The pair went away between the request and the run: the run fails, recorded, nothing written.
    served = [{ code: 'en', targets: ['de'] }];
    await t.http.post(`/v1/orgs/${orgId}/translations/${id}/run`).set(admin.auth).expect(204);
    served = [];
    expect(await runs.run(id)).toBe('failed');
    const failed = (await t.http.get(`/v1/orgs/${orgId}/translations/${id}`).set(admin.auth).expect(200)).body;
    expect(failed).toMatchObject({ status: 'pending', latestRun: { status: 'failed' }, result: done.result });
    expect(failed.latestRun.error).toMatch(/No translator serves en → de: libretranslate does not translate en → de/);
    expect((await t.http.get(`/v1/spaces/${done.result.space}`).set(admin.auth).expect(200)).body.revision).toBe(done.result.revision);
  });

  it('a document translated on request: 10 a minute per caller (429 beyond); a failing translator is a 502 that tells nothing of it', async () => {
    served = [{ code: 'en', targets: ['de'] }];
    const space = await spaceWithPages(t, admin, orgId, [{ title: 'Intro', markdown: 'Hello there.' }]);
    const page = (await t.http.get(`/v1/spaces/${space}/content/pages`).set(admin.auth).expect(200)).body.pages[0];
    const id = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'de', source: { space, language: 'en' } })
        .expect(201)
    ).body.id as string;
    const compute = () =>
      t.http
        .post(`/v1/spaces/${space}/content/computed/document`)
        .set(admin.auth)
        .send({
          source: {
            type: 'builtin:translation',
            props: { space, document: page.documentId },
            dependencies: { translation: { ref: { kind: 'translation', translation: id } } },
          },
          seed: 's',
        });
    failing = true;
    try {
      const failed = await compute();
      expectError(failed, 502, /The translator failed; try again later/);
      expect(JSON.stringify(failed.body)).not.toMatch(/127\.0\.0\.1|sk-secret|500/);
    } finally {
      failing = false;
    }
    t.clock.advance(60_000);
    for (let i = 0; i < 10; i++) expect(JSON.stringify((await compute().expect(200)).body)).toContain('HELLO THERE.');
    expectError(await compute(), 429, /10 documents a minute/);
    t.clock.advance(60_000);
    await compute().expect(200);
  });
});

describe('translation runs as background jobs', () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_JOBS: 'on' });
    admin = await t.user('admin');
  });
  afterAll(async () => t.close());

  it('creating a translation starts its first run in the background; POST …/run starts the next', async () => {
    const orgId = await t.organization(admin);
    const space = await spaceWithPages(t, admin, orgId, [{ title: 'Welcome', markdown: 'The house is red.' }]);
    const id = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space, language: 'en' } })
        .expect(201)
    ).body.id;
    const until = async (ok: (body: { status: string; stats: { runs: number } }) => boolean) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const body = (await t.http.get(`/v1/orgs/${orgId}/translations/${id}`).set(admin.auth).expect(200)).body;
        if (ok(body)) return body;
        if (Date.now() > deadline) throw new Error(`translation still ${body.status}`);
        await new Promise((r) => setTimeout(r, 150));
      }
    };
    const done = await until((b) => b.status === 'completed');
    expect(done.stats.runs).toBe(1);
    await t.http.post(`/v1/orgs/${orgId}/translations/${id}/run`).set(admin.auth).expect(204);
    const again = await until((b) => b.status === 'completed' && b.stats.runs === 2);
    expect(again.stats.latestPages).toBe(0);
  });
});
