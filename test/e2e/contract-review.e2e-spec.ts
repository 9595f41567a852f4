import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';

/** Comments, replies, reviews, review requests, the organization list and the PDF through the official client. */
describe('contract: review and comments', () => {
  let t: TestApp;
  let admin: TestUser;
  let reviewer: TestUser;
  let api: GitBookAPI;
  let asReviewer: GitBookAPI;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: '' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    admin = await t.user('admin');
    reviewer = await t.user('reviewer');
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
    asReviewer = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: reviewer.token });
  });
  afterAll(async () => t.close());

  it('drives comments and replies on a space and on a change request', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Review Org' })).data.id;
    const space = (await api.orgs.createSpace(org, { title: 'Docs' })).data;
    const posted = await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Is this **right**?' } });
    expect(posted.status).toBe(200);
    expect(schemas.check('Comment', posted.data)).toBe('');
    const resolved = await api.spaces.updateCommentInSpace(space.id, posted.data.id, { resolved: true, addedReactions: ['👍'] });
    expect(schemas.check('Comment', resolved.data)).toBe('');
    expect(resolved.data.status).toBe('resolved');
    const asDocument = await api.spaces.getCommentInSpace(space.id, posted.data.id, { format: 'document' });
    expect(schemas.check('Comment', asDocument.data)).toBe('');
    const list = await api.spaces.listCommentsInSpace(space.id, { status: 'resolved', order: 'asc' });
    expect(list.data.items.map((c) => c.id)).toEqual([posted.data.id]);
    list.data.items.forEach((c) => expect(schemas.check('Comment', c)).toBe(''));

    const reply = await api.spaces.postCommentReplyInSpace(space.id, posted.data.id, { body: { markdown: 'Yes.' } });
    expect(schemas.check('CommentReply', reply.data)).toBe('');
    const replies = await api.spaces.listCommentRepliesInSpace(space.id, posted.data.id);
    expect(replies.data.items).toHaveLength(1);
    replies.data.items.forEach((r) => expect(schemas.check('CommentReply', r)).toBe(''));
    const edited = await api.spaces.updateCommentReplyInSpace(space.id, posted.data.id, reply.data.id, { body: { markdown: 'Yes!' } });
    expect(schemas.check('CommentReply', edited.data)).toBe('');
    expect(schemas.check('CommentReply', (await api.spaces.getCommentReplyInSpace(space.id, posted.data.id, reply.data.id)).data)).toBe('');
    expect((await api.spaces.deleteCommentReplyInSpace(space.id, posted.data.id, reply.data.id)).status).toBe(205);
    expect((await api.spaces.deleteCommentInSpace(space.id, posted.data.id)).status).toBe(205);

    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Change' })).data;
    const onCr = await api.spaces.postCommentInChangeRequest(space.id, cr.id, { body: { markdown: 'On the change' } });
    expect(schemas.check('Comment', onCr.data)).toBe('');
    const crList = await api.spaces.listCommentsInChangeRequest(space.id, cr.id);
    crList.data.items.forEach((c) => expect(schemas.check('Comment', c)).toBe(''));
    const crReply = await api.spaces.postCommentReplyInChangeRequest(space.id, cr.id, onCr.data.id, { body: { markdown: 'ok' } });
    expect(schemas.check('CommentReply', crReply.data)).toBe('');
    const crReplies = await api.spaces.listCommentRepliesInChangeRequest(space.id, cr.id, onCr.data.id);
    crReplies.data.items.forEach((r) => expect(schemas.check('CommentReply', r)).toBe(''));
  });

  it('drives reviews, review requests, the organization list and the PDF export', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Review Org 2' })).data.id;
    await t.member(org, reviewer, 'review');
    const space = (await api.orgs.createSpace(org, { title: 'Docs' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Change' })).data;
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'insert_page', title: 'Page', document: { markdown: 'Text' } } as never],
    });

    const requested = await api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.id] });
    requested.data.users?.forEach((u) => expect(schemas.check('ChangeRequestRequestedReviewer', u)).toBe(''));
    const pending = await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id);
    expect(pending.data.items).toHaveLength(1);
    pending.data.items.forEach((u) => expect(schemas.check('ChangeRequestRequestedReviewer', u)).toBe(''));

    const review = await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'approved' as never,
      comment: { markdown: 'LGTM' },
    });
    expect(review.status).toBe(201);
    expect(schemas.check('ChangeRequestReview', review.data)).toBe('');
    const reviews = await api.spaces.getReviewsByChangeRequestId(space.id, cr.id);
    reviews.data.items.forEach((r) => expect(schemas.check('ChangeRequestReview', r)).toBe(''));
    expect(schemas.check('ChangeRequestReview', (await api.spaces.getChangeRequestReviewById(space.id, cr.id, review.data.id)).data)).toBe(
      '',
    );
    await api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.id] });
    expect((await api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewer.id)).status).toBe(205);

    const all = await api.orgs.listChangeRequestsForOrganization(org, { status: ['open', 'draft'] as never });
    expect(all.data.items.map((c) => c.id)).toEqual([cr.id]);
    all.data.items.forEach((c) => expect(schemas.check('ChangeRequest', c)).toBe(''));

    const pdf = await api.spaces.getChangeRequestPdf(space.id, cr.id, {});
    expect(Object.keys(pdf.data)).toEqual(['url']);
    expect(pdf.data.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/files\//);
  });
});
