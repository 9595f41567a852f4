import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * The official `listCommentersInSpace` and `listCommentersInChangeRequest` (who posted, as organization members)
 * and `getContributorsByChangeRequestId` (who wrote into a change request, who commented on it).
 */
describe('people around content: commenters and contributors', () => {
  let t: TestApp;
  let admin: TestUser;
  let ann: TestUser;
  let bob: TestUser;
  let cyd: TestUser;
  let leaver: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let org: string;
  let space: string;
  let cr: string;
  let api: GitBookAPI;
  let served: ReturnType<typeof servedValidator>;

  const comment = async (path: string, who: TestUser, text = 'A remark') =>
    (
      await t.http
        .post(`/v1${path}/comments`)
        .set(who.auth)
        .send({ body: { markdown: text } })
        .expect(200)
    ).body.id as string;
  const reply = (path: string, id: string, who: TestUser) =>
    t.http
      .post(`/v1${path}/comments/${id}/replies`)
      .set(who.auth)
      .send({ body: { markdown: 'Agreed' } })
      .expect(200);
  const ids = (body: { items: { id: string }[] }) => body.items.map((m) => m.id);

  beforeAll(async () => {
    t = await createTestApp();
    [admin, ann, bob, cyd, leaver, guest, outsider] = await Promise.all(
      ['admin', 'ann', 'bob', 'cyd', 'leaver', 'guest', 'outsider'].map((n) => t.user(n)),
    );
    org = await t.organization(admin);
    for (const u of [ann, bob, cyd, leaver]) await t.member(org, u, 'comment');
    await t.member(org, guest, null);
    await t.organization(outsider, 'Elsewhere');
    space = (await t.http.post(`/v1/orgs/${org}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body.id;
    cr = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({ subject: 'Draft' }).expect(201)).body.id;
    // On the space: bob first, then ann (twice), a reply by cyd, a comment by someone who then leaves.
    const first = await comment(`/spaces/${space}`, bob);
    await comment(`/spaces/${space}`, ann);
    await comment(`/spaces/${space}`, ann);
    await reply(`/spaces/${space}`, first, cyd);
    await comment(`/spaces/${space}`, leaver);
    expect((await t.http.delete(`/v1/orgs/${org}/members/${leaver.id}`).set(admin.auth)).status).toBe(205);
    // On the change request: ann only (her space comments do not count there, nor these on the space).
    await comment(`/spaces/${space}/change-requests/${cr}`, ann);
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
    served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
  });
  afterAll(async () => t.close());

  it('lists the space’s commenters (replies included) once each, in the order they first posted, as official OrganizationMembers', async () => {
    const res = await api.spaces.listCommentersInSpace(space);
    expect(res.status).toBe(200);
    expect(officialValidator().checkList('OrganizationMember', res.data)).toBe('');
    expect(served.check('GET', '/v1/spaces/{spaceId}/commenters', 200, res.data)).toEqual([]);
    expect(ids(res.data)).toEqual([bob.id, ann.id, cyd.id]);
    expect(res.data.count).toBe(3);
    expect(res.data.items[1]).toMatchObject({ object: 'member', id: ann.id, role: 'comment', user: { id: ann.id, displayName: 'ann' } });
  });

  it('lists a change request’s commenters apart from the space’s', async () => {
    const res = await api.spaces.listCommentersInChangeRequest(space, cr);
    expect(res.status).toBe(200);
    expect(served.check('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters', 200, res.data)).toEqual([]);
    expect(ids(res.data)).toEqual([ann.id]);
    // By number too, as every change request path.
    const number = (await t.http.get(`/v1/spaces/${space}/change-requests/${cr}`).set(admin.auth).expect(200)).body.number;
    expect(ids((await t.http.get(`/v1/spaces/${space}/change-requests/${number}/commenters`).set(admin.auth).expect(200)).body)).toEqual([
      ann.id,
    ]);
    const empty = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({ subject: 'Quiet' }).expect(201)).body.id;
    expect((await t.http.get(`/v1/spaces/${space}/change-requests/${empty}/commenters`).set(admin.auth).expect(200)).body).toMatchObject({
      items: [],
      count: 0,
    });
  });

  it('pages through them with the cursor, each once; a forged cursor or a bad limit is 400', async () => {
    const first = (await t.http.get(`/v1/spaces/${space}/commenters?limit=2`).set(ann.auth).expect(200)).body;
    expect(ids(first)).toEqual([bob.id, ann.id]);
    const second = (await t.http.get(`/v1/spaces/${space}/commenters?limit=2&page=${first.next.page}`).set(ann.auth).expect(200)).body;
    expect(ids(second)).toEqual([cyd.id]);
    expect(second.next).toBeUndefined();
    expectError(await t.http.get(`/v1/spaces/${space}/commenters?page=forged`).set(ann.auth), 400);
    expectError(await t.http.get(`/v1/spaces/${space}/commenters?limit=0x10`).set(ann.auth), 400);
    expectError(await t.http.get(`/v1/spaces/${space}/commenters?limit=1001`).set(ann.auth), 400);
  });

  it('follows the comments: a new commenter appears, one whose comments are all deleted leaves the list', async () => {
    const id = await comment(`/spaces/${space}`, admin);
    expect(ids((await t.http.get(`/v1/spaces/${space}/commenters`).set(admin.auth).expect(200)).body)).toEqual([
      bob.id,
      ann.id,
      cyd.id,
      admin.id,
    ]);
    expect((await t.http.delete(`/v1/spaces/${space}/comments/${id}`).set(admin.auth)).status).toBe(205);
    expect(ids((await t.http.get(`/v1/spaces/${space}/commenters`).set(admin.auth).expect(200)).body)).toEqual([bob.id, ann.id, cyd.id]);
  });

  it('refuses a guest the members’ details (403) even on a space shared with them, whose comments they read', async () => {
    const shared = await t.user('shared-guest');
    await t.member(org, shared, null);
    await t.http
      .post(`/v1/spaces/${space}/permissions`)
      .set(admin.auth)
      .send({ role: 'read', users: [shared.id] })
      .expect(204);
    await t.http.get(`/v1/spaces/${space}/comments`).set(shared.auth).expect(200);
    expectError(await t.http.get(`/v1/spaces/${space}/commenters`).set(shared.auth), 403, /Guests/);
    expectError(await t.http.get(`/v1/spaces/${space}/change-requests/${cr}/commenters`).set(shared.auth), 403, /Guests/);
    // Contributors name users, not members: a guest who reads the change request gets them.
    await t.http.get(`/v1/spaces/${space}/change-requests/${cr}/contributors`).set(shared.auth).expect(200);
  });

  it('answers whoever may read the comments; a guest with nothing shared and another organization get 404', async () => {
    expectError(await t.http.get(`/v1/spaces/${space}/commenters`).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space}/change-requests/${cr}/commenters`).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space}/commenters`).set(guest.auth), 404);
    expectError(await t.http.get(`/v1/spaces/nospace/commenters`).set(admin.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space}/change-requests/nocr/commenters`).set(admin.auth), 404);
    expectError(await t.http.get(`/v1/spaces/${space}/commenters`), 401);
  });

  describe('getContributorsByChangeRequestId', () => {
    const write = (path: string, who: TestUser, ref: string) =>
      t.http
        .post(`/v1${path}/content`)
        .set(who.auth)
        .send({ changes: [{ operation: 'insert_page', ref, document: { markdown: `# ${ref}\n\nText.` } }] })
        .query({ compat: 'false' })
        .expect(200);
    const contributors = async (path: string, who: TestUser = admin) =>
      (await t.http.get(`/v1${path}/contributors`).set(who.auth).expect(200)).body as {
        items: { user: { id: string }; count: number; actionType: string; updatedAt: string }[];
        count: number;
      };

    it('lists who wrote into the change request (how many edits, when last) and who commented, as the official client reads them', async () => {
      await t.member(org, ann, 'edit');
      await t.member(org, bob, 'edit');
      const draft = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({ subject: 'Guides' }).expect(201)).body
        .id as string;
      const path = `/spaces/${space}/change-requests/${draft}`;
      await write(path, ann, 'a1');
      t.clock.advance(60_000);
      await write(path, bob, 'b1');
      t.clock.advance(60_000);
      await write(path, ann, 'a2');
      t.clock.advance(60_000);
      await comment(path, cyd);
      // Main moves (another change request merged by the admin), and the draft is brought up to date: neither
      // the main line's edits nor the update count as the draft's.
      const other = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({ subject: 'Other' }).expect(201)).body
        .id;
      await write(`/spaces/${space}/change-requests/${other}`, admin, 'o1');
      await t.http.post(`/v1/spaces/${space}/change-requests/${other}/merge`).set(admin.auth).send({}).expect(200);
      await t.http.post(`/v1${path}/update`).set(bob.auth).send({}).expect(200);
      t.clock.advance(60_000);
      await write(path, bob, 'b2');

      const res = await api.spaces.getContributorsByChangeRequestId(space, draft);
      expect(res.status).toBe(200);
      expect(served.check('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/contributors', 200, res.data)).toEqual([]);
      expect(officialValidator().checkList('ChangeRequestUserContributor', res.data)).toBe('');
      expect(res.data.items.map((c) => [c.user.id, c.actionType, c.count])).toEqual([
        [bob.id, 'edit', 2],
        [cyd.id, 'comment', 1],
        [ann.id, 'edit', 2],
      ]);
      expect(res.data.count).toBe(3);
      expect(Date.parse(res.data.items[0].updatedAt)).toBe(t.clock.now().getTime());
      // The merged change request has its own: the admin alone.
      expect((await contributors(`/spaces/${space}/change-requests/${other}`)).items.map((c) => [c.user.id, c.actionType])).toEqual([
        [admin.id, 'edit'],
      ]);
    });

    it('is empty for a change request nobody wrote into or commented on; 404 for whoever may not read it', async () => {
      const quiet = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({ subject: 'Quiet' }).expect(201)).body
        .id;
      expect(await contributors(`/spaces/${space}/change-requests/${quiet}`)).toEqual({ items: [], count: 0 });
      expectError(await t.http.get(`/v1/spaces/${space}/change-requests/${quiet}/contributors`).set(outsider.auth), 404);
      expectError(await t.http.get(`/v1/spaces/${space}/change-requests/${quiet}/contributors`).set(guest.auth), 404);
      expectError(await t.http.get(`/v1/spaces/${space}/change-requests/nocr/contributors`).set(admin.auth), 404);
    });
  });
});
