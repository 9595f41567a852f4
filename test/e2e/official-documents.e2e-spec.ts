import { createTestApp, TestApp, TestUser } from '../support/app';
import { leafTexts, nodeTypes, officialDocuments, wrongTypedDocuments } from '../support/official-documents';

/**
 * Property: every document the official JSONDocument schema accepts (generated from @gitbook/api's
 * schema with json-schema-faker, each confirmed by Ajv) is accepted wherever the API takes a document
 * (comments and replies, agent instructions, translation instructions, content batches), answers 2xx,
 * and comes back with every text and every block type it was sent with (nothing dropped).
 */
describe('every document the official schema accepts is accepted', () => {
  const DOCS = 200;
  const generated = officialDocuments(DOCS);
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let spaceId: string;
  let commentId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body.id;
    commentId = (
      await t.http
        .post(`/v1/spaces/${spaceId}/comments`)
        .set(admin.auth)
        .send({ body: { markdown: 'thread' } })
        .expect(200)
    ).body.id;
  });
  afterAll(async () => t.close());

  /** Sends each document through `send`, which answers the document as it came back. */
  const throughEach = async (send: (document: Record<string, unknown>) => Promise<{ status: number; document: unknown }>) => {
    const failures: string[] = [];
    let texts = 0;
    for (const { seed, document } of generated) {
      const res = await send(document);
      if (res.status < 200 || res.status >= 300) failures.push(`seed ${seed}: ${res.status}`);
      else if (JSON.stringify(leafTexts(res.document)) !== JSON.stringify(leafTexts(document))) failures.push(`seed ${seed}: texts differ`);
      else if (JSON.stringify(nodeTypes(res.document)) !== JSON.stringify(nodeTypes(document)))
        failures.push(`seed ${seed}: blocks differ`);
      texts += leafTexts(document).length;
    }
    expect(failures).toEqual([]);
    // The generated documents carry texts to come back, not only empty blocks.
    expect(texts).toBeGreaterThan(DOCS / 2);
  };

  /** Wrong-typed variants of generated documents: each input answers 400 naming the field, and stores nothing. */
  const WRONG = generated.slice(0, 25).flatMap(({ seed, document }) => wrongTypedDocuments(document, seed).map((w) => ({ seed, ...w })));
  const refusesEach = async (
    input: string,
    send: (document: Record<string, unknown>) => Promise<{ status: number; body: { error?: { message?: string } } }>,
  ) => {
    expect(WRONG.length).toBeGreaterThan(60);
    expect(new Set(WRONG.map((w) => w.where.replace(/.*\./, '')))).toEqual(new Set(['data', 'meta', 'leaves', 'marks']));
    expect(WRONG.some((w) => w.where === 'data')).toBe(true); // the document's own data
    const failures: string[] = [];
    for (const { seed, where, document } of WRONG) {
      const res = await send(document);
      const message = res.body.error?.message ?? '';
      if (res.status !== 400 || !message.includes(`${input}.${where} must be`))
        failures.push(`seed ${seed} ${where}: ${res.status} ${message}`);
    }
    expect(failures).toEqual([]);
  };

  it('a wrong type where the official schema wants an object or an array (data, meta, leaves, marks: a string, an array, null) answers 400 through each input, naming it', async () => {
    const newSpace = async (title: string) =>
      (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
    const [translated, untranslated] = [await newSpace('Translated'), await newSpace('Never translated')];
    const translation = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space: translated, language: 'en' } })
        .expect(201)
    ).body.id;
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const before = (await t.http.get(`/v1/orgs/${orgId}/agent-instructions`).set(admin.auth).expect(200)).body;
    await refusesEach('body.document', (document) =>
      t.http.post(`/v1/spaces/${spaceId}/comments`).set(admin.auth).send({ body: { document } }),
    );
    await refusesEach('body.document', (document) =>
      t.http.post(`/v1/spaces/${spaceId}/comments/${commentId}/replies`).set(admin.auth).send({ body: { document } }),
    );
    await refusesEach('instructions', (instructions) =>
      t.http.put(`/v1/orgs/${orgId}/agent-instructions`).set(admin.auth).send({ instructions }),
    );
    await refusesEach('instructions', (instructions) =>
      t.http.put(`/v1/orgs/${orgId}/translations/${translation}`).set(admin.auth).send({ instructions }),
    );
    await refusesEach('instructions', (instructions) =>
      t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space: untranslated, language: 'en' }, instructions }),
    );
    await refusesEach('document', (document) =>
      t.http
        .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)
        .set(admin.auth)
        .send({ changes: [{ operation: 'insert_page', title: 'Wrong', document: { document } }] }),
    );
    // Nothing was written by any of them.
    expect((await t.http.get(`/v1/orgs/${orgId}/agent-instructions`).set(admin.auth).expect(200)).body).toEqual(before);
    expect((await t.http.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content`).set(admin.auth).expect(200)).body.pages).toEqual([]);
    const sources = (await t.http.get(`/v1/orgs/${orgId}/translations`).set(admin.auth).expect(200)).body.items.map(
      (x: { source: { space: string } }) => x.source.space,
    );
    expect(sources).toEqual([translated]);
  });

  it('the case that was refused: a plain paragraph without `data` (optional in the official schema), through each input', async () => {
    const plain = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Plain words.', marks: [] }] }] },
      ],
    };
    const put = await t.http.put(`/v1/orgs/${orgId}/agent-instructions`).set(admin.auth).send({ instructions: plain }).expect(200);
    expect(leafTexts(put.body.instructions)).toEqual(['Plain words.']);
    const comment = await t.http
      .post(`/v1/spaces/${spaceId}/comments`)
      .set(admin.auth)
      .send({ body: { document: plain } })
      .expect(200);
    expect(comment.body.body.markdown.trim()).toBe('Plain words.');
  });

  it(`comments: ${DOCS} generated documents`, async () => {
    await throughEach(async (document) => {
      const res = await t.http.post(`/v1/spaces/${spaceId}/comments`).set(admin.auth).send({ body: { document } });
      if (res.status !== 200) return { status: res.status, document: null };
      const read = await t.http.get(`/v1/spaces/${spaceId}/comments/${res.body.id}?format=document`).set(admin.auth);
      return { status: read.status, document: read.body.body?.document };
    });
  });

  it(`replies: ${DOCS} generated documents`, async () => {
    await throughEach(async (document) => {
      const res = await t.http
        .post(`/v1/spaces/${spaceId}/comments/${commentId}/replies?format=document`)
        .set(admin.auth)
        .send({ body: { document } });
      return { status: res.status, document: res.body.body?.document };
    });
  });

  it(`agent instructions: ${DOCS} generated documents`, async () => {
    await throughEach(async (instructions) => {
      const res = await t.http.put(`/v1/orgs/${orgId}/agent-instructions`).set(admin.auth).send({ instructions });
      const read = await t.http.get(`/v1/orgs/${orgId}/agent-instructions`).set(admin.auth);
      return { status: res.status, document: read.body.instructions };
    });
  });

  it(`translation instructions: ${DOCS} generated documents`, async () => {
    const translation = (
      await t.http
        .post(`/v1/orgs/${orgId}/translations`)
        .set(admin.auth)
        .send({ language: 'es', source: { space: spaceId, language: 'en' } })
        .expect(201)
    ).body.id;
    await throughEach(async (instructions) => {
      const res = await t.http.put(`/v1/orgs/${orgId}/translations/${translation}`).set(admin.auth).send({ instructions });
      return { status: res.status, document: res.body.instructions };
    });
  });

  it(`content batches (insert_page with a document): ${DOCS} generated documents`, async () => {
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const base = `/v1/spaces/${spaceId}/change-requests/${cr}`;
    await throughEach(async (document) => {
      const res = await t.http
        .post(`${base}/content?compat=false`)
        .set(admin.auth)
        .send({ changes: [{ operation: 'insert_page', ref: 'p', title: 'Generated', document: { document } }] });
      if (res.status !== 200) return { status: res.status, document: null };
      const page = (res.body.changes as { page: { id: string } }[])[0].page.id;
      const read = await t.http.get(`${base}/content/page/${page}`).set(admin.auth);
      const markdown = await t.http.get(`${base}/content/page/${page}?format=markdown`).set(admin.auth);
      if (markdown.status !== 200) return { status: markdown.status, document: null };
      return { status: read.status, document: read.body.document ?? { nodes: [] } };
    });
  });
});
