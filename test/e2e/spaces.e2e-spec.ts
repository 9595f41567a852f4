import { DataSource } from 'typeorm';
import { DAY_MS, ROLES } from '@app/shared-kernel';
import { SpacesService } from '@app/spaces-and-content';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('spaces', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  const members: Record<string, TestUser> = {};

  const createSpace = async (body: object = {}, who: TestUser = admin, org = orgId) =>
    (await t.http.post(`/v1/orgs/${org}/spaces`).set(who.auth).send(body).expect(201)).body;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    for (const role of ROLES) {
      members[role] = await t.user(role);
      await t.member(orgId, members[role], role);
    }
  });
  afterAll(async () => t.close());

  describe('create and read', () => {
    it('POST /orgs/{id}/spaces creates a space with every required official field (201, Location)', async () => {
      const res = await t.http
        .post(`/v1/orgs/${orgId}/spaces`)
        .set(admin.auth)
        .send({ title: 'Handbook', emoji: '📘', language: 'fr', editMode: 'live' })
        .expect(201);
      expect(res.headers.location).toBe(`http://quire.test/v1/spaces/${res.body.id}`);
      expect(res.body).toEqual({
        object: 'space',
        id: expect.any(String),
        title: 'Handbook',
        emoji: '📘',
        visibility: 'private',
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-01T10:00:00.000Z',
        editMode: 'live',
        mergeRules: { type: 'inherit' },
        urls: { location: `http://quire.test/v1/spaces/${res.body.id}`, app: `http://quire.test/app/s/${res.body.id}` },
        organization: orgId,
        language: 'fr',
        revision: expect.any(String),
        defaultLevel: 'inherit',
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        permissions: {
          view: true,
          access: true,
          admin: true,
          viewInviteLinks: true,
          edit: true,
          triggerGitSync: true,
          comment: true,
          merge: true,
          review: true,
          installIntegration: true,
        },
      });
      const got = await t.http.get(`/v1/spaces/${res.body.id}`).set(admin.auth).expect(200);
      expect(got.body).toEqual(res.body);
      await t.http.get(`/v1/spaces/${res.body.id}?shareKey=abc`).set(admin.auth).expect(200);
    });

    it('defaults: title "Untitled", no emoji; `empty: true` is accepted', async () => {
      const s = await createSpace({ empty: true });
      expect(s).toMatchObject({ title: 'Untitled', emoji: '' });
    });

    it('validates create input', async () => {
      const bad: [object, RegExp][] = [
        [{ title: 'x'.repeat(51) }, /title/],
        [{ emoji: 'not an emoji' }, /emoji/],
        [{ language: 'klingon' }, /language/],
        [{ editMode: 'frozen' }, /editMode/],
        [{ parent: 'nope' }, /parent/],
        [{ empty: false }, /empty/],
        [{ template: 'x' }, /template/],
        [{ computedSource: {} }, /computedSource/],
      ];
      for (const [body, message] of bad)
        expectError(await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send(body), 400, message);
      await createSpace({ title: 'x'.repeat(50), emoji: '1f389' });
    });

    it.each(['edit', 'review', 'comment', 'read'] as const)('a %s member cannot create spaces (403)', async (role) => {
      expectError(await t.http.post(`/v1/orgs/${orgId}/spaces`).set(members[role].auth).send({ title: 'No' }), 403);
    });

    it('a create member can', async () => {
      const s = await createSpace({ title: 'By creator' }, members.create);
      expect(s.permissions.admin).toBe(false);
      expect(s.permissions.review).toBe(true);
    });

    it('GET /orgs/{id}/spaces lists live spaces, paged; 404 for non-members', async () => {
      const u = await t.user('lister');
      const org = await t.organization(u);
      for (const title of ['A', 'B', 'C']) {
        t.clock.advance(1000);
        await createSpace({ title }, u, org);
      }
      const page1 = await t.http.get(`/v1/orgs/${org}/spaces?limit=2`).set(u.auth).expect(200);
      expect(page1.body.count).toBe(3);
      expect(page1.body.items.map((s: { title: string }) => s.title)).toEqual(['A', 'B']);
      const page2 = await t.http.get(`/v1/orgs/${org}/spaces?limit=2&page=${page1.body.next.page}`).set(u.auth).expect(200);
      expect(page2.body.items.map((s: { title: string }) => s.title)).toEqual(['C']);
      expect(page2.body).not.toHaveProperty('next');
      expectError(await t.http.get(`/v1/orgs/${org}/spaces`).set(admin.auth), 404);
      expectError(await t.http.get(`/v1/orgs/${org}/spaces?limit=1001`).set(u.auth), 400);
    });

    it('permissions reflect each role', async () => {
      const s = await createSpace({ title: 'Perms' });
      const expected: Record<string, Partial<Record<string, boolean>>> = {
        create: { admin: false, edit: true, review: true, merge: true, comment: true },
        review: { admin: false, edit: true, review: true, merge: true },
        edit: { admin: false, edit: true, review: false, merge: true, comment: true },
        comment: { admin: false, edit: false, comment: true, merge: false },
        read: { admin: false, edit: false, comment: false, view: true },
      };
      for (const [role, perms] of Object.entries(expected)) {
        const res = await t.http.get(`/v1/spaces/${s.id}`).set(members[role].auth).expect(200);
        expect(res.body.permissions).toMatchObject(perms);
      }
    });
  });

  describe('update', () => {
    it('PATCH changes title, emoji, language (edit) and editMode, defaultLevel, mergeRules (admin)', async () => {
      const s = await createSpace({ title: 'Old', emoji: '📘' });
      t.clock.advance(5000);
      const res = await t.http
        .patch(`/v1/spaces/${s.id}`)
        .set(admin.auth)
        .send({ title: 'New', emoji: '🎉', language: 'de', editMode: 'locked', defaultLevel: 'comment', mergeRules: { type: 'none' } })
        .expect(200);
      expect(res.body).toMatchObject({
        title: 'New',
        emoji: '🎉',
        language: 'de',
        editMode: 'locked',
        defaultLevel: 'comment',
        mergeRules: { type: 'none' },
      });
      expect(res.body.updatedAt).not.toBe(s.updatedAt);
      const removed = await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send({ emoji: null, defaultLevel: null }).expect(200);
      expect(removed.body).toMatchObject({ emoji: '', defaultLevel: null });
      // defaultLevel null restricts the space: an editor no longer sees it; inherit opens it again.
      await t.http.patch(`/v1/spaces/${s.id}`).set(members.edit.auth).send({ title: 'Edited' }).expect(404);
      await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send({ defaultLevel: 'inherit' }).expect(200);
      const byEditor = await t.http.patch(`/v1/spaces/${s.id}`).set(members.edit.auth).send({ title: 'Edited' }).expect(200);
      expect(byEditor.body.title).toBe('Edited');
    });

    it('PATCH refuses bad input (400), read/comment members (403), admin-only fields for editors (403), strangers (404)', async () => {
      const s = await createSpace({ title: 'Guarded' });
      const bad: [object, RegExp][] = [
        [{ title: 'x'.repeat(51) }, /title/],
        [{ editMode: 'open' }, /editMode/],
        [{ defaultLevel: 'owner' }, /defaultLevel/],
        [{ language: 'xx' }, /language/],
        [{ mergeRules: { type: 'sometimes' } }, /mergeRules/],
        [{ emoji: 'abc' }, /emoji/],
        [{ visibility: 'public' }, /visibility/],
      ];
      for (const [body, message] of bad) expectError(await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send(body), 400, message);
      expectError(await t.http.patch(`/v1/spaces/${s.id}`).set(members.read.auth).send({ title: 'X' }), 403);
      expectError(await t.http.patch(`/v1/spaces/${s.id}`).set(members.comment.auth).send({ title: 'X' }), 403);
      expectError(await t.http.patch(`/v1/spaces/${s.id}`).set(members.edit.auth).send({ editMode: 'locked' }), 403, /editMode/);
      const stranger = await t.user('stranger');
      expectError(await t.http.patch(`/v1/spaces/${s.id}`).set(stranger.auth).send({ title: 'X' }), 404);
    });

    it('a space defaultLevel widens a member’s access', async () => {
      const s = await createSpace({ title: 'Open' });
      await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send({ defaultLevel: 'edit' }).expect(200);
      const res = await t.http.get(`/v1/spaces/${s.id}`).set(members.read.auth).expect(200);
      expect(res.body.permissions.edit).toBe(true);
      await t.http.patch(`/v1/spaces/${s.id}`).set(members.read.auth).send({ title: 'Edited by reader' }).expect(200);
    });
  });

  describe('delete, restore and the 7-day window', () => {
    it('DELETE needs admin (403), answers 205, then 204; the deleted space carries deletedAt and leaves lists', async () => {
      const s = await createSpace({ title: 'Bin' });
      for (const role of ['create', 'edit', 'read'] as const)
        expectError(await t.http.delete(`/v1/spaces/${s.id}`).set(members[role].auth), 403);
      await t.http.delete(`/v1/spaces/${s.id}`).set(admin.auth).expect(205);
      await t.http.delete(`/v1/spaces/${s.id}`).set(admin.auth).expect(204);
      await t.http.delete('/v1/spaces/never-existed').set(admin.auth).expect(204);
      const got = await t.http.get(`/v1/spaces/${s.id}`).set(admin.auth).expect(200);
      expect(got.body.deletedAt).toBe(t.clock.now().toISOString());
      const list = await t.http.get(`/v1/orgs/${orgId}/spaces?limit=1000`).set(admin.auth).expect(200);
      expect(list.body.items.map((x: { id: string }) => x.id)).not.toContain(s.id);
      expectError(await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send({ title: 'X' }), 404);
      expectError(await t.http.post(`/v1/spaces/${s.id}/duplicate`).set(admin.auth), 404);
    });

    it('restores 1 ms before 7 days; 404 at exactly 7 days, everywhere', async () => {
      const early = await createSpace({ title: 'Early' });
      const late = await createSpace({ title: 'Late' });
      await t.http.delete(`/v1/spaces/${early.id}`).set(admin.auth).expect(205);
      await t.http.delete(`/v1/spaces/${late.id}`).set(admin.auth).expect(205);
      const start = t.clock.now().getTime();

      t.clock.set(new Date(start + 7 * DAY_MS - 1));
      expectError(await t.http.post(`/v1/spaces/${early.id}/restore`).set(members.edit.auth), 403);
      const restored = await t.http.post(`/v1/spaces/${early.id}/restore`).set(admin.auth).expect(200);
      expect(restored.body).not.toHaveProperty('deletedAt');
      expectError(await t.http.post(`/v1/spaces/${early.id}/restore`).set(admin.auth), 409, /not deleted/);

      t.clock.set(new Date(start + 7 * DAY_MS));
      expectError(await t.http.post(`/v1/spaces/${late.id}/restore`).set(admin.auth), 404);
      expectError(await t.http.get(`/v1/spaces/${late.id}`).set(admin.auth), 404);
      await t.http.delete(`/v1/spaces/${late.id}`).set(admin.auth).expect(204);
      await t.http.get(`/v1/spaces/${early.id}`).set(admin.auth).expect(200);
    });

    it('the purge removes spaces deleted 7 days ago or more, and keeps younger ones', async () => {
      const old = await createSpace({ title: 'Old' });
      const young = await createSpace({ title: 'Young' });
      await t.http.delete(`/v1/spaces/${old.id}`).set(admin.auth).expect(205);
      t.clock.advance(DAY_MS);
      await t.http.delete(`/v1/spaces/${young.id}`).set(admin.auth).expect(205);
      t.clock.advance(6 * DAY_MS);
      // Exactly the spaces deleted 7 days ago or more (other tests of this file may have left some too).
      const due: { n: number }[] = await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM spaces WHERE deleted_at <= $1', [new Date(t.clock.now().getTime() - 7 * DAY_MS)]);
      expect(due[0].n).toBeGreaterThan(0);
      const purged = await t.app.get(SpacesService).purgeExpired();
      expect(purged).toBe(due[0].n);
      expectError(await t.http.get(`/v1/spaces/${old.id}`).set(admin.auth), 404);
      const rows = await t.app.get(SpacesService).get({ userId: admin.id, tokenId: 'x' }, young.id);
      expect(rows.space.deletedAt).not.toBeNull();
      expectError(await t.http.get(`/v1/spaces/${old.id}`).set(admin.auth), 404);
      t.clock.set(new Date(t.clock.now().getTime() - 100 * DAY_MS)); // even with the clock back, the row is gone
      expectError(await t.http.get(`/v1/spaces/${old.id}`).set(admin.auth), 404);
      t.clock.set(new Date(t.clock.now().getTime() + 100 * DAY_MS));
    });
  });

  describe('duplicate', () => {
    it('copies the space right after the original (201, Location), needs create', async () => {
      const s = await createSpace({ title: 'Original', emoji: '📘', language: 'en' });
      expectError(await t.http.post(`/v1/spaces/${s.id}/duplicate`).set(members.edit.auth), 403);
      const res = await t.http.post(`/v1/spaces/${s.id}/duplicate`).set(admin.auth).expect(201);
      expect(res.headers.location).toBe(res.body.urls.location);
      expect(res.body).toMatchObject({ title: 'Original (copy)', emoji: '📘', language: 'en', organization: orgId });
      expect(res.body.id).not.toBe(s.id);
      expect(res.body.revision).not.toBe(s.revision);
    });
  });

  describe('move', () => {
    it('into a collection, between siblings, and back to the top level', async () => {
      const c = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ title: 'Box' }).expect(201)).body;
      const a = await createSpace({ title: 'A', parent: c.id });
      const b = await createSpace({ title: 'B', parent: c.id });
      const s = await createSpace({ title: 'S' });
      const moved = await t.http
        .post(`/v1/spaces/${s.id}/move`)
        .set(admin.auth)
        .send({ parent: c.id, position: { after: { type: 'space', space: a.id } } })
        .expect(200);
      expect(moved.body.parent).toBe(c.id);
      const order = async () =>
        (await t.http.get(`/v1/collections/${c.id}/spaces`).set(admin.auth).expect(200)).body.items.map((x: { title: string }) => x.title);
      expect(await order()).toEqual(['A', 'S', 'B']);
      await t.http
        .post(`/v1/spaces/${b.id}/move`)
        .set(admin.auth)
        .send({ position: { before: { type: 'space', space: a.id } } })
        .expect(200);
      expect(await order()).toEqual(['B', 'A', 'S']);
      expectError(await t.http.post(`/v1/spaces/${s.id}/move`).set(admin.auth).send({ parent: c.id }), 409, /not change/);
      expectError(
        await t.http
          .post(`/v1/spaces/${a.id}/move`)
          .set(admin.auth)
          .send({ position: { after: { type: 'space', space: b.id } } }),
        409,
      );
      const top = await t.http.post(`/v1/spaces/${s.id}/move`).set(admin.auth).send({ parent: null }).expect(200);
      expect(top.body).not.toHaveProperty('parent');
      expect(await order()).toEqual(['B', 'A']);
    });

    it('400 for invalid positions and unknown collections; 403 without admin; 404 for unknown spaces', async () => {
      const s = await createSpace({ title: 'Mover' });
      const other = await createSpace({ title: 'Other' });
      const c = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ title: 'Box 2' }).expect(201)).body;
      expectError(await t.http.post(`/v1/spaces/${s.id}/move`).set(admin.auth).send({ parent: 'nope' }), 400, /not found/);
      expectError(
        await t.http
          .post(`/v1/spaces/${s.id}/move`)
          .set(admin.auth)
          .send({ parent: c.id, position: { before: { type: 'space', space: other.id } } }),
        400,
        /not in the target parent/,
      );
      expectError(
        await t.http
          .post(`/v1/spaces/${s.id}/move`)
          .set(admin.auth)
          .send({ position: { before: { type: 'space', space: s.id } } }),
        400,
        /itself/,
      );
      expectError(
        await t.http
          .post(`/v1/spaces/${s.id}/move`)
          .set(admin.auth)
          .send({ position: { before: { type: 'space' } } }),
        400,
        /position/,
      );
      expectError(await t.http.post(`/v1/spaces/${s.id}/move`).set(admin.auth).send({}), 400);
      expectError(await t.http.post(`/v1/spaces/${s.id}/move`).set(members.create.auth).send({ parent: c.id }), 403);
      expectError(await t.http.post('/v1/spaces/nope/move').set(admin.auth).send({ parent: null }), 404);
    });
  });

  describe('transfer', () => {
    it('moves the space to another organization the caller administers', async () => {
      const target = await t.organization(admin, 'Target');
      const s = await createSpace({ title: 'Traveller' });
      const res = await t.http.post(`/v1/spaces/${s.id}/transfer`).set(admin.auth).send({ organization: target }).expect(200);
      expect(res.body.organization).toBe(target);
      const there = await t.http.get(`/v1/orgs/${target}/spaces`).set(admin.auth).expect(200);
      expect(there.body.items.map((x: { id: string }) => x.id)).toContain(s.id);
      expectError(await t.http.get(`/v1/spaces/${s.id}`).set(members.read.auth), 404);
    });

    it('409 same organization, 404 foreign target, 403 without admin in source or target, 400 without organization', async () => {
      const s = await createSpace({ title: 'Stays' });
      expectError(await t.http.post(`/v1/spaces/${s.id}/transfer`).set(admin.auth).send({ organization: orgId }), 409);
      const other = await t.user('other-admin');
      const foreign = await t.organization(other, 'Foreign');
      expectError(await t.http.post(`/v1/spaces/${s.id}/transfer`).set(admin.auth).send({ organization: foreign }), 404);
      await t.member(foreign, admin, 'create');
      expectError(await t.http.post(`/v1/spaces/${s.id}/transfer`).set(admin.auth).send({ organization: foreign }), 403);
      expectError(await t.http.post(`/v1/spaces/${s.id}/transfer`).set(members.create.auth).send({ organization: foreign }), 403);
      expectError(await t.http.post(`/v1/spaces/${s.id}/transfer`).set(admin.auth).send({ organization: '' }), 400, /organization/);
    });
  });
});
