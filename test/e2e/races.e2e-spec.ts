import { jest } from '@jest/globals';
import { ChangeRequestRepository } from '@app/review-and-comments';
import { ContentService, SpaceRepository } from '@app/spaces-and-content';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

/**
 * Writers that race: each test makes the second writer land exactly between the first one's read and
 * its write (the repository write is intercepted), so the race is certain, not left to timing.
 */
describe('racing writers lose nothing', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let otherOrg: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    otherOrg = await t.organization(admin, 'Other org');
  });
  afterAll(async () => t.close());

  const newSpace = async () => (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Raced' }).expect(201)).body;
  const space = async (id: string) => (await t.http.get(`/v1/spaces/${id}`).set(admin.auth).expect(200)).body;

  /** Runs `between` right before the first call of `method` on `target` reaches the database. */
  const interleave = <T extends object>(target: T, method: keyof T & string, between: () => Promise<unknown>) => {
    const original = (target[method] as (...a: unknown[]) => Promise<unknown>).bind(target);
    return jest
      .spyOn(target as Record<string, (...a: unknown[]) => Promise<unknown>>, method)
      .mockImplementationOnce(async (...args: unknown[]) => {
        await between();
        return original(...args);
      });
  };

  it('a PATCH racing a merge never turns the merged change request back to open or draft', async () => {
    const s = await newSpace();
    const cr = (await t.http.post(`/v1/spaces/${s.id}/change-requests`).set(admin.auth).send({ subject: 'Race' }).expect(201)).body;
    await t.http
      .post(`/v1/spaces/${s.id}/change-requests/${cr.id}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'P', document: {} }] })
      .expect(200);
    const spy = interleave(t.app.get(ChangeRequestRepository), 'updateFields', () =>
      t.http.post(`/v1/spaces/${s.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200),
    );
    expectError(
      await t.http.patch(`/v1/spaces/${s.id}/change-requests/${cr.id}`).set(admin.auth).send({ status: 'draft', subject: 'Renamed' }),
      409,
      /merged/,
    );
    // The guarded write missed (the merge got there first); read again, a merged status cannot change.
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    const after = (await t.http.get(`/v1/spaces/${s.id}/change-requests/${cr.id}`).set(admin.auth).expect(200)).body;
    expect(after).toMatchObject({ status: 'merged', subject: 'Race' });
  });

  it('a space PATCH racing a transfer keeps the transfer and applies its own field', async () => {
    const s = await newSpace();
    const spy = interleave(t.app.get(SpaceRepository), 'update', () =>
      t.http.post(`/v1/spaces/${s.id}/transfer`).set(admin.auth).send({ organization: otherOrg }).expect(200),
    );
    const res = await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send({ title: 'Patched' }).expect(200);
    spy.mockRestore();
    expect(res.body).toMatchObject({ title: 'Patched', organization: otherOrg });
    expect(await space(s.id)).toMatchObject({ title: 'Patched', organization: otherOrg });
  });

  it('a space PATCH racing a move keeps the move', async () => {
    const s = await newSpace();
    const shelf = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ title: 'Shelf' }).expect(201)).body;
    const spy = interleave(t.app.get(SpaceRepository), 'update', () =>
      t.http.post(`/v1/spaces/${s.id}/move`).set(admin.auth).send({ parent: shelf.id }).expect(200),
    );
    await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send({ emoji: '📘' }).expect(200);
    spy.mockRestore();
    expect(await space(s.id)).toMatchObject({ emoji: '📘', parent: shelf.id });
  });

  it('a space PATCH racing a delete answers 404 and the space stays deleted', async () => {
    const s = await newSpace();
    const spy = interleave(t.app.get(SpaceRepository), 'update', () => t.http.delete(`/v1/spaces/${s.id}`).set(admin.auth).expect(205));
    expectError(await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send({ title: 'Zombie' }), 404);
    spy.mockRestore();
    const gone = await space(s.id);
    expect(gone.deletedAt).toEqual(expect.any(String));
    expect(gone.title).toBe('Raced');
  });

  it('a transfer that fails after moving the space row leaves it where it was, with its content', async () => {
    const s = await newSpace();
    const cr = (await t.http.post(`/v1/spaces/${s.id}/change-requests`).set(admin.auth).send({}).expect(201)).body;
    await t.http
      .post(`/v1/spaces/${s.id}/change-requests/${cr.id}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'Kept', document: { markdown: 'kept' } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${s.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);
    const content = t.app.get(ContentService);
    const spy = jest.spyOn(content, 'moveSpaceContent').mockRejectedValueOnce(new Error('injected failure after the space row moved'));
    expectError(await t.http.post(`/v1/spaces/${s.id}/transfer`).set(admin.auth).send({ organization: otherOrg }), 500);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(await space(s.id)).toMatchObject({ organization: orgId });
    const pages = (await t.http.get(`/v1/spaces/${s.id}/content/pages`).set(admin.auth).expect(200)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Kept']);
    const spaces = (await t.http.get(`/v1/orgs/${otherOrg}/spaces`).set(admin.auth).expect(200)).body.items.map(
      (x: { id: string }) => x.id,
    );
    expect(spaces).not.toContain(s.id);
    // Done again without the failure, it goes through.
    await t.http.post(`/v1/spaces/${s.id}/transfer`).set(admin.auth).send({ organization: otherOrg }).expect(200);
    expect(await space(s.id)).toMatchObject({ organization: otherOrg });
  });
});
