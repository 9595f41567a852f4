import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('links and backlinks', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => t.close());

  it('extracts links at write time; reports status, locations, stats and backlinks; a deleted page makes links to it broken', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Linked' }).expect(201)).body;
    const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(admin.auth).send({}).expect(201)).body;
    const res = await t.http
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          {
            operation: 'insert_page',
            ref: 'home',
            title: 'Home',
            document: { markdown: 'Go to [target](./target.md), [web](https://example.com) and [app](http://quire.test/app/s/x).' },
          },
          { operation: 'insert_page', ref: 'target', title: 'Target', document: { markdown: 'I am linked.' } },
          {
            operation: 'insert_page',
            ref: 'other',
            title: 'Other',
            document: { markdown: 'Also [target](./target.md) and [ghost](/pages/ghost).' },
          },
        ],
      })
      .expect(200);
    const [homeId, targetId, otherId] = res.body.changes.map((c: { page: { id: string } }) => c.page.id);
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);

    const links = await t.http.get(`/v1/spaces/${space.id}/links`).set(admin.auth).expect(200);
    expect(links.body.stats).toEqual({ total: 4, broken: { total: 1 } });
    const byTarget = Object.fromEntries(
      links.body.items.map(
        (u: {
          targetReference: { kind: string; url?: string; page?: { id: string } };
          status: string;
          locationReferences: { page: { id: string } }[];
        }) => [
          u.targetReference.kind === 'page' ? u.targetReference.page!.id : u.targetReference.url,
          { status: u.status, from: u.locationReferences.map((l) => l.page.id).sort() },
        ],
      ),
    );
    expect(byTarget[targetId]).toEqual({ status: 'ok', from: [homeId, otherId].sort() });
    expect(byTarget['https://example.com']).toEqual({ status: 'ok', from: [homeId] });
    expect(byTarget['http://quire.test/app/s/x']).toEqual({ status: 'in-app', from: [homeId] });
    expect(byTarget['/pages/ghost']).toEqual({ status: 'broken', from: [otherId] });
    expect(links.body.items[0].locationReferences[0]).toMatchObject({ kind: 'page', organization: { id: orgId }, space: { id: space.id } });

    const broken = await t.http.get(`/v1/spaces/${space.id}/links?status=broken`).set(admin.auth).expect(200);
    expect(broken.body.items).toHaveLength(1);
    const paged = await t.http.get(`/v1/spaces/${space.id}/links?limit=2`).set(admin.auth).expect(200);
    const rest = await t.http.get(`/v1/spaces/${space.id}/links?limit=2&page=${paged.body.next.page}`).set(admin.auth).expect(200);
    expect(paged.body.items.length + rest.body.items.length).toBe(4);

    const pageLinks = await t.http.get(`/v1/spaces/${space.id}/content/page/${otherId}/links`).set(admin.auth).expect(200);
    expect(pageLinks.body.stats).toEqual({ total: 2, broken: { total: 1 } });
    const backlinks = await t.http.get(`/v1/spaces/${space.id}/content/page/${targetId}/backlinks`).set(admin.auth).expect(200);
    expect(backlinks.body.items.map((l: { page: { id: string } }) => l.page.id).sort()).toEqual([homeId, otherId].sort());
    expectError(await t.http.get(`/v1/spaces/${space.id}/content/page/nope/backlinks`).set(admin.auth), 404, /Page/);

    // In a change request deleting the target: links to it become broken, and the CR is blamed for them.
    const cr2 = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(admin.auth).send({}).expect(201)).body;
    await t.http
      .post(`/v1/spaces/${space.id}/change-requests/${cr2.id}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'delete_page', page: targetId }] })
      .expect(200);
    const crLinks = await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr2.id}/links`).set(admin.auth).expect(200);
    expect(crLinks.body.stats).toEqual({ total: 4, broken: { total: 2, changeRequest: 1 } });
    // brokenContext: the broken links the change request broke, or those already broken in the space.
    const urls = (res: { body: { items: { targetReference: { url?: string } }[] } }) => res.body.items.map((u) => u.targetReference.url);
    const ofCr = await t.http
      .get(`/v1/spaces/${space.id}/change-requests/${cr2.id}/links?brokenContext=change-request`)
      .set(admin.auth)
      .expect(200);
    expect(urls(ofCr)).toEqual([`/pages/${targetId}`]);
    const ofSpace = await t.http
      .get(`/v1/spaces/${space.id}/change-requests/${cr2.id}/links?brokenContext=space`)
      .set(admin.auth)
      .expect(200);
    expect(urls(ofSpace)).toEqual(['/pages/ghost']);
    expect(ofSpace.body.stats).toEqual(crLinks.body.stats);
    expectError(
      await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr2.id}/links?brokenContext=main`).set(admin.auth),
      400,
      /brokenContext/,
    );
    const crBacklinks = await t.http
      .get(`/v1/spaces/${space.id}/change-requests/${cr2.id}/content/page/${homeId}/links`)
      .set(admin.auth)
      .expect(200);
    // The change request broke exactly the home page's link to the deleted target.
    const brokenByCr = crBacklinks.body.items.filter((u: { status: string }) => u.status === 'broken');
    // (a link to a page that no longer exists is reported as the URL it was written as: /pages/<id>)
    expect(brokenByCr.map((u: { targetReference: object }) => u.targetReference)).toEqual([{ kind: 'url', url: `/pages/${targetId}` }]);
    const stranger = await t.user('stranger');
    expectError(await t.http.get(`/v1/spaces/${space.id}/links`).set(stranger.auth), 404);
  });
});
