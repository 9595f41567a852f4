import { jest } from '@jest/globals';
import { ChangeRequestRepository, ChangeRequestsService } from '@app/review-and-comments';
import { ContentService } from '@app/spaces-and-content';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('change requests: authoring, reads, merge and update', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    orgId = await t.organization(admin);
    await t.member(orgId, reader, 'read');
  });
  afterAll(async () => t.close());

  const newSpace = async () => (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body;
  const newCr = async (spaceId: string, subject = 'Change') =>
    (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject }).expect(201)).body;
  const write = (spaceId: string, cr: string, changes: object[], query = '') =>
    t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content${query}`).set(admin.auth).send({ changes });
  const markdownOf = async (spaceId: string, pageId: string, cr?: string) => {
    const path = cr ? `/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}` : `/v1/spaces/${spaceId}/content/page/${pageId}`;
    return (await t.http.get(`${path}?format=markdown&format.markdown.refs=stable`).set(admin.auth).expect(200)).body.markdown as string;
  };
  const titles = async (spaceId: string) =>
    (await t.http.get(`/v1/spaces/${spaceId}/content/pages`).set(admin.auth).expect(200)).body.pages.map((p: { title: string }) => p.title);

  it('a new space has an empty current revision', async () => {
    const space = await newSpace();
    const rev = await t.http.get(`/v1/spaces/${space.id}/content`).set(reader.auth).expect(200);
    expect(rev.body).toMatchObject({ object: 'revision', id: space.revision, parents: [], pages: [], files: [], type: 'edits' });
    await t.http.get(`/v1/spaces/${space.id}/revisions/${space.revision}`).set(reader.auth).expect(200);
    expectError(await t.http.get(`/v1/spaces/${space.id}/revisions/nope`).set(reader.auth), 404, /Revision/);
  });

  it('creates, lists (open by default, newest first), gets by id or number, and patches change requests', async () => {
    const space = await newSpace();
    const a = await newCr(space.id, 'First');
    const b = await newCr(space.id, 'Second');
    expect(a).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'First',
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      outdated: false,
      comments: 0,
    });
    expect(a.createdBy).toMatchObject({ object: 'user', id: admin.id });
    expect(b.number).toBe(2);
    const list = await t.http.get(`/v1/spaces/${space.id}/change-requests`).set(reader.auth).expect(200);
    expect(list.body.items.map((c: { number: number }) => c.number)).toEqual([2, 1]);
    await t.http.get(`/v1/spaces/${space.id}/change-requests/2`).set(reader.auth).expect(200);
    await t.http.get(`/v1/spaces/${space.id}/change-requests/${a.id}`).set(reader.auth).expect(200);
    const patched = await t.http
      .patch(`/v1/spaces/${space.id}/change-requests/1`)
      .set(admin.auth)
      .send({ subject: 'x'.repeat(100), status: 'draft', description: { object: 'document', data: {}, nodes: [] } })
      .expect(200);
    expect(patched.body).toMatchObject({ status: 'draft', subject: 'x'.repeat(100) });
    expectError(
      await t.http
        .patch(`/v1/spaces/${space.id}/change-requests/1`)
        .set(admin.auth)
        .send({ subject: 'x'.repeat(101) }),
      400,
      /subject/,
    );
    expectError(await t.http.patch(`/v1/spaces/${space.id}/change-requests/1`).set(admin.auth).send({ status: 'merged' }), 400, /status/);
    expect((await t.http.get(`/v1/spaces/${space.id}/change-requests?status=draft`).set(admin.auth).expect(200)).body.count).toBe(1);
    expect((await t.http.get(`/v1/spaces/${space.id}/change-requests?creator=${admin.id}`).set(admin.auth).expect(200)).body.count).toBe(1);
    expect((await t.http.get(`/v1/spaces/${space.id}/change-requests?creator=someone-else`).set(admin.auth).expect(200)).body.count).toBe(
      0,
    );
    expect(
      (await t.http.get(`/v1/spaces/${space.id}/change-requests?requestedReviewer=${admin.id}`).set(admin.auth).expect(200)).body,
    ).toEqual({ items: [], count: 0 });
    expectError(await t.http.get(`/v1/spaces/${space.id}/change-requests?status=closed`).set(admin.auth), 400, /status/);
    const counters = (await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body;
    expect(counters).toMatchObject({ changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1 });
    expectError(await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(reader.auth).send({}), 403);
    expectError(await t.http.get(`/v1/spaces/${space.id}/change-requests/99`).set(admin.auth), 404);
    const stranger = await t.user('stranger');
    expectError(await t.http.get(`/v1/spaces/${space.id}/change-requests`).set(stranger.auth), 404);
  });

  it('writes markdown pages atomically, reads them back as markdown and as a document, and merges into the space', async () => {
    const space = await newSpace();
    const cr = await newCr(space.id);
    const res = await write(
      space.id,
      cr.id,
      [
        {
          operation: 'insert_page',
          ref: 'intro',
          document: { markdown: '---\ntitle: Introduction\n---\n\nWelcome. See [setup](./guide/setup.md).' },
        },
        { operation: 'insert_page', ref: 'guide', title: 'Guide', document: {} },
        { operation: 'insert_page', ref: 'setup', into: 'guide', document: { markdown: '# Setup\n\n1. Install\n2. Run\n\n- [x] done' } },
      ],
      '?compat=false',
    ).expect(200);
    expect(res.body.changeRequest.revision).not.toBe(cr.revision);
    expect(res.body.changes.map((c: { object: string; ref: string }) => [c.object, c.ref])).toEqual([
      ['created_page', 'intro'],
      ['created_page', 'guide'],
      ['created_page', 'setup'],
    ]);
    const [introId, , setupId] = res.body.changes.map((c: { page: { id: string } }) => c.page.id);
    const pages = await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`).set(admin.auth).expect(200);
    expect(pages.body.pages.map((p: { title: string; path: string }) => [p.title, p.path])).toEqual([
      ['Introduction', 'introduction'],
      ['Guide', 'guide'],
    ]);
    expect(pages.body.pages[1].pages[0]).toMatchObject({ title: 'Setup', path: 'guide/setup', kind: 'sheet', type: 'document' });
    expect(await markdownOf(space.id, introId, cr.id)).toBe(`Welcome. See [setup](/pages/${setupId}).\n`);
    const relative = await t.http
      .get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${introId}?format=markdown`)
      .set(admin.auth)
      .expect(200);
    expect(relative.body.markdown).toBe('Welcome. See [setup](./guide/setup.md).\n');
    const asDoc = await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${setupId}`).set(admin.auth).expect(200);
    expect(asDoc.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['list-ordered', 'list-tasks']);
    expect(await titles(space.id)).toEqual([]); // main is untouched until the merge

    const merged = await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);
    expect(merged.body).toEqual({ revision: expect.any(String), result: 'merge' });
    expect(await titles(space.id)).toEqual(['Introduction', 'Guide']);
    const after = await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}`).set(admin.auth).expect(200);
    expect(after.body).toMatchObject({ status: 'merged', revisionMerged: merged.body.revision, mergedBy: { id: admin.id } });
    const byContributor = await t.http
      .get(`/v1/spaces/${space.id}/change-requests?status=merged&contributor=${admin.id}`)
      .set(admin.auth)
      .expect(200);
    expect(byContributor.body.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    expect((await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.revision).toBe(merged.body.revision);
    expectError(await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth), 409, /already merged/);
    expectError(await write(space.id, cr.id, [{ operation: 'insert_page', title: 'Late', document: {} }]), 409);
  });

  it('a failing batch writes nothing and names the failing change', async () => {
    const space = await newSpace();
    const cr = await newCr(space.id);
    expectError(
      await write(space.id, cr.id, [
        { operation: 'insert_page', title: 'Fine', document: {} },
        { operation: 'update_page', page: 'missing', title: 'X' },
      ]),
      400,
      /changes\[1\] \(update_page\): page "missing" does not exist/,
    );
    const again = await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}`).set(admin.auth).expect(200);
    expect(again.body.revision).toBe(cr.revision);
    expectError(await write(space.id, cr.id, []), 400, /changes/);
    expectError(
      await write(
        space.id,
        cr.id,
        Array.from({ length: 51 }, () => ({ operation: 'delete_page', page: 'x' })),
      ),
      400,
      /changes/,
    );
    expectError(await write(space.id, cr.id, [{ operation: 'explode' }]), 400, /operation/);
    expectError(await write(space.id, cr.id, [{ operation: 'insert_page' }]), 400, /document is required/);
    expectError(await write(space.id, cr.id, [{ operation: 'insert_page', document: { markdown: 42 } }]), 400, /markdown/);
    expectError(await write(space.id, cr.id, [{ operation: 'insert_files', files: [] }]), 400, /files must be an array of 1 to 20/);
    expectError(
      await t.http
        .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`)
        .set(reader.auth)
        .send({ changes: [{ operation: 'insert_page', document: {} }] }),
      403,
    );
  });

  it('revert_page: whole pages to the base or a named revision, and single blocks', async () => {
    const space = await newSpace();
    const seed = await newCr(space.id);
    const seeded = await write(
      space.id,
      seed.id,
      [
        { operation: 'insert_page', ref: 'doc', title: 'Doc', document: { markdown: 'Alpha.\n\nBravo.\n\nCharlie.' } },
        { operation: 'insert_page', ref: 'other', title: 'Other', document: { markdown: 'Other.' } },
      ],
      '?compat=false',
    ).expect(200);
    const [docId, otherId] = seeded.body.changes.map((c: { page: { id: string } }) => c.page.id);
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${seed.id}/merge`).set(admin.auth).expect(200);
    const base = (await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.revision;

    const cr = await newCr(space.id);
    await write(space.id, cr.id, [
      { operation: 'update_page', page: docId, document: { markdown: 'Delta.\n\nAlpha.\n\nBravo, edited.' } },
      { operation: 'update_page', page: otherId, title: 'Renamed', document: { markdown: 'Changed.' } },
    ]).expect(200);
    const doc = (await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${docId}`).set(admin.auth).expect(200)).body
      .document;
    const baseDoc = (await t.http.get(`/v1/spaces/${space.id}/revisions/${base}/page/${docId}`).set(admin.auth).expect(200)).body.document;
    const keyOf = (d: { nodes: { key: string; nodes: { leaves?: { text: string }[] }[] }[] }, text: string) =>
      d.nodes.find((n) => n.nodes.some((x) => x.leaves?.some((l) => l.text === text)))!.key;

    // One block: only the edited paragraph goes back; Delta (added) stays, Charlie (deleted) stays deleted.
    const res = await write(
      space.id,
      cr.id,
      [{ operation: 'revert_page', page: docId, block: [keyOf(doc, 'Bravo, edited.')] }],
      '?compat=false',
    ).expect(200);
    expect(res.body.changes).toEqual([expect.objectContaining({ object: 'updated_page', page: expect.objectContaining({ id: docId }) })]);
    expect(await markdownOf(space.id, docId, cr.id)).toBe('Delta.\n\nAlpha.\n\nBravo.\n');
    // A deleted block is named by its key in the revision; an added one by its key now.
    await write(space.id, cr.id, [{ operation: 'revert_page', page: docId, revision: base, block: [keyOf(baseDoc, 'Charlie.')] }]).expect(
      200,
    );
    expect(await markdownOf(space.id, docId, cr.id)).toBe('Delta.\n\nAlpha.\n\nBravo.\n\nCharlie.\n');
    await write(space.id, cr.id, [{ operation: 'revert_page', page: docId, block: [keyOf(doc, 'Delta.')] }]).expect(200);
    expect(await markdownOf(space.id, docId, cr.id)).toBe('Alpha.\n\nBravo.\n\nCharlie.\n');
    await write(space.id, cr.id, [
      { operation: 'update_page', page: docId, document: { markdown: 'Alpha.\n\nBravo.\n\nCharlie, again.' } },
    ]).expect(200);
    expectError(
      await write(space.id, cr.id, [{ operation: 'revert_page', page: docId, block: [keyOf(baseDoc, 'Alpha.')] }]),
      400,
      /changes\[0\] \(revert_page\): block .* has no change to revert/,
    );
    expectError(await write(space.id, cr.id, [{ operation: 'revert_page', page: docId, block: [42] }]), 400, /block must be an array/);
    expectError(
      await write(space.id, cr.id, [{ operation: 'revert_page', page: docId, revision: 'nope' }]),
      400,
      /revision "nope" does not exist/,
    );

    // The whole page: body and title go back (to the base when no revision is named).
    await write(space.id, cr.id, [
      { operation: 'revert_page', page: otherId },
      { operation: 'revert_page', page: docId, revision: base },
    ]).expect(200);
    expect(await markdownOf(space.id, otherId, cr.id)).toBe('Other.\n');
    expect(await markdownOf(space.id, docId, cr.id)).toBe('Alpha.\n\nBravo.\n\nCharlie.\n');
    const pages = (await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`).set(admin.auth).expect(200)).body
      .pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Doc', 'Other']);
  });

  it('merges edits of different lines of the same page, and refuses a true conflict with 409 listing the pages', async () => {
    const space = await newSpace();
    const seed = await newCr(space.id);
    const ins = await write(
      space.id,
      seed.id,
      [{ operation: 'insert_page', title: 'Page', document: { markdown: 'alpha\n\nbeta\n\ngamma' } }],
      '?compat=false',
    ).expect(200);
    const pageId = ins.body.changes[0].page.id;
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${seed.id}/merge`).set(admin.auth).expect(200);

    const one = await newCr(space.id, 'one');
    const two = await newCr(space.id, 'two');
    const three = await newCr(space.id, 'three');
    await write(space.id, one.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'ALPHA\n\nbeta\n\ngamma' } }]).expect(
      200,
    );
    await write(space.id, two.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'alpha\n\nbeta\n\nGAMMA' } }]).expect(
      200,
    );
    await write(space.id, three.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'alpha!\n\nbeta\n\ngamma' } }]).expect(
      200,
    );
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${one.id}/merge`).set(admin.auth).expect(200);
    expect((await t.http.get(`/v1/spaces/${space.id}/change-requests/${two.id}`).set(admin.auth).expect(200)).body.outdated).toBe(true);
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${two.id}/merge`).set(admin.auth).expect(200);
    expect(await markdownOf(space.id, pageId)).toBe('ALPHA\n\nbeta\n\nGAMMA\n');

    const before = (await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.revision;
    const conflict = await t.http.post(`/v1/spaces/${space.id}/change-requests/${three.id}/merge`).set(admin.auth);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({
      code: 409,
      conflicts: [{ page: pageId, title: 'Page', reason: 'both-edited', fields: ['document'] }],
    });
    expect((await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.revision).toBe(before);
    expect((await t.http.get(`/v1/spaces/${space.id}/change-requests/${three.id}`).set(admin.auth).expect(200)).body.status).toBe('open');
  });

  it('update brings main into the change request (revisionMergedAncestor set, outdated false)', async () => {
    const space = await newSpace();
    const a = await newCr(space.id, 'a');
    const b = await newCr(space.id, 'b');
    await write(space.id, a.id, [{ operation: 'insert_page', title: 'From A', document: { markdown: 'a' } }]).expect(200);
    await write(space.id, b.id, [{ operation: 'insert_page', title: 'From B', document: { markdown: 'b' } }]).expect(200);
    const nothing = await t.http.post(`/v1/spaces/${space.id}/change-requests/${b.id}/update`).set(admin.auth).expect(200);
    expect(nothing.body.result).toBe('update');
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${a.id}/merge`).set(admin.auth).expect(200);
    const main = (await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.revision;
    const upd = await t.http.post(`/v1/spaces/${space.id}/change-requests/${b.id}/update`).set(admin.auth).expect(200);
    expect(upd.body).toEqual({ revision: expect.any(String), result: 'update' });
    const crB = (await t.http.get(`/v1/spaces/${space.id}/change-requests/${b.id}`).set(admin.auth).expect(200)).body;
    expect(crB).toMatchObject({ revision: upd.body.revision, revisionMergedAncestor: main, outdated: false });
    const crPages = await t.http.get(`/v1/spaces/${space.id}/change-requests/${b.id}/content/pages`).set(admin.auth).expect(200);
    expect(crPages.body.pages.map((p: { title: string }) => p.title).sort()).toEqual(['From A', 'From B']);
    const rev = await t.http.get(`/v1/spaces/${space.id}/revisions/${upd.body.revision}`).set(admin.auth).expect(200);
    expect(rev.body.type).toBe('update');
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${b.id}/merge`).set(admin.auth).expect(200);
    expect((await titles(space.id)).sort()).toEqual(['From A', 'From B']);
  });

  it('refuses content writes to a locked space (412), and writes, merges and updates of archived or merged change requests (409)', async () => {
    const space = await newSpace();
    const page = [{ operation: 'insert_page', title: 'P', document: { markdown: 'p' } }];
    const locked = await newCr(space.id, 'locked');
    await t.http.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ editMode: 'locked' }).expect(200);
    expectError(await write(space.id, locked.id, page), 412, /locked/);
    await t.http.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ editMode: 'live' }).expect(200);
    expect((await t.http.get(`/v1/spaces/${space.id}/change-requests/${locked.id}`).set(admin.auth).expect(200)).body.revision).toBe(
      locked.revision,
    );

    const archived = await newCr(space.id, 'archived');
    await t.http.patch(`/v1/spaces/${space.id}/change-requests/${archived.id}`).set(admin.auth).send({ status: 'archived' }).expect(200);
    expectError(await write(space.id, archived.id, page), 409);
    expectError(await t.http.post(`/v1/spaces/${space.id}/change-requests/${archived.id}/merge`).set(admin.auth), 409);
    expectError(await t.http.post(`/v1/spaces/${space.id}/change-requests/${archived.id}/update`).set(admin.auth), 409);

    const merged = await newCr(space.id, 'merged');
    await write(space.id, merged.id, page).expect(200);
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${merged.id}/merge`).set(admin.auth).expect(200);
    expectError(await write(space.id, merged.id, page), 409);
    expectError(await t.http.post(`/v1/spaces/${space.id}/change-requests/${merged.id}/merge`).set(admin.auth), 409);
    expectError(await t.http.post(`/v1/spaces/${space.id}/change-requests/${merged.id}/update`).set(admin.auth), 409);
    expectError(
      await t.http.patch(`/v1/spaces/${space.id}/change-requests/${merged.id}`).set(admin.auth).send({ status: 'open' }),
      409,
      /merged/,
    );
  });

  it('update from main answers 409 with the conflicting pages when both sides edited the same lines', async () => {
    const space = await newSpace();
    const seed = await newCr(space.id, 'seed');
    const created = await write(
      space.id,
      seed.id,
      [{ operation: 'insert_page', title: 'Shared', document: { markdown: 'line one\n' } }],
      '?compat=false',
    ).expect(200);
    const pageId = created.body.changes[0].page.id;
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${seed.id}/merge`).set(admin.auth).expect(200);
    const ours = await newCr(space.id, 'ours');
    const theirs = await newCr(space.id, 'theirs');
    await write(space.id, ours.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'line one, ours\n' } }]).expect(200);
    await write(space.id, theirs.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'line one, theirs\n' } }]).expect(
      200,
    );
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${theirs.id}/merge`).set(admin.auth).expect(200);
    const head = (await t.http.get(`/v1/spaces/${space.id}/change-requests/${ours.id}`).set(admin.auth).expect(200)).body.revision;
    const res = await t.http.post(`/v1/spaces/${space.id}/change-requests/${ours.id}/update`).set(admin.auth);
    expect(res.status).toBe(409);
    expect(res.body.error.conflicts).toEqual([expect.objectContaining({ page: pageId })]);
    // Nothing was written: the change request keeps its head and its base.
    const after = (await t.http.get(`/v1/spaces/${space.id}/change-requests/${ours.id}`).set(admin.auth).expect(200)).body;
    expect(after.revision).toBe(head);
    expect(after.revisionMergedAncestor ?? null).toBeNull();
    expect(after.outdated).toBe(true);
  });

  it('a locked space refuses merges (412)', async () => {
    const space = await newSpace();
    const cr = await newCr(space.id);
    await write(space.id, cr.id, [{ operation: 'insert_page', title: 'P', document: {} }]).expect(200);
    await t.http.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ editMode: 'locked' }).expect(200);
    expectError(await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth), 412, /locked/);
    await t.http.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ editMode: 'live' }).expect(200);
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);
  });

  it('lists page through next cursors, newest first, and end', async () => {
    const space = await newSpace();
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await newCr(space.id, `paged ${i}`)).number);
    const seen: number[] = [];
    let next: string | undefined;
    do {
      const res = await t.http
        .get(`/v1/spaces/${space.id}/change-requests?limit=1${next ? `&page=${next}` : ''}`)
        .set(admin.auth)
        .expect(200);
      expect(res.body.count).toBe(3);
      seen.push(...res.body.items.map((c: { number: number }) => c.number));
      next = res.body.next?.page;
    } while (next);
    expect(seen).toEqual([...made].reverse());
  });

  it('lists by orderBy (most recently updated or created first, paged by cursor); a topic filter matches none; bad values answer 400', async () => {
    const space = await newSpace();
    const made = [];
    for (const subject of ['first', 'second', 'third']) {
      t.clock.advance(1_000);
      made.push(await newCr(space.id, subject));
    }
    const [a, b, c] = made;
    // The first is updated last: first by updatedAt, last by createdAt.
    t.clock.advance(60_000);
    await t.http.patch(`/v1/spaces/${space.id}/change-requests/${a.id}`).set(admin.auth).send({ subject: 'first, edited' }).expect(200);
    const numbers = async (query: string) => {
      const seen: number[] = [];
      let next: string | undefined;
      do {
        const res = await t.http
          .get(`/v1/spaces/${space.id}/change-requests?limit=1&${query}${next ? `&page=${next}` : ''}`)
          .set(admin.auth)
          .expect(200);
        seen.push(...res.body.items.map((x: { number: number }) => x.number));
        next = res.body.next?.page;
      } while (next);
      return seen;
    };
    expect(await numbers('orderBy=updatedAt')).toEqual([a.number, c.number, b.number]);
    expect(await numbers('orderBy=createdAt')).toEqual([c.number, b.number, a.number]);
    expect(await numbers('')).toEqual([c.number, b.number, a.number]);
    // A cursor of one order is not one of another.
    const first = await t.http.get(`/v1/spaces/${space.id}/change-requests?limit=1&orderBy=createdAt`).set(admin.auth).expect(200);
    expect((await t.http.get(`/v1/spaces/${space.id}/change-requests?page=${first.body.next.page}`).set(admin.auth)).status).toBe(400);
    const topic = await t.http.get(`/v1/spaces/${space.id}/change-requests?topic=anything`).set(admin.auth).expect(200);
    expect(topic.body).toMatchObject({ items: [], count: 0 });
    expectError(await t.http.get(`/v1/spaces/${space.id}/change-requests?orderBy=number`).set(admin.auth), 400, /orderBy/);
    expectError(await t.http.get(`/v1/spaces/${space.id}/change-requests?topic=`).set(admin.auth), 400, /topic/);
  });

  it('the compat=false answer reports per page what the markdown lost or changed on import', async () => {
    const space = await newSpace();
    const cr = await newCr(space.id, 'normalized');
    const res = await write(
      space.id,
      cr.id,
      [
        {
          operation: 'insert_page',
          title: 'Odd',
          document: {
            markdown:
              '#### Deep\n\n<div align="center"><img src="x.png" onerror="alert(1)"></div>\n\nNote[^1] and [x][nowhere].\n\n[^1]: n\n',
          },
        },
        { operation: 'insert_page', title: 'Plain', document: { markdown: 'Just **text**.\n' } },
      ],
      '?compat=false',
    ).expect(200);
    expect(res.body.changes[0].normalized).toEqual(
      expect.arrayContaining([
        'heading level 4 became level 3',
        'HTML that could run scripts was removed (script, event handlers, javascript: URLs)',
        'footnotes read as annotations',
      ]),
    );
    expect(res.body.changes[1]).not.toHaveProperty('normalized');
    const md = (
      await t.http
        .get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${res.body.changes[0].page.id}?format=markdown`)
        .set(admin.auth)
        .expect(200)
    ).body.markdown;
    expect(md).toContain('<div align="center"><img src="x.png" /></div>');
    expect(md).not.toContain('onerror');
  });

  it('page reads are rendered once per revision, page, format and ref mode (immutable), and each form stays right', async () => {
    const space = await newSpace();
    const cr = await newCr(space.id, 'cached');
    const res = await write(
      space.id,
      cr.id,
      [
        { operation: 'insert_page', ref: 'a', title: 'A', document: { markdown: 'See [B](./b.md).' } },
        { operation: 'insert_page', ref: 'b', title: 'B', document: { markdown: '| x | y |\n| - | - |\n| **1** | `2` |\n' } },
      ],
      '?compat=false',
    ).expect(200);
    const [aId, bId] = res.body.changes.map((c: { page: { id: string } }) => c.page.id);
    const content = t.app.get(ContentService);
    const renders = jest.spyOn(content, 'pageDocument');
    const read = (pageId: string, query: string) =>
      t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}${query}`).set(admin.auth).expect(200);
    const first = await read(aId, '?format=markdown');
    const again = await read(aId, '?format=markdown');
    expect(again.body).toEqual(first.body);
    expect(first.body.markdown).toBe('See [B](./b.md).\n');
    expect(renders).toHaveBeenCalledTimes(1);
    expect((await read(aId, '?format=markdown&format.markdown.refs=stable')).body.markdown).toBe(`See [B](/pages/${bId}).\n`);
    expect((await read(aId, '')).body.document.object).toBe('document');
    expect(renders).toHaveBeenCalledTimes(3);
    // A table cell keeps its inline markdown on the way out (a column without alignment comes back left-aligned).
    expect((await read(bId, '?format=markdown')).body.markdown).toBe('| x     | y   |\n| :---- | :-- |\n| **1** | `2` |\n');
    // Another revision of the same page is another entry.
    await write(space.id, cr.id, [{ operation: 'update_page', page: aId, document: { markdown: 'Changed.' } }]).expect(200);
    expect((await read(aId, '?format=markdown')).body.markdown).toBe('Changed.\n');
    expect(renders).toHaveBeenCalledTimes(5);
    renders.mockRestore();
  });

  it('parallel merges into one space serialize and lose nothing', async () => {
    const space = await newSpace();
    const crs = [];
    for (let i = 0; i < 30; i++) {
      const cr = await newCr(space.id, `parallel ${i}`);
      await write(space.id, cr.id, [{ operation: 'insert_page', title: `Page ${i}`, document: { markdown: `body ${i}` } }]).expect(200);
      crs.push(cr);
    }
    const results = await Promise.all(
      crs.map((cr) => t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth)),
    );
    // Independent merges take turns: every one succeeds (no "changed too often" 409s).
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect((await titles(space.id)).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `Page ${i}`).sort());
    const counters = (await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body;
    expect(counters).toMatchObject({ changeRequests: 30, changeRequestsOpen: 0 });
  });

  it('20 change requests created at once in one space get the numbers 1..20, each recorded once in the audit log', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Numbered' }).expect(201)).body;
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => newCr(space.id, `at once ${i}`)));
    expect(created.map((cr) => cr.number).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const audit = await t.http.get(`/v1/orgs/${orgId}/audit-events`).query({ action: 'createChangeRequest', limit: 100 }).set(admin.auth);
    const onSpace = audit.body.items.filter((e: { target: { id: string } }) => created.some((cr) => cr.id === e.target.id));
    expect(onSpace).toHaveLength(20);
  });

  it('50 concurrent content batches into one change request all succeed and lose nothing', async () => {
    const space = await newSpace();
    const cr = await newCr(space.id, 'many writers');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        write(space.id, cr.id, [{ operation: 'insert_page', title: `Batch ${i}`, document: { markdown: `batch ${i}` } }]),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const pages = (await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`).set(admin.auth).expect(200)).body
      .pages;
    expect(pages.map((p: { title: string }) => p.title).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `Batch ${i}`).sort());
    const after = (await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}`).set(admin.auth).expect(200)).body;
    expect(after.revision).not.toBe(cr.revision);
  });

  it('a merge revision shows the change request it came from; a failure to load it is a 500, not a silent null', async () => {
    const space = await newSpace();
    const cr = await newCr(space.id, 'origin');
    await write(space.id, cr.id, [{ operation: 'insert_page', title: 'From CR', document: {} }]).expect(200);
    const { revision } = (await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200)).body;
    const shown = (await t.http.get(`/v1/spaces/${space.id}/revisions/${revision}`).set(admin.auth).expect(200)).body;
    expect(shown.mergedFrom).toMatchObject({ id: cr.id, number: cr.number });
    const service = t.app.get(ChangeRequestsService);
    const view = jest.spyOn(service, 'view').mockRejectedValueOnce(new Error('database went away'));
    expectError(await t.http.get(`/v1/spaces/${space.id}/revisions/${revision}`).set(admin.auth), 500);
    view.mockRestore();
  });

  it('a merge that fails after moving main leaves nothing half-written (one unit of work)', async () => {
    const space = await newSpace();
    const cr = await newCr(space.id, 'interrupted');
    await write(space.id, cr.id, [{ operation: 'insert_page', title: 'Half', document: { markdown: 'half' } }]).expect(200);
    const repo = t.app.get(ChangeRequestRepository);
    const markMerged = jest.spyOn(repo, 'markMerged').mockRejectedValueOnce(new Error('injected failure after main moved'));
    expectError(await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth), 500);
    expect(markMerged).toHaveBeenCalledTimes(1);
    markMerged.mockRestore();
    // Main did not move, the change request is still open: the merge can simply be done again.
    expect((await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.revision).toBe(space.revision);
    expect(await titles(space.id)).toEqual([]);
    expect((await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}`).set(admin.auth).expect(200)).body.status).toBe('open');
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);
    expect(await titles(space.id)).toEqual(['Half']);
  });

  it('duplicate copies the content; transfer carries it to the other organization', async () => {
    const space = await newSpace();
    const cr = await newCr(space.id);
    const res = await write(
      space.id,
      cr.id,
      [{ operation: 'insert_page', title: 'Kept', document: { markdown: 'kept body' } }],
      '?compat=false',
    ).expect(200);
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);
    const copy = (await t.http.post(`/v1/spaces/${space.id}/duplicate`).set(admin.auth).expect(201)).body;
    expect(await titles(copy.id)).toEqual(['Kept']);
    const pageId = res.body.changes[0].page.id;
    expect(await markdownOf(copy.id, pageId)).toBe('kept body\n');
    const target = await t.organization(admin, 'Elsewhere');
    await t.http.post(`/v1/spaces/${copy.id}/transfer`).set(admin.auth).send({ organization: target }).expect(200);
    expect(await markdownOf(copy.id, pageId)).toBe('kept body\n');
  });
});
