import { DomainEvent, DomainEvents } from '@app/shared-kernel';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('reviews, review requests and merge rules of change requests', () => {
  let t: TestApp;
  let admin: TestUser;
  let reviewer: TestUser;
  let reviewer2: TestUser;
  let editor: TestUser;
  let commenter: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reviewer = await t.user('reviewer');
    reviewer2 = await t.user('reviewer2');
    editor = await t.user('editor');
    commenter = await t.user('commenter');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, reviewer, 'review');
    await t.member(orgId, reviewer2, 'review');
    await t.member(orgId, editor, 'edit');
    await t.member(orgId, commenter, 'comment');
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => t.close());

  const space = async (mergeRules?: object) => {
    const s = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body;
    if (mergeRules) await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send({ mergeRules }).expect(200);
    return s.id as string;
  };
  /** A change request by `author` with one page written into it. */
  const changeRequest = async (spaceId: string, author: TestUser = editor) => {
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(author.auth).send({ subject: 'Fix' }).expect(201)).body;
    await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`)
      .set(author.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'New', document: { markdown: 'Text' } }] })
      .expect(200);
    return (await t.http.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`).set(author.auth).expect(200)).body as {
      id: string;
      number: number;
      revision: string;
    };
  };
  const review = (spaceId: string, crId: string, who: TestUser, body: object) =>
    t.http.post(`/v1/spaces/${spaceId}/change-requests/${crId}/reviews`).set(who.auth).send(body);
  const merge = (spaceId: string, crId: string, who: TestUser) =>
    t.http.post(`/v1/spaces/${spaceId}/change-requests/${crId}/merge`).set(who.auth);

  it('submits reviews with the official shape, lists and gets them; only reviewers who are not the author', async () => {
    const s = await space();
    const cr = await changeRequest(s);
    const res = await review(s, cr.id, reviewer, { status: 'approved' }).expect(201);
    expect(res.body).toMatchObject({
      object: 'change-request-review',
      revision: cr.revision,
      reviewer: { object: 'user', id: reviewer.id },
      status: 'approved',
      outdated: false,
      urls: { location: expect.stringMatching(new RegExp(`/spaces/${s}/change-requests/${cr.id}/reviews/${res.body.id}$`)) },
    });
    expect(res.body.requestedBy).toBeUndefined();
    expect(res.body.comment).toBeUndefined();
    expect(res.headers.location).toBe(res.body.urls.location);
    expect(
      (await t.http.get(`/v1/spaces/${s}/change-requests/${cr.number}/reviews/${res.body.id}`).set(reader.auth).expect(200)).body.id,
    ).toBe(res.body.id);
    expect((await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/reviews`).set(reader.auth).expect(200)).body.count).toBe(1);
    expectError(await review(s, cr.id, editor, { status: 'approved' }), 403, /author/);
    expectError(await review(s, cr.id, commenter, { status: 'approved' }), 403, /review/);
    expectError(await review(s, cr.id, reader, { status: 'approved' }), 403, /review/);
    expectError(await review(s, cr.id, outsider, { status: 'approved' }), 404);
    expectError(await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/reviews`).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/reviews/noreview`).set(reader.auth), 404, /Review/);
    for (const body of [
      {},
      { status: 'rejected' },
      { status: null },
      { status: 'approved', comment: null },
      { status: 'approved', comment: 'x' },
    ])
      expectError(await review(s, cr.id, reviewer, body), 400);
    expectError(await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/reviews?outdated=yes`).set(reader.auth), 400, /outdated/);
  });

  it('a review with a comment posts it on the change request (target.review); a new submission outdates the earlier one', async () => {
    const s = await space();
    const cr = await changeRequest(s);
    const first = (
      await review(s, cr.id, reviewer, { status: 'changes-requested', comment: { markdown: 'Please **fix** it' } }).expect(201)
    ).body;
    expect(first.comment).toMatchObject({
      object: 'comment',
      body: { markdown: 'Please **fix** it' },
      target: { changeRequest: cr.id, review: first.id },
    });
    const comments = (await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/comments`).set(reader.auth).expect(200)).body;
    expect(comments.items.map((c: { id: string }) => c.id)).toEqual([first.comment.id]);
    expect((await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}`).set(reader.auth).expect(200)).body.comments).toBe(1);
    const asDoc = (
      await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/reviews/${first.id}?format=document`).set(reader.auth).expect(200)
    ).body;
    expect(asDoc.comment.body.document.object).toBe('document');
    // The empty Document form is no comment.
    const second = (await review(s, cr.id, reviewer, { status: 'approved', comment: {} }).expect(201)).body;
    expect(second.comment).toBeUndefined();
    const all = (await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/reviews`).set(reader.auth).expect(200)).body;
    expect(all.items.map((r: { id: string; outdated: boolean }) => [r.id, r.outdated])).toEqual([
      [first.id, true],
      [second.id, false],
    ]);
    const current = (await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/reviews?outdated=false`).set(reader.auth).expect(200)).body;
    expect(current.items.map((r: { id: string }) => r.id)).toEqual([second.id]);
  });

  it('requests reviewers (the edit role), lists them, filters change requests by them; a submission fulfils the request', async () => {
    const s = await space();
    const cr = await changeRequest(s);
    const res = await t.http
      .post(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers`)
      .set(editor.auth)
      .send({ users: [reviewer.id, reviewer2.id, reviewer.id], subject: 'Please review' })
      .expect(200);
    expect(res.body.users).toHaveLength(2);
    expect(res.body.users[0]).toMatchObject({
      object: 'change-request-requested-reviewer',
      kind: 'user',
      user: { id: reviewer.id },
      requestedBy: { id: editor.id },
      revision: cr.revision,
    });
    expect((await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}`).set(reader.auth).expect(200)).body.subject).toBe('Please review');
    const listed = (await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers`).set(reader.auth).expect(200)).body;
    expect(listed.items.map((r: { user: { id: string } }) => r.user.id)).toEqual([reviewer.id, reviewer2.id]);
    const filtered = (await t.http.get(`/v1/spaces/${s}/change-requests?requestedReviewer=${reviewer.id}`).set(reader.auth).expect(200))
      .body;
    expect(filtered.items.map((c: { id: string }) => c.id)).toEqual([cr.id]);
    expect(
      (await t.http.get(`/v1/spaces/${s}/change-requests?requestedReviewer=${commenter.id}`).set(reader.auth).expect(200)).body.count,
    ).toBe(0);

    const submitted = (await review(s, cr.id, reviewer, { status: 'approved' }).expect(201)).body;
    expect(submitted.requestedBy).toMatchObject({ id: editor.id });
    const after = (await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers`).set(reader.auth).expect(200)).body;
    expect(after.items.map((r: { user: { id: string } }) => r.user.id)).toEqual([reviewer2.id]);
    // Asking again outdates the earlier review.
    await t.http
      .post(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers`)
      .set(editor.auth)
      .send({ users: [reviewer.id] })
      .expect(200);
    expect(
      (await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/reviews/${submitted.id}`).set(reader.auth).expect(200)).body.outdated,
    ).toBe(true);
    await t.http.delete(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers/${reviewer2.id}`).set(editor.auth).expect(205);
    await t.http.delete(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers/${reviewer2.id}`).set(editor.auth).expect(204);
    await t.http.delete(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers/${reviewer.id}`).set(outsider.auth).expect(204);
    expect((await t.http.get(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers`).set(reader.auth).expect(200)).body.count).toBe(
      1,
    );

    const ask = (who: TestUser, body: object) =>
      t.http.post(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers`).set(who.auth).send(body);
    expectError(await ask(commenter, { users: [reviewer.id] }), 403, /edit/);
    expectError(await ask(editor, { users: [editor.id] }), 400, /author/);
    expectError(await ask(editor, { users: [reader.id] }), 400, /cannot review/);
    expectError(await ask(editor, { users: [outsider.id] }), 400, /not a member/);
    expectError(await ask(editor, { users: [] }), 400, /users/);
    expectError(await ask(editor, { users: 'x' }), 400, /users/);
    expectError(await ask(editor, { users: [reviewer.id], subject: 'x'.repeat(101) }), 400, /subject/);
    expectError(await ask(outsider, { users: [reviewer.id] }), 404);
  });

  it('enforces the space merge rules: 412 naming the unmet rule, until reviews meet it', async () => {
    const s = await space({
      type: 'rules',
      rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'require_specific_reviewers', users: [reviewer2.id] }],
    });
    const cr = await changeRequest(s);
    expectError(await merge(s, cr.id, editor), 412, /require_at_least_one_approved_review/);
    await review(s, cr.id, reviewer, { status: 'changes-requested' }).expect(201);
    expectError(await merge(s, cr.id, editor), 412, /require_at_least_one_approved_review/);
    await review(s, cr.id, reviewer, { status: 'approved' }).expect(201);
    expectError(await merge(s, cr.id, editor), 412, new RegExp(`require_specific_reviewers.*${reviewer2.id}`));
    await review(s, cr.id, reviewer2, { status: 'approved' }).expect(201);
    await merge(s, cr.id, editor).expect(200);
    expectError(await review(s, cr.id, reviewer, { status: 'approved' }), 409, /merged/);
    expectError(
      await t.http
        .post(`/v1/spaces/${s}/change-requests/${cr.id}/requested-reviewers`)
        .set(editor.auth)
        .send({ users: [reviewer.id] }),
      409,
      /merged/,
    );
  });

  it('inherits the organization merge rules; allow_bypass lets its users merge anyway; rules "none" merge freely', async () => {
    await t.http
      .patch(`/v1/orgs/${orgId}`)
      .set(admin.auth)
      .send({ mergeRules: { type: 'rules', rules: [{ rule: 'require_author_to_merge' }, { rule: 'allow_bypass', users: [admin.id] }] } })
      .expect(200);
    try {
      const s = await space();
      const a = await changeRequest(s);
      expectError(await merge(s, a.id, reviewer), 412, /require_author_to_merge/);
      await merge(s, a.id, editor).expect(200);
      const b = await changeRequest(s);
      await merge(s, b.id, admin).expect(200);
      const free = await space({ type: 'none' });
      const c = await changeRequest(free);
      await merge(free, c.id, reviewer).expect(200);
    } finally {
      await t.http
        .patch(`/v1/orgs/${orgId}`)
        .set(admin.auth)
        .send({ mergeRules: { type: 'none' } })
        .expect(200);
    }
  });

  it('publishes domain events after each write commits (change request, comment, reply, resolve, review, status, merge); none for refused writes', async () => {
    const seen: DomainEvent[] = [];
    const off = t.app.get(DomainEvents).subscribe((e) => {
      seen.push(e);
    });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    try {
      const s = await space({ type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] });
      const cr = await changeRequest(s);
      const base = `/v1/spaces/${s}/change-requests/${cr.id}`;
      const comment = (
        await t.http
          .post(`${base}/comments`)
          .set(commenter.auth)
          .send({ body: { markdown: 'Hm' } })
          .expect(200)
      ).body;
      await t.http
        .post(`${base}/comments/${comment.id}/replies`)
        .set(editor.auth)
        .send({ body: { markdown: 'Fixed' } })
        .expect(200);
      await t.http.put(`${base}/comments/${comment.id}`).set(editor.auth).send({ resolved: true }).expect(200);
      expectError(await merge(s, cr.id, editor), 412);
      await t.http.patch(base).set(editor.auth).send({ status: 'draft' }).expect(200);
      await t.http.patch(base).set(editor.auth).send({ status: 'open' }).expect(200);
      const r = (await review(s, cr.id, reviewer, { status: 'approved' }).expect(201)).body;
      await merge(s, cr.id, editor).expect(200);
      await settle();
      const mine = seen.filter((e) => e.data.changeRequestId === cr.id);
      expect(mine.map((e) => [e.type, e.actor, e.data.from ?? null, e.data.to ?? null])).toEqual([
        ['change-request.created', editor.id, null, 'open'],
        ['comment.created', commenter.id, null, null],
        ['comment.replied', editor.id, null, null],
        ['comment.resolved', editor.id, null, null],
        ['change-request.status-changed', editor.id, 'open', 'draft'],
        ['change-request.status-changed', editor.id, 'draft', 'open'],
        ['review.submitted', reviewer.id, null, null],
        ['change-request.status-changed', editor.id, 'open', 'merged'],
      ]);
      expect(mine.every((e) => e.organizationId === orgId && e.data.spaceId === s)).toBe(true);
      expect(mine[1].data.commentId).toBe(comment.id);
      expect(mine[6].data).toMatchObject({ reviewId: r.id, status: 'approved' });
    } finally {
      off();
    }
  });
});
