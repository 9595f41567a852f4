import { OrganizationsService } from '@app/organizations-and-teams';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('organization members, joining and link invites', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => t.close());

  describe('members', () => {
    let ed: TestUser;
    let rita: TestUser;
    beforeAll(async () => {
      t.clock.advance(1000);
      ed = await t.user('Edward');
      await t.member(orgId, ed, 'edit');
      t.clock.advance(1000);
      rita = await t.user('Rita');
      await t.member(orgId, rita, 'read');
    });

    it('GET /members lists members with the official shape; newest first by default', async () => {
      const res = await t.http.get(`/v1/orgs/${orgId}/members`).set(ed.auth).expect(200);
      expect(res.body.count).toBe(3);
      expect(res.body.items.map((m: { id: string }) => m.id)).toEqual([rita.id, ed.id, admin.id]);
      expect(res.body.items[0]).toEqual({
        object: 'member',
        id: rita.id,
        role: 'read',
        user: {
          object: 'user',
          id: rita.id,
          displayName: 'Rita',
          email: rita.email,
          urls: { location: `http://quire.test/v1/users/${rita.id}` },
        },
        disabled: false,
        joinedAt: expect.any(String),
        sso: false,
        spaces: 0,
        teams: 0,
        sites: 0,
      });
    });

    it('filters by role and search, sorts by name or joinedAt in either order, and pages', async () => {
      const get = async (q: string) => (await t.http.get(`/v1/orgs/${orgId}/members?${q}`).set(admin.auth).expect(200)).body;
      expect((await get('role=edit')).items.map((m: { id: string }) => m.id)).toEqual([ed.id]);
      expect((await get('role=guest')).count).toBe(0);
      expect((await get('search=RIT')).items.map((m: { id: string }) => m.id)).toEqual([rita.id]);
      expect((await get(`search=${encodeURIComponent(ed.email.slice(0, 8))}`)).items.map((m: { id: string }) => m.id)).toEqual([ed.id]);
      expect((await get('search=%25')).count).toBe(0);
      expect((await get('sort=name&order=asc')).items.map((m: { user: { displayName: string } }) => m.user.displayName)).toEqual([
        'admin',
        'Edward',
        'Rita',
      ]);
      expect((await get('sort=joinedAt&order=asc')).items.map((m: { id: string }) => m.id)).toEqual([admin.id, ed.id, rita.id]);
      const p1 = await get('limit=2&sort=name&order=desc');
      const p2 = await get(`limit=2&sort=name&order=desc&page=${p1.next.page}`);
      expect([...p1.items, ...p2.items].map((m: { user: { displayName: string } }) => m.user.displayName)).toEqual([
        'Rita',
        'Edward',
        'admin',
      ]);
      expect(p2.next).toBeUndefined();
      expectError(await t.http.get(`/v1/orgs/${orgId}/members?sort=age`).set(admin.auth), 400, /sort/);
      expectError(await t.http.get(`/v1/orgs/${orgId}/members?order=up`).set(admin.auth), 400, /order/);
      expectError(await t.http.get(`/v1/orgs/${orgId}/members?role=owner`).set(admin.auth), 400, /role/);
    });

    it('GET /members/{userId}; 404 for non-members and strangers', async () => {
      const res = await t.http.get(`/v1/orgs/${orgId}/members/${ed.id}`).set(rita.auth).expect(200);
      expect(res.body.role).toBe('edit');
      const stranger = await t.user('stranger');
      expectError(await t.http.get(`/v1/orgs/${orgId}/members/${stranger.id}`).set(admin.auth), 404, /Member/);
      expectError(await t.http.get(`/v1/orgs/${orgId}/members`).set(stranger.auth), 404);
    });

    it('GET /members/{userId}/spaces lists the spaces the member can access with their role on each', async () => {
      const older = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Older' }).expect(201)).body;
      t.clock.advance(1000);
      const open = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Open' }).expect(201)).body;
      await t.http.patch(`/v1/spaces/${open.id}`).set(admin.auth).send({ defaultLevel: 'edit' }).expect(200);
      const res = await t.http.get(`/v1/orgs/${orgId}/members/${rita.id}/spaces`).set(ed.auth).expect(200);
      expect(res.body.count).toBe(2);
      expect(res.body.items.map((i: { permission: string; space: { id: string } }) => [i.space.id, i.permission])).toEqual([
        [open.id, 'edit'],
        [older.id, 'read'],
      ]);
      expect(res.body.items[0].space.permissions.edit).toBe(true); // the caller's own permissions on the space
      const asc = await t.http.get(`/v1/orgs/${orgId}/members/${rita.id}/spaces?order=asc&limit=1`).set(ed.auth).expect(200);
      expect(asc.body.items[0].space.id).toBe(older.id);
      const next = await t.http
        .get(`/v1/orgs/${orgId}/members/${rita.id}/spaces?order=asc&limit=1&page=${asc.body.next.page}`)
        .set(ed.auth)
        .expect(200);
      expect(next.body.items[0].space.id).toBe(open.id);
      expectError(await t.http.get(`/v1/orgs/${orgId}/members/nobody/spaces`).set(ed.auth), 404, /Member/);
      expectError(await t.http.get(`/v1/orgs/${orgId}/members/${rita.id}/spaces?order=sideways`).set(ed.auth), 400, /order/);
      await t.http.delete(`/v1/spaces/${older.id}`).set(admin.auth).expect(205);
      await t.http.delete(`/v1/spaces/${open.id}`).set(admin.auth).expect(205);
    });

    it("the CLI's member:add obeys the last-admin rule too (OrganizationsService.addMember)", async () => {
      const owner = await t.user('solo');
      const org = await t.organization(owner, 'Solo org');
      const organizations = t.app.get(OrganizationsService);
      await expect(organizations.addMember(org, owner.id, 'read')).rejects.toThrow(/at least one admin/);
      expect((await t.http.get(`/v1/orgs/${org}/members/${owner.id}`).set(owner.auth).expect(200)).body.role).toBe('admin');
      const second = await t.user('second');
      await organizations.addMember(org, second.id, 'admin');
      await organizations.addMember(org, owner.id, 'read');
      expect((await t.http.get(`/v1/orgs/${org}/members/${owner.id}`).set(second.auth).expect(200)).body.role).toBe('read');
    });

    it('PATCH changes a role (admins only); the last admin cannot be demoted (409)', async () => {
      const res = await t.http.patch(`/v1/orgs/${orgId}/members/${ed.id}`).set(admin.auth).send({ role: 'review' }).expect(200);
      expect(res.body.role).toBe('review');
      const seen = await t.http.get(`/v1/orgs/${orgId}`).set(ed.auth).expect(200);
      expect(seen.body.permissions.createContent).toBe(false);
      expectError(await t.http.patch(`/v1/orgs/${orgId}/members/${rita.id}`).set(ed.auth).send({ role: 'admin' }), 403);
      expectError(
        await t.http.patch(`/v1/orgs/${orgId}/members/${admin.id}`).set(admin.auth).send({ role: 'edit' }),
        409,
        /at least one admin/,
      );
      expectError(await t.http.patch(`/v1/orgs/${orgId}/members/${rita.id}`).set(admin.auth).send({ role: 'owner' }), 400, /role/);
      // null makes a guest (the official MemberRoleOrGuest), who then sees no member list; back to read.
      const guest = await t.http.patch(`/v1/orgs/${orgId}/members/${rita.id}`).set(admin.auth).send({ role: null }).expect(200);
      expect(guest.body.role).toBeNull();
      expectError(await t.http.get(`/v1/orgs/${orgId}/members`).set(rita.auth), 404);
      await t.http.patch(`/v1/orgs/${orgId}/members/${rita.id}`).set(admin.auth).send({ role: 'read' }).expect(200);
      expectError(await t.http.patch(`/v1/orgs/${orgId}/members/${rita.id}`).set(admin.auth).send({}), 400, /role/);
      expectError(await t.http.patch(`/v1/orgs/${orgId}/members/nobody`).set(admin.auth).send({ role: 'read' }), 404);
      await t.http.patch(`/v1/orgs/${orgId}/members/${ed.id}`).set(admin.auth).send({ role: 'admin' }).expect(200);
      await t.http.patch(`/v1/orgs/${orgId}/members/${admin.id}`).set(admin.auth).send({ role: 'edit' }).expect(200);
      await t.http.patch(`/v1/orgs/${orgId}/members/${admin.id}`).set(ed.auth).send({ role: 'admin' }).expect(200);
      await t.http.patch(`/v1/orgs/${orgId}/members/${ed.id}`).set(admin.auth).send({ role: 'edit' }).expect(200);
    });

    it('two concurrent demotions of the last two admins leave one admin', async () => {
      const u = await t.user('duo');
      const org = await t.organization(u);
      const v = await t.user('duo2');
      await t.member(org, v, 'admin');
      const [a, b] = await Promise.all([
        t.http.patch(`/v1/orgs/${org}/members/${u.id}`).set(u.auth).send({ role: 'read' }),
        t.http.patch(`/v1/orgs/${org}/members/${v.id}`).set(v.auth).send({ role: 'read' }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const admins = (await t.http.get(`/v1/orgs/${org}/members?role=admin`).set(u.auth).expect(200)).body;
      expect(admins.count).toBe(1);
    });

    it('DELETE removes (205), then 204; members may leave; the last admin cannot go (409); others need admin (403)', async () => {
      const leaver = await t.user('leaver');
      await t.member(orgId, leaver, 'read');
      expectError(await t.http.delete(`/v1/orgs/${orgId}/members/${ed.id}`).set(rita.auth), 403);
      await t.http.delete(`/v1/orgs/${orgId}/members/${leaver.id}`).set(leaver.auth).expect(205);
      expectError(await t.http.get(`/v1/orgs/${orgId}`).set(leaver.auth), 404);
      await t.http.delete(`/v1/orgs/${orgId}/members/${leaver.id}`).set(admin.auth).expect(204);
      expectError(await t.http.delete(`/v1/orgs/${orgId}/members/${admin.id}`).set(admin.auth), 409);
      const stranger = await t.user('outsider');
      await t.http.delete(`/v1/orgs/${orgId}/members/${rita.id}`).set(stranger.auth).expect(204);
      await t.http.get(`/v1/orgs/${orgId}/members/${rita.id}`).set(admin.auth).expect(200);
    });
  });

  describe('join by email domain', () => {
    it('joins with the defaultRole when the email domain matches (null: as a guest); twice is harmless; otherwise 400', async () => {
      const owner = await t.user('owner');
      const org = await t.organization(owner);
      const joiner = await t.user('joiner'); // emails are @example.com
      expectError(await t.http.post(`/v1/orgs/${org}/join`).set(joiner.auth), 400, /email domain/);
      await t.http
        .patch(`/v1/orgs/${org}`)
        .set(owner.auth)
        .send({ emailDomains: ['example.com'] })
        .expect(200);
      const early = await t.user('early');
      await t.http.post(`/v1/orgs/${org}/join`).set(early.auth).expect(204); // defaultRole null: a guest
      expect((await t.http.get(`/v1/orgs/${org}/members/${early.id}`).set(owner.auth).expect(200)).body.role).toBeNull();
      expectError(await t.http.get(`/v1/orgs/${org}/members`).set(early.auth), 404);
      await t.http.patch(`/v1/orgs/${org}`).set(owner.auth).send({ defaultRole: 'comment' }).expect(200);
      await t.http.post(`/v1/orgs/${org}/join`).set(joiner.auth).expect(204);
      await t.http.post(`/v1/orgs/${org}/join`).set(joiner.auth).expect(204);
      const me = await t.http.get(`/v1/orgs/${org}/members/${joiner.id}`).set(joiner.auth).expect(200);
      expect(me.body.role).toBe('comment');
      expectError(await t.http.post('/v1/orgs/nope/join').set(joiner.auth), 404);
    });
  });

  describe('link invites', () => {
    it('admins create, list, read, update and delete invite links; 205 then 204', async () => {
      const res = await t.http.post(`/v1/orgs/${orgId}/link-invites`).set(admin.auth).send({ role: 'edit' }).expect(201);
      expect(res.body).toEqual({ object: 'invite', id: expect.stringMatching(/^[0-9A-Za-z]{20}$/), role: 'edit', redundant: true });
      const list = await t.http.get(`/v1/orgs/${orgId}/link-invites`).set(admin.auth).expect(200);
      expect(list.body.items.map((i: { id: string }) => i.id)).toContain(res.body.id);
      await t.http.get(`/v1/orgs/${orgId}/link-invites/${res.body.id}`).set(admin.auth).expect(200);
      const patched = await t.http
        .patch(`/v1/orgs/${orgId}/link-invites/${res.body.id}`)
        .set(admin.auth)
        .send({ role: 'review' })
        .expect(200);
      expect(patched.body.role).toBe('review');
      expectError(await t.http.patch(`/v1/orgs/${orgId}/link-invites/${res.body.id}`).set(admin.auth).send({ role: 'boss' }), 400, /role/);
      await t.http.delete(`/v1/orgs/${orgId}/link-invites/${res.body.id}`).set(admin.auth).expect(205);
      await t.http.delete(`/v1/orgs/${orgId}/link-invites/${res.body.id}`).set(admin.auth).expect(204);
      expectError(await t.http.get(`/v1/orgs/${orgId}/link-invites/${res.body.id}`).set(admin.auth), 404);
      expectError(await t.http.post(`/v1/orgs/${orgId}/link-invites`).set(admin.auth).send({}), 400, /role/);
    });

    it('non-admins cannot manage invites (403); strangers get 404', async () => {
      const reader = await t.user('reader');
      await t.member(orgId, reader, 'create');
      expectError(await t.http.post(`/v1/orgs/${orgId}/link-invites`).set(reader.auth).send({ role: 'read' }), 403);
      expectError(await t.http.get(`/v1/orgs/${orgId}/link-invites`).set(reader.auth), 403);
      const stranger = await t.user('stranger-2');
      expectError(await t.http.get(`/v1/orgs/${orgId}/link-invites`).set(stranger.auth), 404);
    });

    it('anyone with the invite joins with its role; it never lowers a role; disabled invite links refuse', async () => {
      const invite = (await t.http.post(`/v1/orgs/${orgId}/link-invites`).set(admin.auth).send({ role: 'comment' }).expect(201)).body;
      const newcomer = await t.user('newcomer');
      expect((await t.http.post(`/v1/orgs/${orgId}/invites/${invite.id}`).set(newcomer.auth).expect(200)).body).toEqual({});
      expect((await t.http.get(`/v1/orgs/${orgId}/members/${newcomer.id}`).set(newcomer.auth).expect(200)).body.role).toBe('comment');
      const editor = await t.user('editor');
      await t.member(orgId, editor, 'edit');
      await t.http.post(`/v1/orgs/${orgId}/invites/${invite.id}`).set(editor.auth).expect(200);
      expect((await t.http.get(`/v1/orgs/${orgId}/members/${editor.id}`).set(editor.auth).expect(200)).body.role).toBe('edit');
      expectError(await t.http.post(`/v1/orgs/${orgId}/invites/not-an-invite`).set(newcomer.auth), 404);

      await t.http.patch(`/v1/orgs/${orgId}`).set(admin.auth).send({ inviteLinks: false }).expect(200);
      const late = await t.user('late');
      expectError(await t.http.post(`/v1/orgs/${orgId}/invites/${invite.id}`).set(late.auth), 403, /disabled/);
      expectError(await t.http.post(`/v1/orgs/${orgId}/link-invites`).set(admin.auth).send({ role: 'read' }), 403, /disabled/);
      expectError(await t.http.get(`/v1/orgs/${orgId}/members/${late.id}`).set(admin.auth), 404);
      await t.http.patch(`/v1/orgs/${orgId}`).set(admin.auth).send({ inviteLinks: true }).expect(200);
    });
  });
});
