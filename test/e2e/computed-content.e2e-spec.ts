import { GitBookAPI } from '@gitbook/api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DataSource } from 'typeorm';
import { OpenApiProcessing } from '@app/openapi-specs';
import { TranslationsService } from '@app/translations';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { spaceWithPages } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/** The real Swagger 2.0 petstore (its operations, tags and models), as people publish it. */
const PETSTORE = readFileSync(join(process.cwd(), 'libs/openapi-specs/src/test/fixtures/swagger-2.0-petstore.yaml'), 'utf8');

interface Block {
  object: string;
  type: string;
  data?: Record<string, unknown>;
  nodes?: (Block | { object: 'text'; leaves: { text: string }[] })[];
}
const blocksOf = (doc: { nodes: Block[] }, type: string) => doc.nodes.filter((n) => n.type === type);
const textOf = (nodes: Block['nodes'] = []): string =>
  nodes
    .map((n) =>
      n.object === 'text' ? (n as { leaves: { text: string }[] }).leaves.map((l) => l.text).join('') : textOf((n as Block).nodes),
    )
    .join('');

/**
 * Computed content (#52, official getComputedDocument, getComputedRevision): an API reference computed from one
 * of the organization's OpenAPI specs (`builtin:openapi`), a document translated now and a translation's result
 * (`builtin:translation`, the real Apertium). Nothing is written; the same seed gives the same ids.
 */
