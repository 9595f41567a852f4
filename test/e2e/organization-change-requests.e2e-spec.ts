import { Db } from '@app/persistence';
import { SpacesService } from '@app/spaces-and-content';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('GET /orgs/{id}/change-requests (listChangeRequestsForOrganization)', () => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let reviewer: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrg: string;
  const crs: Record<string, { id: string; space: string }> = {};

  const space = async (org: string, who: TestUser) =>
    (await t.http.post(`/v1/orgs/${org}/spaces`).set(who.auth).send({ title: 'S' }).expect(201)).body.id as string;
  const create = async (spaceId: string, who: TestUser, subject: string) => {
    t.clock.advance(1000); // distinct creation times: the order is the test's subject
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(who.auth).send({ subject }).expect(201)).body;
    crs[subject] = { id: cr.id, space: spaceId };
    return cr.id as string;
  };
  const list = async (q = '', who: TestUser = reviewer) => {
    const body = (await t.http.get(`/v1/orgs/${orgId}/change-requests${q}`).set(who.auth).expect(200)).body;
    return body.items.map((c: { subject: string }) => c.subject) as string[];
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    editor = await t.user('editor');
    reviewer = await t.user('reviewer');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, editor, 'edit');
    await t.member(orgId, reviewer, 'review');
    otherOrg = await t.organization(outsider, 'Elsewhere');
    const a = await space(orgId, admin);
    const b = await space(orgId, admin);
    const gone = await space(orgId, admin);
    await create(a, admin, 'a1');
    await create(a, editor, 'a2');
    await create(b, editor, 'b1');
    const draft = await create(b, admin, 'b2');
    await t.http.patch(`/v1/spaces/${b}/change-requests/${draft}`).set(admin.auth).send({ status: 'draft' }).expect(200);
    await create(gone, admin, 'gone');
    await t.http.delete(`/v1/spaces/${gone}`).set(admin.auth).expect(205);
    await create(await space(otherOrg, outsider), outsider, 'foreign');
    // a1 is written into (contributor: editor) and so updated last; b1 has a review request.
    t.clock.advance(1000);
    await t.http
      .post(`/v1/spaces/${a}/change-requests/${crs.a1.id}/content`)
      .set(editor.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'P', document: { markdown: 'x' } }] })
      .expect(200);
    await t.http
      .post(`/v1/spaces/${b}/change-requests/${crs.b1.id}/requested-reviewers`)
      .set(editor.auth)
      .send({ users: [reviewer.id] })
      .expect(200);
  });
  afterAll(async () => t.close());

  it('lists open change requests of the live spaces of the organization, most recently updated first', async () => {
    const res = (await t.http.get(`/v1/orgs/${orgId}/change-requests`).set(reviewer.auth).expect(200)).body;
    expect(res.items.map((c: { subject: string }) => c.subject)).toEqual(['a1', 'b1', 'a2']);
    expect(res.count).toBe(3);
    expect(res.items[0]).toMatchObject({ object: 'change-request', id: crs.a1.id, space: crs.a1.space, status: 'open' });
  });

  it('filters by status (one or several), creator, contributor, requested reviewer and space; orders by creation on request', async () => {
    expect(await list('?status=draft')).toEqual(['b2']);
    expect(await list('?status=open&status=draft&orderBy=createdAt')).toEqual(['b2', 'b1', 'a2', 'a1']);
    expect(await list(`?creator=${editor.id}`)).toEqual(['b1', 'a2']);
    expect(await list(`?contributor=${editor.id}`)).toEqual(['a1']);
    expect(await list(`?requestedReviewer=${reviewer.id}`)).toEqual(['b1']);
    expect(await list(`?space=${crs.a1.space}&orderBy=createdAt`)).toEqual(['a2', 'a1']);
    expect(await list(`?space=${crs.gone.space}`)).toEqual([]);
    expect(await list(`?space=${crs.foreign.space}`)).toEqual([]);
    expect(await list('?conversationsIssuesCluster=c1')).toEqual([]);
    expect(await list('?site=s1')).toEqual([]);
    expect(await list('?finding=none')).toEqual(['a1', 'b1', 'a2']);
    expect(await list('?status=open&status=draft')).toEqual(['a1', 'b2', 'b1', 'a2']);
  });

  it('pages with a keyset cursor; refuses bad filters; non-members get 404', async () => {
    const first = (await t.http.get(`/v1/orgs/${orgId}/change-requests?limit=2`).set(reviewer.auth).expect(200)).body;
    expect(first.items).toHaveLength(2);
    const second = (
      await t.http
        .get(`/v1/orgs/${orgId}/change-requests?limit=2&page=${encodeURIComponent(first.next.page)}`)
        .set(reviewer.auth)
        .expect(200)
    ).body;
    expect([...first.items, ...second.items].map((c: { subject: string }) => c.subject)).toEqual(['a1', 'b1', 'a2']);
    expect(second.next).toBeUndefined();
    expectError(await t.http.get(`/v1/orgs/${orgId}/change-requests?status=closed`).set(reviewer.auth), 400, /status/);
    expectError(await t.http.get(`/v1/orgs/${orgId}/change-requests?orderBy=title`).set(reviewer.auth), 400, /orderBy/);
    expectError(await t.http.get(`/v1/orgs/${orgId}/change-requests?finding=some`).set(reviewer.auth), 400, /finding/);
    expectError(await t.http.get(`/v1/orgs/${orgId}/change-requests`).set(outsider.auth), 404, /Organization/);
    const theirs = (await t.http.get(`/v1/orgs/${otherOrg}/change-requests`).set(outsider.auth).expect(200)).body;
    expect(theirs.items.map((c: { subject: string }) => c.subject)).toEqual(['foreign']);
    expectError(await t.http.get(`/v1/orgs/${otherOrg}/change-requests`).set(reviewer.auth), 404);
  });

  it('follows the spaces: a restored space brings its change requests back, a transfer takes them (and their comments) along, a purge removes them', async () => {
    const restored = await space(orgId, admin);
    await create(restored, admin, 'restored');
    const moving = await space(orgId, admin);
    const moved = await create(moving, admin, 'moved');
    const comment = (
      await t.http
        .post(`/v1/spaces/${moving}/change-requests/${moved}/comments`)
        .set(admin.auth)
        .send({ body: { markdown: 'c' } })
        .expect(200)
    ).body;
    await t.http.delete(`/v1/spaces/${restored}`).set(admin.auth).expect(205);
    expect(await list(`?space=${restored}`)).toEqual([]);
    await t.http.post(`/v1/spaces/${restored}/restore`).set(admin.auth).expect(200);
    expect(await list(`?space=${restored}`)).toEqual(['restored']);

    await t.member(otherOrg, admin, 'admin');
    await t.http.post(`/v1/spaces/${moving}/transfer`).set(admin.auth).send({ organization: otherOrg }).expect(200);
    expect(await list(`?space=${moving}`)).toEqual([]);
    const there = (await t.http.get(`/v1/orgs/${otherOrg}/change-requests?space=${moving}`).set(outsider.auth).expect(200)).body;
    expect(there.items.map((c: { id: string }) => c.id)).toEqual([moved]);
    await t.http.get(`/v1/spaces/${moving}/change-requests/${moved}/comments/${comment.id}`).set(outsider.auth).expect(200);

    await t.http.delete(`/v1/spaces/${restored}`).set(admin.auth).expect(205);
    t.clock.advance(8 * 24 * 3600_000);
    try {
      expect(await t.app.get(SpacesService).purgeExpired()).toBeGreaterThanOrEqual(1);
    } finally {
      t.clock.advance(-8 * 24 * 3600_000);
    }
    expect(await list('?status=open&status=draft&status=archived&status=merged')).not.toContain('restored');
    const rows: { n: number }[] = await t.app
      .get(Db)
      .query('SELECT count(*)::int AS n FROM change_requests WHERE space_id = $1', [restored]);
    expect(rows[0].n).toBe(0);
  });

  it('a list read again is the same, and every change shows in the next read (new, status, review request, comments, outdated after a merge, space gone)', async () => {
    const s = await space(orgId, admin);
    const read = async () =>
      (await t.http.get(`/v1/orgs/${orgId}/change-requests?space=${s}&status=open&status=draft`).set(reviewer.auth).expect(200)).body as {
        items: { id: string; status: string; comments: number; outdated: boolean }[];
      };
    const first = await create(s, admin, 'c1');
    expect((await read()).items.map((c) => c.id)).toEqual([first]);
    expect(await read()).toEqual(await read());
    const second = await create(s, admin, 'c2');
    expect((await read()).items.map((c) => c.id)).toEqual([second, first]);
    await t.http.patch(`/v1/spaces/${s}/change-requests/${first}`).set(admin.auth).send({ status: 'draft' }).expect(200);
    expect((await read()).items.find((c) => c.id === first)?.status).toBe('draft');
    const asked = async () =>
      (await t.http.get(`/v1/orgs/${orgId}/change-requests?space=${s}&requestedReviewer=${reviewer.id}`).set(reviewer.auth).expect(200))
        .body.items;
    expect(await asked()).toEqual([]);
    await t.http
      .post(`/v1/spaces/${s}/change-requests/${second}/requested-reviewers`)
      .set(admin.auth)
      .send({ users: [reviewer.id] })
      .expect(200);
    expect((await asked()).map((c: { id: string }) => c.id)).toEqual([second]);
    await t.http
      .post(`/v1/spaces/${s}/change-requests/${second}/comments`)
      .set(admin.auth)
      .send({ body: { markdown: 'x' } })
      .expect(200);
    expect((await read()).items.find((c) => c.id === second)?.comments).toBe(1);
    expect((await read()).items.find((c) => c.id === first)?.outdated).toBe(false);
    await t.http
      .post(`/v1/spaces/${s}/change-requests/${second}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'P', document: { markdown: 'x' } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${s}/change-requests/${second}/merge`).set(admin.auth).expect(200);
    const afterMerge = await read();
    expect(afterMerge.items.map((c) => c.id)).toEqual([first]);
    expect(afterMerge.items[0].outdated).toBe(true);
    await t.http.delete(`/v1/spaces/${s}`).set(admin.auth).expect(205);
    expect((await read()).items).toEqual([]);
  });

  it('a change request becomes outdated in the list when main moves without it (a template applied to the space)', async () => {
    const s = await space(orgId, admin);
    const cr = await create(s, admin, 'waiting');
    const outdated = async () =>
      (await t.http.get(`/v1/orgs/${orgId}/change-requests?space=${s}`).set(reviewer.auth).expect(200)).body.items.map(
        (c: { id: string; outdated: boolean }) => [c.id, c.outdated],
      );
    expect(await outdated()).toEqual([[cr, false]]);
    await t.http.post(`/v1/spaces/${s}/content/template`).set(admin.auth).send({ id: 'getting-started' }).expect(204);
    expect(await outdated()).toEqual([[cr, true]]);
  });
});
