import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

interface CommentBody {
  id: string;
  object: string;
  status: string;
  replies: number;
  repliers: { user: { id: string }; count: number; updatedAt: string }[];
  reactions: { emoji: string; count: number; users: { user: { id: string }; reactedAt: string }[] }[];
  body: { markdown?: string; document?: { object: string; nodes: { type: string }[] } };
  target: { space: string; revision: string; page?: { id: string }; node?: { id: string }; changeRequest?: string };
  permissions: { view: boolean; edit: boolean; reply: boolean; delete: boolean };
  postedBy: { id: string };
  editedAt?: string;
  urls: { location: string };
  resolvedAt?: string;
  resolvedBy?: { id: string };
}

describe('comments and replies on spaces and change requests', () => {
  let t: TestApp;
  let admin: TestUser;
  let commenter: TestUser;
  let other: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    commenter = await t.user('commenter');
    other = await t.user('other');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, commenter, 'comment');
    await t.member(orgId, other, 'comment');
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => t.close());

  const newSpace = async () => (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body;
  const post = (path: string, user: TestUser, body: object) => t.http.post(`/v1${path}`).set(user.auth).send(body);
  const put = (path: string, user: TestUser, body: object) => t.http.put(`/v1${path}`).set(user.auth).send(body);
  const get = (path: string, user: TestUser) => t.http.get(`/v1${path}`).set(user.auth);
  const spaceOf = async (id: string) => (await get(`/spaces/${id}`, admin).expect(200)).body as { comments: number; revision: string };
  /** A space whose main content has one page (written through a merged change request). */
  const spaceWithPage = async () => {
    const space = await newSpace();
    const cr = (await post(`/spaces/${space.id}/change-requests`, admin, { subject: 'Page' }).expect(201)).body;
    const res = await post(`/spaces/${space.id}/change-requests/${cr.id}/content`, admin, {
      changes: [{ operation: 'insert_page', ref: 'p', document: { markdown: '# Guide\n\nFirst paragraph.\n\nSecond paragraph.' } }],
    })
      .query({ compat: 'false' })
      .expect(200);
    await post(`/spaces/${space.id}/change-requests/${cr.id}/merge`, admin, {}).expect(200);
    const pageId = res.body.changes[0].page.id as string;
    const doc = (await get(`/spaces/${space.id}/content/page/${pageId}`, admin).expect(200)).body.document;
    return { space: space as { id: string }, pageId, nodeKey: doc.nodes[0].key as string };
  };

  it('posts a markdown comment with the complete official shape; the space counts it; reads in both formats', async () => {
    const space = await newSpace();
    const res = await post(`/spaces/${space.id}/comments`, commenter, { body: { markdown: 'Is **this** right?' } }).expect(200);
    const c = res.body as CommentBody;
    expect(c).toMatchObject({
      object: 'comment',
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      body: { markdown: 'Is **this** right?' },
      target: { space: space.id, revision: space.revision },
      permissions: { view: true, edit: true, reply: true, delete: true },
      postedBy: { object: 'user', id: commenter.id },
      urls: { location: expect.stringMatching(new RegExp(`/v1/spaces/${space.id}/comments/${c.id}$`)) },
    });
    expect(c.editedAt).toBeUndefined();
    expect(c.resolvedAt).toBeUndefined();
    expect((await spaceOf(space.id)).comments).toBe(1);
    const asDoc = (await get(`/spaces/${space.id}/comments/${c.id}?format=document`, reader).expect(200)).body as CommentBody;
    expect(asDoc.body.document).toMatchObject({ object: 'document', nodes: [{ type: 'paragraph' }] });
    const seenByOther = (await get(`/spaces/${space.id}/comments/${c.id}`, other).expect(200)).body as CommentBody;
    expect(seenByOther.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
    const seenByAdmin = (await get(`/spaces/${space.id}/comments/${c.id}`, admin).expect(200)).body as CommentBody;
    expect(seenByAdmin.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    expect(((await get(`/spaces/${space.id}/comments/${c.id}`, reader).expect(200)).body as CommentBody).permissions).toEqual({
      view: true,
      edit: false,
      reply: false,
      delete: false,
    });
    // The document form is accepted too and rendered to markdown.
    const fromDoc = await post(`/spaces/${space.id}/comments`, admin, { body: { document: asDoc.body.document } }).expect(200);
    expect(fromDoc.body.body).toEqual({ markdown: 'Is **this** right?\n' });
  });

  it('targets a page, a node of it and a table cell; refuses targets that are not there; the comment outlives its page', async () => {
    const { space, pageId, nodeKey } = await spaceWithPage();
    const rev = (await spaceOf(space.id)).revision;
    const c = (
      await post(`/spaces/${space.id}/comments`, commenter, {
        page: pageId,
        node: nodeKey,
        tableCell: { record: 'r0', definition: 'c0' },
        body: { markdown: 'Here' },
      }).expect(200)
    ).body as CommentBody & { target: { tableCell: object } };
    expect(c.target).toEqual({
      space: space.id,
      revision: rev,
      page: { id: pageId },
      node: { id: nodeKey },
      tableCell: { record: 'r0', definition: 'c0' },
    });
    expectError(await post(`/spaces/${space.id}/comments`, commenter, { page: 'nopage', body: { markdown: 'x' } }), 400, /page/);
    expectError(await post(`/spaces/${space.id}/comments`, commenter, { node: nodeKey, body: { markdown: 'x' } }), 400, /node/);
    expectError(
      await post(`/spaces/${space.id}/comments`, commenter, { page: pageId, node: 'nonode', body: { markdown: 'x' } }),
      400,
      /node/,
    );
    expectError(
      await post(`/spaces/${space.id}/comments`, commenter, {
        page: pageId,
        tableCell: { record: 'r', definition: 'd' },
        body: { markdown: 'x' },
      }),
      400,
      /tableCell/,
    );
    // The page is deleted by a later revision: the comment stays readable and still names its page and revision.
    const cr = (await post(`/spaces/${space.id}/change-requests`, admin, {}).expect(201)).body;
    await post(`/spaces/${space.id}/change-requests/${cr.id}/content`, admin, {
      changes: [{ operation: 'delete_page', page: pageId }],
    }).expect(200);
    await post(`/spaces/${space.id}/change-requests/${cr.id}/merge`, admin, {}).expect(200);
    const after = (await get(`/spaces/${space.id}/comments/${c.id}`, reader).expect(200)).body as CommentBody;
    expect(after.target).toMatchObject({ page: { id: pageId }, revision: rev });
    await get(`/spaces/${space.id}/revisions/${rev}/page/${pageId}`, reader).expect(200);
  });

  it('lists newest first by default, oldest first with order=asc, filtered by status, page and authors, keyset-paged', async () => {
    const { space, pageId } = await spaceWithPage();
    const ids: string[] = [];
    for (const [user, page] of [
      [commenter, pageId],
      [other, undefined],
      [commenter, undefined],
      [other, pageId],
    ] as const)
      ids.push((await post(`/spaces/${space.id}/comments`, user, { page, body: { markdown: `c${ids.length}` } }).expect(200)).body.id);
    await put(`/spaces/${space.id}/comments/${ids[1]}`, admin, { resolved: true }).expect(200);
    const list = async (q: string) =>
      ((await get(`/spaces/${space.id}/comments${q}`, reader).expect(200)).body as { items: CommentBody[]; count: number }).items.map((c) =>
        ids.indexOf(c.id),
      );
    expect(await list('')).toEqual([3, 2, 1, 0]);
    expect(await list('?order=asc')).toEqual([0, 1, 2, 3]);
    expect(await list('?status=resolved')).toEqual([1]);
    expect(await list('?status=open&order=asc')).toEqual([0, 2, 3]);
    expect(await list('?status=all')).toEqual([3, 2, 1, 0]);
    expect(await list(`?targetPage=${pageId}`)).toEqual([3, 0]);
    expect(await list(`?authors=${other.id}`)).toEqual([3, 1]);
    expect(await list(`?authors=${other.id}&authors=${commenter.id}&order=asc`)).toEqual([0, 1, 2, 3]);
    const first = (await get(`/spaces/${space.id}/comments?limit=3`, reader).expect(200)).body;
    expect(first.items).toHaveLength(3);
    expect(first.count).toBe(4);
    const second = (await get(`/spaces/${space.id}/comments?limit=3&page=${encodeURIComponent(first.next.page)}`, reader).expect(200)).body;
    expect(second.items.map((c: CommentBody) => c.id)).toEqual([ids[0]]);
    expect(second.next).toBeUndefined();
    expectError(await get(`/spaces/${space.id}/comments?order=sideways`, reader), 400, /order/);
    expectError(await get(`/spaces/${space.id}/comments?status=closed`, reader), 400, /status/);
    expectError(await get(`/spaces/${space.id}/comments?format=html`, reader), 400, /format/);
    expectError(await get(`/spaces/${space.id}/comments?limit=1001`, reader), 400, /limit/);
  });

  it('resolves and reopens (status, resolvedAt, resolvedBy); the open count follows resolves and deletes', async () => {
    const space = await newSpace();
    const a = (await post(`/spaces/${space.id}/comments`, commenter, { body: { markdown: 'a' } }).expect(200)).body as CommentBody;
    await post(`/spaces/${space.id}/comments`, commenter, { body: { markdown: 'b' } }).expect(200);
    expect((await spaceOf(space.id)).comments).toBe(2);
    const resolved = (await put(`/spaces/${space.id}/comments/${a.id}`, other, { resolved: true }).expect(200)).body as CommentBody;
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: other.id } });
    expect(Date.parse(resolved.resolvedAt!)).not.toBeNaN();
    expect((await spaceOf(space.id)).comments).toBe(1);
    await put(`/spaces/${space.id}/comments/${a.id}`, other, { resolved: true }).expect(200);
    expect((await spaceOf(space.id)).comments).toBe(1);
    const reopened = (await put(`/spaces/${space.id}/comments/${a.id}`, commenter, { resolved: false }).expect(200)).body as CommentBody;
    expect(reopened.status).toBe('open');
    expect(reopened.resolvedAt).toBeUndefined();
    expect(reopened.resolvedBy).toBeUndefined();
    expect((await spaceOf(space.id)).comments).toBe(2);
    expectError(await put(`/spaces/${space.id}/comments/${a.id}`, reader, { resolved: true }), 403, /comment/);
    await t.http.delete(`/v1/spaces/${space.id}/comments/${a.id}`).set(commenter.auth).expect(205);
    expect((await spaceOf(space.id)).comments).toBe(1);
  });

  it('edits (the author only, editedAt set), deletes (the author or an admin; 204 when absent), refuses readers and non-members', async () => {
    const space = await newSpace();
    const c = (await post(`/spaces/${space.id}/comments`, commenter, { body: { markdown: 'draft' } }).expect(200)).body as CommentBody;
    const edited = (await put(`/spaces/${space.id}/comments/${c.id}`, commenter, { body: { markdown: 'final' } }).expect(200))
      .body as CommentBody;
    expect(edited.body).toEqual({ markdown: 'final' });
    expect(Date.parse(edited.editedAt!)).not.toBeNaN();
    expectError(await put(`/spaces/${space.id}/comments/${c.id}`, other, { body: { markdown: 'hijack' } }), 403, /author/);
    expectError(await put(`/spaces/${space.id}/comments/${c.id}`, admin, { body: { markdown: 'hijack' } }), 403, /author/);
    expectError(await t.http.delete(`/v1/spaces/${space.id}/comments/${c.id}`).set(other.auth), 403, /author or an admin/);
    expectError(await post(`/spaces/${space.id}/comments`, reader, { body: { markdown: 'x' } }), 403, /comment/);
    expectError(await post(`/spaces/${space.id}/comments`, outsider, { body: { markdown: 'x' } }), 404);
    expectError(await get(`/spaces/${space.id}/comments/${c.id}`, outsider), 404);
    expectError(await get(`/spaces/${space.id}/comments`, outsider), 404);
    // A non-member's DELETE answers as if there were nothing, and deletes nothing.
    await t.http.delete(`/v1/spaces/${space.id}/comments/${c.id}`).set(outsider.auth).expect(204);
    await get(`/spaces/${space.id}/comments/${c.id}`, admin).expect(200);
    await t.http.delete(`/v1/spaces/${space.id}/comments/${c.id}`).set(admin.auth).expect(205);
    await t.http.delete(`/v1/spaces/${space.id}/comments/${c.id}`).set(admin.auth).expect(204);
    expectError(await get(`/spaces/${space.id}/comments/${c.id}`, admin), 404, /Comment/);
    // A comment of another space is not reachable through this one.
    const elsewhere = await newSpace();
    const foreign = (await post(`/spaces/${elsewhere.id}/comments`, admin, { body: { markdown: 'x' } }).expect(200)).body as CommentBody;
    expectError(await get(`/spaces/${space.id}/comments/${foreign.id}`, admin), 404);
    await t.http.delete(`/v1/spaces/${space.id}/comments/${foreign.id}`).set(admin.auth).expect(204);
    await get(`/spaces/${elsewhere.id}/comments/${foreign.id}`, admin).expect(200);
  });

  it('aggregates reactions per emoji (one per user and emoji), takes them back, refuses what is not an emoji', async () => {
    const space = await newSpace();
    const c = (await post(`/spaces/${space.id}/comments`, admin, { body: { markdown: 'React' } }).expect(200)).body as CommentBody;
    await put(`/spaces/${space.id}/comments/${c.id}`, commenter, { addedReactions: ['👍', '🎉'] }).expect(200);
    await put(`/spaces/${space.id}/comments/${c.id}`, commenter, { addedReactions: ['👍'] }).expect(200);
    const r = (await put(`/spaces/${space.id}/comments/${c.id}`, other, { addedReactions: ['👍'] }).expect(200)).body as CommentBody;
    const thumbs = r.reactions.find((x) => x.emoji === '👍')!;
    expect(thumbs.count).toBe(2);
    expect(thumbs.users.map((u) => u.user.id).sort()).toEqual([commenter.id, other.id].sort());
    expect(Date.parse(thumbs.users[0].reactedAt)).not.toBeNaN();
    expect(r.reactions.find((x) => x.emoji === '🎉')).toMatchObject({ count: 1 });
    const back = (await put(`/spaces/${space.id}/comments/${c.id}`, commenter, { removedReactions: ['👍', '🎉'] }).expect(200))
      .body as CommentBody;
    expect(back.reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);
    expectError(await put(`/spaces/${space.id}/comments/${c.id}`, reader, { addedReactions: ['👍'] }), 403, /comment/);
    expectError(await put(`/spaces/${space.id}/comments/${c.id}`, commenter, { addedReactions: ['a b'] }), 400, /emoji/);
    expectError(await put(`/spaces/${space.id}/comments/${c.id}`, commenter, { addedReactions: [''] }), 400, /emoji/);
    expectError(
      await put(`/spaces/${space.id}/comments/${c.id}`, commenter, { addedReactions: Array(21).fill('👍') }),
      400,
      /addedReactions/,
    );
    expectError(await put(`/spaces/${space.id}/comments/${c.id}`, commenter, { addedReactions: [null] }), 400, /addedReactions/);
  });

  it('replies: post, list (oldest first), get, edit, react, delete; the comment counts replies and repliers; deleting it deletes them', async () => {
    const space = await newSpace();
    const c = (await post(`/spaces/${space.id}/comments`, admin, { body: { markdown: 'Thread' } }).expect(200)).body as CommentBody;
    const base = `/spaces/${space.id}/comments/${c.id}/replies`;
    const r1 = (await post(base, commenter, { body: { markdown: 'one' } }).expect(200)).body as CommentBody;
    expect(r1).toMatchObject({
      object: 'comment-reply',
      body: { markdown: 'one' },
      postedBy: { id: commenter.id },
      reactions: [],
      permissions: { view: true, edit: true, reply: true, delete: true },
      urls: { location: expect.stringMatching(new RegExp(`${base}/${r1.id}$`)) },
    });
    expect(r1).not.toHaveProperty('status');
    await post(base, other, { body: { markdown: 'two' } }).expect(200);
    await post(base, commenter, { body: { markdown: 'three' } }).expect(200);
    const thread = (await get(`/spaces/${space.id}/comments/${c.id}`, reader).expect(200)).body as CommentBody;
    expect(thread.replies).toBe(3);
    expect(thread.repliers.map((x) => [x.user.id, x.count])).toEqual([
      [commenter.id, 2],
      [other.id, 1],
    ]);
    const list = (await get(`${base}?limit=2`, reader).expect(200)).body;
    expect(list.items.map((x: CommentBody) => x.body.markdown)).toEqual(['one', 'two']);
    expect(list.count).toBe(3);
    expect((await get(`${base}/${r1.id}?format=document`, reader).expect(200)).body.body.document.object).toBe('document');
    const edited = (await put(`${base}/${r1.id}`, commenter, { body: { markdown: 'uno' }, addedReactions: ['👀'] }).expect(200))
      .body as CommentBody;
    expect(edited).toMatchObject({ body: { markdown: 'uno' }, reactions: [{ emoji: '👀', count: 1 }] });
    expectError(await put(`${base}/${r1.id}`, other, { body: { markdown: 'no' } }), 403, /author/);
    expectError(await put(`${base}/${r1.id}`, commenter, { resolved: true }), 400, /resolved/);
    expectError(await post(base, reader, { body: { markdown: 'x' } }), 403, /comment/);
    expectError(await post(`/spaces/${space.id}/comments/nocomment/replies`, commenter, { body: { markdown: 'x' } }), 404, /Comment/);
    await t.http.delete(`/v1${base}/${r1.id}`).set(commenter.auth).expect(205);
    await t.http.delete(`/v1${base}/${r1.id}`).set(commenter.auth).expect(204);
    expect(((await get(`/spaces/${space.id}/comments/${c.id}`, reader).expect(200)).body as CommentBody).replies).toBe(2);
    // A reply is not a comment: it cannot be read as one.
    const r2 = list.items[1] as CommentBody;
    expectError(await get(`/spaces/${space.id}/comments/${r2.id}`, reader), 404);
    await t.http.delete(`/v1/spaces/${space.id}/comments/${c.id}`).set(admin.auth).expect(205);
    expectError(await get(`${base}/${r2.id}`, reader), 404);
  });

  it('comments on a change request are its own (by id or number), counted on it and not on the space', async () => {
    const space = await newSpace();
    const cr = (await post(`/spaces/${space.id}/change-requests`, admin, { subject: 'Review me' }).expect(201)).body;
    const c = (
      await post(`/spaces/${space.id}/change-requests/${cr.number}/comments`, commenter, { body: { markdown: 'Looks good' } }).expect(200)
    ).body as CommentBody;
    expect(c.target).toMatchObject({ space: space.id, revision: cr.revision, changeRequest: cr.id });
    expect(c.urls.location).toMatch(new RegExp(`/spaces/${space.id}/change-requests/${cr.id}/comments/${c.id}$`));
    await post(`/spaces/${space.id}/comments`, commenter, { body: { markdown: 'On the space' } }).expect(200);
    expect((await get(`/spaces/${space.id}/change-requests/${cr.id}`, reader).expect(200)).body.comments).toBe(1);
    expect((await spaceOf(space.id)).comments).toBe(1);
    const crList = (await get(`/spaces/${space.id}/change-requests/${cr.id}/comments`, reader).expect(200)).body;
    expect(crList.items.map((x: CommentBody) => x.id)).toEqual([c.id]);
    const spaceList = (await get(`/spaces/${space.id}/comments`, reader).expect(200)).body;
    expect(spaceList.items.map((x: CommentBody) => x.id)).not.toContain(c.id);
    expectError(await get(`/spaces/${space.id}/comments/${c.id}`, reader), 404);
    await put(`/spaces/${space.id}/change-requests/${cr.id}/comments/${c.id}`, admin, { resolved: true }).expect(200);
    expect((await get(`/spaces/${space.id}/change-requests/${cr.id}`, reader).expect(200)).body.comments).toBe(0);
    const reply = (
      await post(`/spaces/${space.id}/change-requests/${cr.id}/comments/${c.id}/replies`, other, { body: { markdown: 'ok' } }).expect(200)
    ).body as CommentBody;
    await get(`/spaces/${space.id}/change-requests/${cr.id}/comments/${c.id}/replies/${reply.id}`, reader).expect(200);
    expect((await get(`/spaces/${space.id}/change-requests/${cr.id}/comments/${c.id}/replies`, reader).expect(200)).body.count).toBe(1);
    expectError(await get(`/spaces/${space.id}/change-requests/999/comments`, reader), 404, /Change request/);
    expectError(await get(`/spaces/${space.id}/change-requests/${cr.id}/comments`, outsider), 404);
  });

  it('answers hostile and malformed bodies with 400', async () => {
    const space = await newSpace();
    const path = `/spaces/${space.id}/comments`;
    for (const body of [
      {},
      { body: null },
      { body: {} },
      { body: 'text' },
      { body: { markdown: null } },
      { body: { markdown: 'a', document: { object: 'document', nodes: [] } } },
      { body: { markdown: 'x'.repeat(100_001) } },
      { body: { markdown: 'nul\u0000byte' } },
      { body: { document: { object: 'block' } } },
      { body: { document: [] } },
      { body: { markdown: 'x' }, page: null },
      { body: { markdown: 'x' }, page: 16 },
      { body: { markdown: 'x' }, tableCell: { record: 'r' } },
    ])
      expectError(await post(path, commenter, body), 400);
    expectError(await put(`${path}/whatever`, commenter, { resolved: 'yes' }), 400);
    expect((await spaceOf(space.id)).comments).toBe(0);
  });

  it('keeps the open count exact when many commenters post and resolve at once', async () => {
    const space = await newSpace();
    const posted = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(`/spaces/${space.id}/comments`, i % 2 ? commenter : other, { body: { markdown: `c${i}` } }),
      ),
    );
    posted.forEach((r) => expect(r.status).toBe(200));
    expect((await spaceOf(space.id)).comments).toBe(20);
    const resolved = await Promise.all(
      posted.slice(0, 7).map((r) => put(`/spaces/${space.id}/comments/${r.body.id}`, admin, { resolved: true })),
    );
    resolved.forEach((r) => expect(r.status).toBe(200));
    expect((await spaceOf(space.id)).comments).toBe(13);
  });

  it('a list read again is the same; every write to comments, replies or reactions shows in the next read, for each caller with their own permissions', async () => {
    const space = await newSpace();
    const path = `/spaces/${space.id}/comments`;
    const c = (await post(path, commenter, { body: { markdown: 'one' } }).expect(200)).body as CommentBody;
    const read = async (who: TestUser) => (await get(path, who).expect(200)).body as { items: CommentBody[]; count: number };
    expect(await read(reader)).toEqual(await read(reader));
    expect((await read(commenter)).items[0].permissions.edit).toBe(true);
    expect((await read(reader)).items[0].permissions.edit).toBe(false);
    await put(`${path}/${c.id}`, other, { addedReactions: ['👍'] }).expect(200);
    expect((await read(reader)).items[0].reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);
    await post(`${path}/${c.id}/replies`, other, { body: { markdown: 'r' } }).expect(200);
    expect((await read(reader)).items[0].replies).toBe(1);
    await put(`${path}/${c.id}`, commenter, { body: { markdown: 'uno' }, resolved: true }).expect(200);
    expect((await read(reader)).items[0]).toMatchObject({ body: { markdown: 'uno' }, status: 'resolved' });
    await post(path, other, { body: { markdown: 'two' } }).expect(200);
    expect((await read(reader)).count).toBe(2);
    await t.http.delete(`/v1${path}/${c.id}`).set(commenter.auth).expect(205);
    expect((await read(reader)).items.map((x) => x.body.markdown)).toEqual(['two']);
  });
});
