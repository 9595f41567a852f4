import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

/** What changed (official getRevisionSemanticChanges, getChangeRequestChanges), from the immutable revisions. */
describe('semantic changes of revisions and change requests', () => {
  let t: TestApp;
  let admin: TestUser;
  let outsider: TestUser;
  let orgId: string;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
  });
  afterAll(async () => t.close());

  const cr = async (space: string, changes: object[]) => {
    const id = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({}).expect(201)).body.id as string;
    const written = (await t.http.post(`/v1/spaces/${space}/change-requests/${id}/content`).set(admin.auth).send({ changes }).expect(200))
      .body;
    return { id, written };
  };
  const merge = (space: string, id: string) => t.http.post(`/v1/spaces/${space}/change-requests/${id}/merge`).set(admin.auth).expect(200);
  /**
   * Each change against its official schema. The official `page_edited.attributes` is a oneOf of
   * document / group / link attributes that share their properties without forbidding others, so any
   * attributes object matches several branches and no answer can satisfy that oneOf: the attributes of
   * an edited document page are checked against RevisionPageDocumentChangeAttributes instead.
   */
  const check = (body: { changes: Change[] }) =>
    body.changes
      .map((c) => {
        if (c.type !== 'page_edited') {
          const name = { page_created: 'PageCreated', page_deleted: 'PageDeleted', page_moved: 'PageMoved', file_created: 'FileCreated' }[
            c.type as 'page_created'
          ];
          return schemas.check(`RevisionSemanticChange${name}`, c);
        }
        return schemas.check('ChangedRevisionPage', c.page) + schemas.check('RevisionPageDocumentChangeAttributes', c.attributes);
      })
      .join('');
  type Change = {
    type: string;
    page?: { id: string; title: string; path: string };
    file?: { name: string };
    attributes?: object;
    parent?: object;
  };

  it('a merge revision lists what it created, with the change request it merged; a change request what it changes', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body.id;
    const first = await cr(space, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Read me.' } },
      { operation: 'insert_page', ref: 'setup', into: 'guide', title: 'Setup', document: { markdown: 'Install.' } },
      { operation: 'insert_page', title: 'FAQ', document: { markdown: 'Questions.' } },
      {
        operation: 'insert_files',
        files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('hello').toString('base64') }],
      },
    ]);
    await merge(space, first.id);
    const head = (await t.http.get(`/v1/spaces/${space}`).set(admin.auth).expect(200)).body.revision;
    const created = (await t.http.get(`/v1/spaces/${space}/revisions/${head}/changes?limit=100`).set(admin.auth).expect(200)).body;
    expect(schemas.check('RevisionSemanticChanges', created)).toBe('');
    expect(check(created)).toBe('');
    expect(created.changes.map((c: Change) => [c.type, c.page?.path ?? c.file?.name])).toEqual([
      ['page_created', 'guide'],
      ['page_created', 'guide/setup'],
      ['page_created', 'faq'],
      ['file_created', 'notes.txt'],
    ]);
    expect(created.mergedFrom).toMatchObject({ id: first.id });
    expect(created.more).toBeUndefined();

    const pages = (await t.http.get(`/v1/spaces/${space}/content/pages`).set(admin.auth).expect(200)).body.pages;
    const [guide, faq] = pages;
    const setup = guide.pages[0];
    const second = await cr(space, [
      { operation: 'update_page', page: guide.id, title: 'User guide', document: { markdown: 'Read me first.' } },
      { operation: 'update_page', page: faq.id, into: guide.id },
      { operation: 'delete_page', page: setup.id },
    ]);
    const res = (await t.http.get(`/v1/spaces/${space}/change-requests/${second.id}/changes`).set(admin.auth).expect(200)).body;
    expect(check(res)).toBe('');
    const byType = Object.fromEntries(res.changes.map((c: Change) => [c.type, c]));
    expect(byType.page_edited).toMatchObject({
      page: { id: guide.id, title: 'User guide' },
      attributes: { title: { before: 'Guide', after: 'User guide' } },
    });
    expect(byType.page_edited.attributes.document.before).not.toBe(byType.page_edited.attributes.document.after);
    expect(byType.page_moved).toMatchObject({ page: { id: faq.id }, parent: { after: { id: guide.id } } });
    expect(byType.page_moved.parent.before).toBeUndefined();
    expect(byType.page_deleted).toMatchObject({ page: { id: setup.id, path: 'guide/setup' } });
    expect(res.changes).toHaveLength(3);

    const limited = (await t.http.get(`/v1/spaces/${space}/change-requests/${second.id}/changes?limit=1`).set(admin.auth).expect(200)).body;
    expect(limited.changes).toHaveLength(1);
    expect(limited.more).toBe(2);
    // Merged, the space's new revision says the same against its first parent.
    await merge(space, second.id);
    const merged = (await t.http.get(`/v1/spaces/${space}`).set(admin.auth).expect(200)).body.revision;
    const after = (await t.http.get(`/v1/spaces/${space}/revisions/${merged}/changes`).set(admin.auth).expect(200)).body;
    expect(after.changes.map((c: Change) => c.type).sort()).toEqual(['page_deleted', 'page_edited', 'page_moved']);
  });

  it('reads an older revision: its files, a file, a page body as a JSON document (official revision reads)', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Old' }).expect(201)).body.id;
    const first = await cr(space, [
      { operation: 'insert_page', title: 'Intro', document: { markdown: 'Version **one**.' } },
      { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('a').toString('base64') }] },
    ]);
    await merge(space, first.id);
    const old = (await t.http.get(`/v1/spaces/${space}`).set(admin.auth).expect(200)).body.revision;
    const intro = (await t.http.get(`/v1/spaces/${space}/content/pages`).set(admin.auth).expect(200)).body.pages[0].id;
    const second = await cr(space, [{ operation: 'update_page', page: intro, document: { markdown: 'Version two.' } }]);
    await merge(space, second.id);
    const doc = (await t.http.get(`/v1/spaces/${space}/revisions/${old}/page/${intro}/document`).set(admin.auth).expect(200)).body;
    expect(schemas.check('JSONDocument', doc)).toBe('');
    expect(JSON.stringify(doc)).toContain('one');
    const files = (await t.http.get(`/v1/spaces/${space}/revisions/${old}/files`).set(admin.auth).expect(200)).body;
    expect(files.items.map((f: { name: string }) => f.name)).toEqual(['a.txt']);
    const file = (await t.http.get(`/v1/spaces/${space}/revisions/${old}/files/${files.items[0].id}`).set(admin.auth).expect(200)).body;
    expect(schemas.check('RevisionFile', file)).toBe('');
    expectError(await t.http.get(`/v1/spaces/${space}/revisions/${old}/files/nope`).set(admin.auth), 404, /File/);
    expectError(await t.http.get(`/v1/spaces/${space}/revisions/${old}/page/nope/document`).set(admin.auth), 404, /Page/);
    expectError(await t.http.get(`/v1/spaces/${space}/revisions/${old}/page/${intro}/document?evaluated=perhaps`).set(admin.auth), 400);
    expectError(await t.http.get(`/v1/spaces/${space}/revisions/${old}/files`).set(outsider.auth), 404);
  });

  it('a space history lists its revisions newest first, keyset-paged, with who merged which change request', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'History' }).expect(201)).body;
    const a = await cr(space.id, [{ operation: 'insert_page', title: 'A', document: { markdown: 'a' } }]);
    await merge(space.id, a.id);
    const b = await cr(space.id, [{ operation: 'insert_page', title: 'B', document: { markdown: 'b' } }]);
    await merge(space.id, b.id);
    const head = (await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.revision;
    const first = (await t.http.get(`/v1/spaces/${space.id}/revisions?limit=1`).set(admin.auth).expect(200)).body;
    expect(first.count).toBe(3);
    expect(first.items[0]).toMatchObject({ id: head, type: 'merge', mergedFrom: b.id, createdBy: admin.id });
    const rest = (await t.http.get(`/v1/spaces/${space.id}/revisions?limit=5&page=${first.next.page}`).set(admin.auth).expect(200)).body;
    expect(rest.items.map((r: { type: string; mergedFrom: string | null }) => [r.type, r.mergedFrom])).toEqual([
      ['merge', a.id],
      ['edits', null],
    ]);
    expect(rest.items[1].id).toBe(space.revision);
    expect(rest.next).toBeUndefined();
    expectError(await t.http.get(`/v1/spaces/${space.id}/revisions?page=forged`).set(admin.auth), 400, /page/);
    expectError(await t.http.get(`/v1/spaces/${space.id}/revisions`).set(outsider.auth), 404);
  });

  it('the first revision of a space has no parent: nothing changed; bad input and strangers get errors', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Empty' }).expect(201)).body;
    expect((await t.http.get(`/v1/spaces/${space.id}/revisions/${space.revision}/changes`).set(admin.auth).expect(200)).body).toEqual({
      changes: [],
    });
    for (const q of ['limit=0', 'limit=0x10', 'limit=1001', 'limit=abc', 'metadata=maybe'])
      expectError(await t.http.get(`/v1/spaces/${space.id}/revisions/${space.revision}/changes?${q}`).set(admin.auth), 400);
    expectError(await t.http.get(`/v1/spaces/${space.id}/revisions/nope/changes`).set(admin.auth), 404, /Revision/);
    expectError(await t.http.get(`/v1/spaces/${space.id}/revisions/${space.revision}/changes`).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space.id}/change-requests/nope/changes`).set(admin.auth), 404);
  });

  it('lists the blocks of each edited page: added, deleted, modified, with the keys revert_page takes', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Blocks' }).expect(201)).body.id;
    const first = await cr(space, [{ operation: 'insert_page', title: 'Page', document: { markdown: 'Alpha.\n\nBravo.\n\nCharlie.' } }]);
    await merge(space, first.id);
    const [page] = (await t.http.get(`/v1/spaces/${space}/content/pages`).set(admin.auth).expect(200)).body.pages;
    const second = await cr(space, [
      { operation: 'update_page', page: page.id, document: { markdown: 'Alpha.\n\nBravo, edited.\n\n## Delta\n\nEcho.' } },
    ]);
    const res = (await t.http.get(`/v1/spaces/${space}/change-requests/${second.id}/changes`).set(admin.auth).expect(200)).body;
    expect(check(res)).toBe('');
    const [edited] = res.changes;
    expect(edited.type).toBe('page_edited');
    expect(edited.blocks.map((b: { change: string; type: string; text: object }) => [b.change, b.type, b.text])).toEqual([
      ['modified', 'paragraph', { before: 'Bravo.', after: 'Bravo, edited.' }],
      ['deleted', 'paragraph', { before: 'Charlie.' }],
      ['added', 'heading-2', { after: 'Delta' }],
      ['added', 'paragraph', { after: 'Echo.' }],
    ]);
    // The keys are the ones revert_page takes: undoing the modification through its key restores the block.
    const modified = edited.blocks[0].key as string;
    await t.http
      .post(`/v1/spaces/${space}/change-requests/${second.id}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'revert_page', page: page.id, block: [modified] }] })
      .expect(200);
    const after = (await t.http.get(`/v1/spaces/${space}/change-requests/${second.id}/changes`).set(admin.auth).expect(200)).body;
    expect(after.changes[0].blocks.map((b: { change: string }) => b.change)).toEqual(['deleted', 'added', 'added']);
    // A page created or deleted lists no blocks; a page only renamed neither.
    const third = await cr(space, [{ operation: 'update_page', page: page.id, title: 'Renamed' }]);
    const renamed = (await t.http.get(`/v1/spaces/${space}/change-requests/${third.id}/changes`).set(admin.auth).expect(200)).body;
    expect(renamed.changes).toEqual([
      expect.objectContaining({ type: 'page_edited', attributes: { title: { before: 'Page', after: 'Renamed' } } }),
    ]);
    expect(renamed.changes[0].blocks).toBeUndefined();
  });

  it('reads a page by its path: in the current revision, an older revision and a change request', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Paths' }).expect(201)).body.id;
    const first = await cr(space, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Read me.' } },
      { operation: 'insert_page', into: 'guide', title: 'Set up', document: { markdown: 'Install it.' } },
    ]);
    await merge(space, first.id);
    const old = (await t.http.get(`/v1/spaces/${space}`).set(admin.auth).expect(200)).body.revision;
    const [guide] = (await t.http.get(`/v1/spaces/${space}/content/pages`).set(admin.auth).expect(200)).body.pages;
    const setup = guide.pages[0];
    expect(setup.path).toBe('guide/set-up');

    const byId = (await t.http.get(`/v1/spaces/${space}/content/page/${setup.id}?format=markdown`).set(admin.auth).expect(200)).body;
    for (const path of ['guide/set-up', 'guide%2Fset-up', 'guide/set-up/'])
      expect((await t.http.get(`/v1/spaces/${space}/content/path/${path}?format=markdown`).set(admin.auth).expect(200)).body).toEqual(byId);
    const guideById = (await t.http.get(`/v1/spaces/${space}/content/page/${guide.id}`).set(admin.auth).expect(200)).body;
    expect((await t.http.get(`/v1/spaces/${space}/content/path/guide`).set(admin.auth).expect(200)).body).toEqual(guideById);

    const second = await cr(space, [{ operation: 'update_page', page: setup.id, title: 'Install', slug: 'install' }]);
    const inCr = await t.http
      .get(`/v1/spaces/${space}/change-requests/${second.id}/content/path/guide/install`)
      .set(admin.auth)
      .expect(200);
    expect(inCr.body).toMatchObject({ id: setup.id, title: 'Install', path: 'guide/install' });
    expectError(await t.http.get(`/v1/spaces/${space}/change-requests/${second.id}/content/path/guide/set-up`).set(admin.auth), 404);
    await merge(space, second.id);
    expectError(await t.http.get(`/v1/spaces/${space}/content/path/guide/set-up`).set(admin.auth), 404);
    const then = await t.http.get(`/v1/spaces/${space}/revisions/${old}/path/guide/set-up`).set(admin.auth).expect(200);
    expect(then.body).toMatchObject({ id: setup.id, title: 'Set up' });

    expectError(await t.http.get(`/v1/spaces/${space}/content/path/nope`).set(admin.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space}/content/path/guide/set-up/deeper`).set(admin.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space}/content/path/a%00b`).set(admin.auth), 404); // as for every id
    expectError(await t.http.get(`/v1/spaces/${space}/content/path/guide`).set(outsider.auth), 404);
  });
});