describe('computed content', () => {
  let t: TestApp;
  let admin: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let space: string;
  let api: GitBookAPI;
  const official = officialValidator();
  const petstore = parseYaml(PETSTORE) as {
    tags: { name: string; description: string }[];
    paths: Record<string, Record<string, { tags: string[]; summary: string }>>;
    definitions: Record<string, unknown>;
    info: { description: string };
  };
  const openapi = (props: object) => ({
    type: 'builtin:openapi',
    dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
    props,
  });
  const compute = (kind: 'document' | 'revision', body: unknown, who = admin, at = space) =>
    t.http
      .post(`/v1/spaces/${at}/content/computed/${kind}`)
      .set(who.auth)
      .send(body as object);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    guest = await t.user('guest');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, guest, null);
    await t.organization(outsider, 'Elsewhere');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
    space = await spaceWithPages(t, admin, orgId, [{ title: 'Start', markdown: 'The house is red.' }], {
      title: 'Handbook',
      language: 'en',
    });
    await t.http
      .post(`/v1/orgs/${orgId}/openapi`)
      .set(admin.auth)
      .send({ slug: 'petstore', source: { text: PETSTORE } })
      .expect(201);
    // Jobs are off here: the spec is processed as its job would.
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT id, source_revision FROM openapi_specs WHERE organization_id = $1 AND slug = $2', [orgId, 'petstore']);
    expect(await t.app.get(OpenApiProcessing).process(row.id, Number(row.source_revision))).toBe('processed');
  });
  afterAll(async () => t.close());

  it('computes documents from a spec through the official client: an operation, a tag’s operations, a tag, the info, the models', async () => {
    const operation = await api.spaces.getComputedDocument(space, {
      source: openapi({ doc: 'operation', page: '/pet', method: 'post' }) as never,
      seed: 'one',
    });
    expect(operation.status).toBe(200);
    expect(official.check('JSONDocument', operation.data)).toBe('');
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('POST', '/v1/spaces/{spaceId}/content/computed/document', 200, operation.data)).toEqual([]);
    const [block] = blocksOf(operation.data as never, 'openapi-operation');
    expect(block.data).toEqual({ ref: { kind: 'openapi', spec: 'petstore' }, path: '/pet', method: 'post' });

    // A tag's operations: every operation whose first tag it is, in the document's order.
    const pet = (await compute('document', { source: openapi({ doc: 'operations', page: 'pet' }), seed: 'one' }).expect(200)).body;
    const expected = Object.entries(petstore.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.tags?.[0] === 'pet')
        .map(([method]) => ({ path, method })),
    );
    expect(blocksOf(pet, 'openapi-operation').map((b) => ({ path: b.data!.path, method: b.data!.method }))).toEqual(expected);
    expect(expected.length).toBeGreaterThan(5);

    const store = (await compute('document', { source: openapi({ doc: 'tag', page: 'store' }), seed: 'one' }).expect(200)).body;
    expect(textOf(store.nodes)).toBe('Access to Petstore orders');
    const info = (await compute('document', { source: openapi({ doc: 'info', page: 'petstore' }), seed: 'one' }).expect(200)).body;
    expect(textOf(info.nodes)).toContain('This is a sample server Petstore server.');
    const models = (await compute('document', { source: openapi({ doc: 'models' }), seed: 'one' }).expect(200)).body;
    expect(blocksOf(models, 'openapi-schemas').flatMap((b) => b.data!.schemas as string[])).toEqual(Object.keys(petstore.definitions));

    // What the spec does not have is a 404; what the request gets wrong, a 400.
    expectError(
      await compute('document', { source: openapi({ doc: 'operation', page: '/pet', method: 'get' }), seed: 'x' }),
      404,
      /Operation/,
    );
    expectError(await compute('document', { source: openapi({ doc: 'operations', page: 'nope' }), seed: 'x' }), 404, /Tag/);
    expectError(
      await compute('document', { source: openapi({ doc: 'operation', page: 'newPet', method: 'hook' }), seed: 'x' }),
      404,
      /Webhook/,
    );
    expectError(
      await compute('document', {
        source: { ...openapi({ doc: 'models' }), dependencies: { spec: { ref: { kind: 'openapi', spec: 'nope' } } } },
        seed: 'x',
      }),
      404,
      /OpenAPI spec/,
    );
  });

  it('refuses what it cannot compute and hostile input (400, never 500)', async () => {
    for (const body of [
      {},
      { seed: 'x' },
      { source: openapi({ doc: 'models' }) },
      { source: openapi({ doc: 'models' }), seed: null },
      { source: openapi({ doc: 'models' }), seed: '' },
      { source: openapi({ doc: 'models' }), seed: 'x'.repeat(201) },
      { source: openapi({ doc: 'models' }), seed: 0x10 },
      { source: 'builtin:openapi', seed: 'x' },
      { source: { type: null }, seed: 'x' },
      { source: { type: 'builtin:nope', props: {} }, seed: 'x' },
      { source: { type: 'integration:github:files', props: {} }, seed: 'x' },
      { source: openapi({ doc: 'everything' }), seed: 'x' },
      { source: openapi({ doc: 'operation', page: '/pet', method: 'fetch' }), seed: 'x' },
      { source: openapi({ doc: 'operation', page: '', method: 'get' }), seed: 'x' },
      { source: openapi({ doc: 'tag', page: null }), seed: 'x' },
      { source: openapi({ doc: 'operation', page: '/pet', method: 'post', deprecated: 'yes' }), seed: 'x' },
      { source: { ...openapi({ doc: 'models' }), props: 'models' }, seed: 'x' },
      { source: { ...openapi({ doc: 'models' }), dependencies: { spec: { ref: { kind: 'space', spec: 'petstore' } } } }, seed: 'x' },
      { source: { ...openapi({ doc: 'models' }), dependencies: {} }, seed: 'x' },
      { source: { ...openapi({ doc: 'models' }), dependencies: { spec: { ref: { kind: 'openapi', spec: 'a\u0000b' } } } }, seed: 'x' },
    ])
      expectError(await compute('document', body), 400);
    expectError(await compute('document', { source: { type: 'integration:github:files', props: {} }, seed: 'x' }), 400, /no integrations/);
    for (const props of [{}, { models: 'yes' }, { models: true, grouping: 'by-path' }, { models: true, downloadLink: 1 }])
      expectError(await compute('revision', { source: openapi(props), seed: 'x' }), 400);
    expectError(await t.http.post(`/v1/spaces/${space}/content/computed/document?schema=old`).set(admin.auth).send({}), 400);
  });

  it('computes a whole API reference: a page per tag, or per operation under its tag, and the models; ids follow the seed', async () => {
    const byTag = await api.spaces.getComputedRevision(space, { source: openapi({ models: true }) as never, seed: 'docs' });
    expect(byTag.status).toBe(200);
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('POST', '/v1/spaces/{spaceId}/content/computed/revision', 200, byTag.data)).toEqual([]);
    for (const page of byTag.data.pages) expect(official.check('RevisionPage', page)).toBe('');
    const pages = byTag.data.pages as unknown as {
      id: string;
      title: string;
      slug: string;
      document: { nodes: Block[] };
      pages: unknown[];
    }[];
    expect(pages.map((p) => p.title)).toEqual([...petstore.tags.map((tag) => tag.name), 'Models']);
    expect(pages.map((p) => p.slug)).toEqual(['pet', 'store', 'user', 'models']);
    // The store page: its description, then its operations.
    expect(textOf(pages[1].document.nodes.slice(0, 1))).toBe('Access to Petstore orders');
    expect(blocksOf(pages[1].document, 'openapi-operation')).toHaveLength(
      Object.values(petstore.paths).flatMap((item) => Object.values(item).filter((op) => op.tags?.[0] === 'store')).length,
    );
    expect(byTag.data.files).toEqual([]);
    expect(byTag.data.reusableContents).toEqual([]);

    // The same seed gives the same ids; another seed, others.
    const again = (await compute('revision', { source: openapi({ models: true }), seed: 'docs' }).expect(200)).body;
    expect(again.pages.map((p: { id: string }) => p.id)).toEqual(pages.map((p) => p.id));
    const other = (await compute('revision', { source: openapi({ models: true }), seed: 'other' }).expect(200)).body;
    expect(other.pages.map((p: { id: string }) => p.id).filter((id: string) => pages.some((p) => p.id === id))).toEqual([]);
    // Another spec computed with the same seed gets other ids (both may go into one space).
    await t.http
      .post(`/v1/orgs/${orgId}/openapi`)
      .set(admin.auth)
      .send({ slug: 'petstore-copy', source: { text: PETSTORE } })
      .expect(201);
    const [copy] = await t.app
      .get(DataSource)
      .query('SELECT id, source_revision FROM openapi_specs WHERE organization_id = $1 AND slug = $2', [orgId, 'petstore-copy']);
    await t.app.get(OpenApiProcessing).process(copy.id, Number(copy.source_revision));
    const copied = (
      await compute('revision', {
        source: { ...openapi({ models: true }), dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore-copy' } } } },
        seed: 'docs',
      }).expect(200)
    ).body;
    expect(copied.pages.map((p: { title: string }) => p.title)).toEqual(pages.map((p) => p.title));
    expect(copied.pages.map((p: { id: string }) => p.id).filter((id: string) => pages.some((p) => p.id === id))).toEqual([]);

    // By operation: each operation its own page (titled by its summary) under its tag's page; no models page.
    const byOperation = (
      await compute('revision', { source: openapi({ models: false, grouping: 'by-operation' }), seed: 'docs' }).expect(200)
    ).body;
    expect(byOperation.pages.map((p: { title: string }) => p.title)).toEqual(['pet', 'store', 'user']);
    const first = byOperation.pages[0].pages[0];
    expect(first.title).toBe('Add a new pet to the store');
    expect(first.path).toBe(`pet/${first.slug}`);
    expect(blocksOf(first.document, 'openapi-operation')[0].data).toMatchObject({ path: '/pet', method: 'post' });

    // A download link only for a public spec.
    const link = async () =>
      (await compute('revision', { source: openapi({ models: false, downloadLink: true }), seed: 'docs' }).expect(200)).body.pages[0]
        .document.nodes[0];
    expect(textOf((await link()).nodes)).not.toContain('Download');
    const spec = (await t.http.patch(`/v1/orgs/${orgId}/openapi/petstore`).set(admin.auth).send({ visibility: 'public' }).expect(200)).body;
    const paragraph = await link();
    expect(textOf(paragraph.nodes)).toBe('Download the OpenAPI specification');
    expect(JSON.stringify(paragraph)).toContain(`/v1/openapi/public/${spec.id}`);
  });

  it('a document translated now (the glossary applied), a translation’s latest result; 409 before its first run', async () => {
    const runs = t.app.get(TranslationsService);
    const source = await spaceWithPages(t, admin, orgId, [{ title: 'Garden', markdown: 'The house is red. Run `make build` first.' }], {
      title: 'Guide',
      language: 'en',
    });
    const page = (await t.http.get(`/v1/spaces/${source}/content/pages`).set(admin.auth).expect(200)).body.pages[0];
    const translation = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space: source, language: 'en' } })
        .expect(201)
    ).body.id as string;
    const translated = (props: object, at = source) => ({
      source: { type: 'builtin:translation', props, dependencies: { translation: { ref: { kind: 'translation', translation } } } },
      seed: 'x',
      at,
    });
    const ask = (kind: 'document' | 'revision', b: ReturnType<typeof translated>, who = admin) =>
      compute(kind, { source: b.source, seed: b.seed }, who, b.at);

    const doc = (await ask('document', translated({ space: source, document: page.documentId })).expect(200)).body;
    expect(official.check('JSONDocument', doc)).toBe('');
    const words = textOf(doc.nodes);
    expect(words).toMatch(/casa/i);
    expect(words).toContain('make build');
    // The glossary's term for the pair is used.
    await t.http
      .put(`/v1/orgs/${orgId}/translations-glossary`)
      .set(admin.auth)
      .send({ operations: [{ type: 'insert', translations: { en: 'house', es: 'vivienda' } }] })
      .expect(204);
    expect(textOf((await ask('document', translated({ space: source, document: page.documentId })).expect(200)).body.nodes)).toContain(
      'vivienda',
    );
    expectError(await ask('document', translated({ space, document: page.documentId })), 400, /source space/);
    expectError(await ask('document', translated({ space: source, document: 'nope' })), 404);
    expectError(await ask('document', translated({ space: source })), 400);
    // A page too long to translate on request is a 413 (a run translates it).
    const long = await spaceWithPages(t, admin, orgId, [{ title: 'Long', markdown: 'The house is red. '.repeat(6000) }], {
      language: 'en',
    });
    const longPage = (await t.http.get(`/v1/spaces/${long}/content/pages`).set(admin.auth).expect(200)).body.pages[0];
    const longTranslation = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space: long, language: 'en' } })
        .expect(201)
    ).body.id as string;
    expectError(
      await compute(
        'document',
        {
          source: {
            type: 'builtin:translation',
            props: { space: long, document: longPage.documentId },
            dependencies: { translation: { ref: { kind: 'translation', translation: longTranslation } } },
          },
          seed: 'x',
        },
        admin,
        long,
      ),
      413,
      /100000 are translated on request/,
    );

    // The revision: 409 until a run completed, then the run's pages (their bodies inline), files and reusable contents.
    expectError(await ask('revision', translated({})), 409, /run it first/);
    expect(await runs.run(translation)).toBe('completed');
    const revision = (await ask('revision', translated({})).expect(200)).body;
    expect(revision.pages.map((p: { id: string }) => p.id)).toEqual([page.id]);
    // The pages are the target space's: their app URLs say so.
    const target = (await t.http.get(`/v1/orgs/${orgId}/translations/${translation}`).set(admin.auth).expect(200)).body.result.space;
    expect(revision.pages[0].urls.app).toContain(`/s/${target}/`);
    expect(textOf(revision.pages[0].document.nodes)).toContain('vivienda');
    expectError(await ask('revision', translated({ extra: true })), 400);
    const unknown = translated({});
    unknown.source.dependencies.translation.ref.translation = 'nope';
    expectError(await ask('revision', unknown), 404, /Translation/);
  });

  it('members who read the space compute; a guest of the space reaches no spec or translation; other organizations nothing', async () => {
    await t.http
      .post(`/v1/spaces/${space}/permissions`)
      .set(admin.auth)
      .send({ role: 'read', users: [guest.id] })
      .expect(204);
    expectError(await compute('document', { source: openapi({ doc: 'models' }), seed: 'x' }, guest), 404);
    expectError(await compute('document', { source: openapi({ doc: 'models' }), seed: 'x' }, outsider), 404);
    expectError(await compute('revision', { source: openapi({ models: true }), seed: 'x' }, outsider), 404);
    // The space is checked first: what an outsider sends is never judged.
    expectError(await compute('document', { source: { type: 'integration:github:files', props: {} }, seed: 'x' }, outsider), 404);
  });
});
