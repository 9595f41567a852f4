import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges } from '../support/content';

/**
 * Guests and restricted content (#31), as the people who use them: a guest sees exactly what was shared
 * with them (directly or through a team) and what lies below it; a member sees everything but a restricted
 * collection or space, unless it was shared with them. Every organization-wide list narrows the same way,
 * with full pages and stable cursors, and no title, count or excerpt of a closed item shows anywhere.
 *
 * The organization:
 *   Public (collection)           └ P1 (space)
 *   Internal (collection, null)   ├ I1 (space, holds the word SECRET) ├ Sub (collection) └ I2 (space)
 *                                 └ I3 (space, its own level `read`: open to members again)
 *   T1 (space), R1 (space, null)
 * Shares: gus (a guest) comment on P1 and read on site S1; team Contractors (tom, a guest) read on Internal.
 */
const SECRET = 'zephyrquartzite';

describe('guests and restricted content: what each person can see', () => {
  let t: TestApp;
  let owner: TestUser;
  let mia: TestUser; // a member with the edit role
  let gus: TestUser; // a guest shared one space
  let tom: TestUser; // a guest in the Contractors team
  let stranger: TestUser; // a guest shared nothing
  let orgId: string;
  let teamId: string;
  const ids = {} as Record<'Public' | 'Internal' | 'Sub' | 'P1' | 'I1' | 'I2' | 'I3' | 'T1' | 'R1' | 'S1' | 'S2', string>;
  const name = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;

  const post = async (path: string, body: object, status = 201) => (await t.http.post(path).set(owner.auth).send(body).expect(status)).body;
  const space = async (title: keyof typeof ids, parent?: string) =>
    (ids[title] = (await post(`/v1/orgs/${orgId}/spaces`, { title, ...(parent ? { parent } : {}) })).id);
  const collection = async (title: keyof typeof ids, parent?: string) =>
    (ids[title] = (await post(`/v1/orgs/${orgId}/collections`, { title, ...(parent ? { parent } : {}) })).id);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.user('owner');
    orgId = await t.organization(owner);
    [mia, gus, tom, stranger] = [await t.user('mia'), await t.user('gus'), await t.user('tom'), await t.user('stranger')];
    await t.member(orgId, mia, 'edit');
    // Guests join through the official operations: a link invite with role null, a member update to null.
    const invite = await post(`/v1/orgs/${orgId}/link-invites`, { role: null });
    expect(invite.role).toBeNull();
    await t.http.post(`/v1/orgs/${orgId}/invites/${invite.id}`).set(gus.auth).expect(200);
    await t.member(orgId, tom, 'read');
    await t.http.patch(`/v1/orgs/${orgId}/members/${tom.id}`).set(owner.auth).send({ role: null }).expect(200);
    await t.member(orgId, stranger, null);

    await collection('Public');
    await space('P1', ids.Public);
    await collection('Internal');
    await t.http.patch(`/v1/collections/${ids.Internal}`).set(owner.auth).send({ defaultLevel: null }).expect(200);
    await space('I1', ids.Internal);
    await collection('Sub', ids.Internal);
    await space('I2', ids.Sub);
    await space('I3', ids.Internal);
    await t.http.patch(`/v1/spaces/${ids.I3}`).set(owner.auth).send({ defaultLevel: 'read' }).expect(200);
    await space('T1');
    await space('R1');
    await t.http.patch(`/v1/spaces/${ids.R1}`).set(owner.auth).send({ defaultLevel: null }).expect(200);
    for (const s of ['P1', 'I1', 'T1', 'R1'] as const) {
      const word = s === 'I1' ? SECRET : 'ordinary';
      await mergeChanges(t, owner, ids[s], [
        { operation: 'insert_page', title: `${s} guide`, document: { markdown: `A ${word} page about docs.` } },
      ]);
      await post(`/v1/spaces/${ids[s]}/change-requests`, { subject: `${s} change` });
    }
    ids.S1 = (await post(`/v1/orgs/${orgId}/sites`, { title: 'S1 site', spaces: [ids.P1] })).id;
    ids.S2 = (await post(`/v1/orgs/${orgId}/sites`, { title: 'S2 site', spaces: [ids.I1] })).id;

    await post(`/v1/spaces/${ids.P1}/permissions`, { role: 'comment', users: [gus.id] }, 204);
    await post(`/v1/orgs/${orgId}/sites/${ids.S1}/permissions`, { role: 'read', users: [gus.id] }, 204);
    teamId = (
      await t.http
        .put(`/v1/orgs/${orgId}/teams`)
        .set(owner.auth)
        .send({ title: 'Contractors', members: [tom.id] })
        .expect(201)
    ).body.id;
    await post(`/v1/collections/${ids.Internal}/permissions`, { role: 'read', teams: [teamId] }, 204);
  });
  afterAll(async () => t.close());

  /** Every item of a list, following `next.page`; the pages must be full but the last. */
  const all = async (who: TestUser, path: string, limit = 2): Promise<Record<string, unknown>[]> => {
    const out: Record<string, unknown>[] = [];
    let page: string | undefined;
    for (let i = 0; i < 50; i++) {
      const sep = path.includes('?') ? '&' : '?';
      const res = await t.http
        .get(`${path}${sep}limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`)
        .set(who.auth)
        .expect(200);
      out.push(...res.body.items);
      page = res.body.next?.page;
      if (!page) return out;
      expect(res.body.items).toHaveLength(limit);
    }
    throw new Error('too many pages');
  };
  const names = (items: Record<string, unknown>[], key: (i: Record<string, unknown>) => string = (i) => i.id as string) =>
    items.map(key).map(name).sort();

  const people = () => ({ owner, mia, gus, tom, stranger });
  type Person = keyof ReturnType<typeof people>;

  /** [list, person → what they see], one row per organization-wide list route. */
  const table: [string, (who: TestUser) => Promise<string[]>, Record<Person, string[] | 404>][] = [
    [
      'GET /orgs/{id}/spaces',
      async (who) => names(await all(who, `/v1/orgs/${orgId}/spaces`)),
      {
        owner: ['I1', 'I2', 'I3', 'P1', 'R1', 'T1'],
        mia: ['I3', 'P1', 'T1'],
        gus: ['P1'],
        tom: ['I1', 'I2', 'I3'],
        stranger: [],
      },
    ],
    [
      'GET /orgs/{id}/collections',
      async (who) => names(await all(who, `/v1/orgs/${orgId}/collections`)),
      { owner: ['Internal', 'Public', 'Sub'], mia: ['Public'], gus: [], tom: ['Internal', 'Sub'], stranger: [] },
    ],
    [
      'GET /collections/{Internal}/spaces',
      async (who) => names(await all(who, `/v1/collections/${ids.Internal}/spaces`)),
      { owner: ['I1', 'I3'], mia: 404, gus: 404, tom: ['I1', 'I3'], stranger: 404 },
    ],
    [
      'GET /orgs/{id}/search',
      async (who) => names(await all(who, `/v1/orgs/${orgId}/search?query=docs`, 1)),
      { owner: ['I1', 'P1', 'R1', 'T1'], mia: ['P1', 'T1'], gus: ['P1'], tom: ['I1'], stranger: [] },
    ],
    [
      'GET /orgs/{id}/change-requests',
      async (who) => names(await all(who, `/v1/orgs/${orgId}/change-requests`), (cr) => cr.space as string),
      { owner: ['I1', 'P1', 'R1', 'T1'], mia: ['P1', 'T1'], gus: ['P1'], tom: ['I1'], stranger: [] },
    ],
    [
      'GET /orgs/{id}/sites',
      async (who) => names(await all(who, `/v1/orgs/${orgId}/sites`)),
      { owner: ['S1', 'S2'], mia: ['S1', 'S2'], gus: ['S1'], tom: [], stranger: [] },
    ],
    [
      'GET /orgs/{id}/members/{self}/spaces',
      async (who) => names(await all(who, `/v1/orgs/${orgId}/members/${who.id}/spaces`), (i) => (i.space as { id: string }).id),
      { owner: ['I1', 'I2', 'I3', 'P1', 'R1', 'T1'], mia: ['I3', 'P1', 'T1'], gus: 404, tom: 404, stranger: 404 },
    ],
  ];

  describe.each(table)('%s', (_route, list, expected) => {
    it.each(Object.keys(expected) as Person[])('as %s', async (person) => {
      const want = expected[person];
      if (want === 404) await expect(list(people()[person])).rejects.toThrow(/404/);
      else expect(await list(people()[person])).toEqual(want);
    });
  });

  it('a member lists another member’s spaces only among those the caller may read', async () => {
    const ofTom = await all(owner, `/v1/orgs/${orgId}/members/${tom.id}/spaces`);
    expect(names(ofTom, (i) => (i.space as { id: string }).id)).toEqual(['I1', 'I2', 'I3']);
    const tomSeenByMia = await all(mia, `/v1/orgs/${orgId}/members/${tom.id}/spaces`);
    expect(names(tomSeenByMia, (i) => (i.space as { id: string }).id)).toEqual(['I3']);
  });

  it('team space counts count only what the caller may read', async () => {
    const count = async (who: TestUser) =>
      (await t.http.get(`/v1/orgs/${orgId}/teams/${teamId}`).set(who.auth).expect(200)).body.spaces as number;
    expect(await count(owner)).toBe(3);
    expect(await count(mia)).toBe(1); // I3 only: I1 and I2 are closed to her
    await t.http.get(`/v1/orgs/${orgId}/teams/${teamId}`).set(gus.auth).expect(404);
  });

  it('never shows a word that lives only in a restricted page: no hit, excerpt or count', async () => {
    const search = async (who: TestUser) => (await t.http.get(`/v1/orgs/${orgId}/search?query=${SECRET}`).set(who.auth).expect(200)).body;
    expect(JSON.stringify(await search(owner))).toContain(SECRET);
    for (const who of [mia, gus, stranger]) {
      const body = await search(who);
      expect(body.items).toEqual([]);
      expect(body.count ?? 0).toBe(0);
      expect(JSON.stringify(body)).not.toMatch(new RegExp(`${SECRET}|I1 guide|${ids.I1}`));
    }
    const spaces = JSON.stringify(await all(mia, `/v1/orgs/${orgId}/spaces`, 100));
    expect(spaces).not.toMatch(/"I1"|"I2"|"R1"|Internal/);
  });

  it('guests reach shared content and its children, and nothing of the organization', async () => {
    await t.http.get(`/v1/spaces/${ids.P1}`).set(gus.auth).expect(200);
    const perms = (await t.http.get(`/v1/spaces/${ids.P1}`).set(gus.auth).expect(200)).body.permissions;
    expect(perms).toMatchObject({ view: true, comment: true, edit: false });
    await t.http.get(`/v1/spaces/${ids.T1}`).set(gus.auth).expect(404);
    await t.http.get(`/v1/collections/${ids.Public}`).set(gus.auth).expect(404);
    await t.http.get(`/v1/spaces/${ids.I2}`).set(tom.auth).expect(200); // below the shared collection
    await t.http.get(`/v1/collections/${ids.Sub}`).set(tom.auth).expect(200);
    for (const path of ['members', 'teams', 'saml', 'conversations', 'openapi', 'audit-events', 'webhooks', 'link-invites']) {
      await t.http.get(`/v1/orgs/${orgId}/${path}`).set(gus.auth).expect(404);
    }
    await t.http.get(`/v1/orgs/${orgId}/sites/${ids.S2}`).set(gus.auth).expect(404);
    await t.http.get(`/v1/orgs/${orgId}/sites/${ids.S1}`).set(gus.auth).expect(200);
    // Creating at the organization's top level is not a guest's: 404, as for a non-member.
    await t.http.post(`/v1/orgs/${orgId}/spaces`).set(gus.auth).send({ title: 'Mine' }).expect(404);
    // The organization itself, and its member list's guest filter for an admin.
    expect((await t.http.get(`/v1/orgs/${orgId}`).set(gus.auth).expect(200)).body.id).toBe(orgId);
    const guests = await all(owner, `/v1/orgs/${orgId}/members?role=guest`, 10);
    expect(guests.map((m) => m.id).sort()).toEqual([gus.id, tom.id, stranger.id].sort());
    expect(guests.every((m) => m.role === null)).toBe(true);
  });

  it('a member with a grant on the restricted collection sees it; the grant removed, it is gone at once', async () => {
    await post(`/v1/collections/${ids.Internal}/permissions`, { role: 'comment', users: [mia.id] }, 204);
    expect(names(await all(mia, `/v1/orgs/${orgId}/spaces`))).toEqual(['I1', 'I2', 'I3', 'P1', 'T1']);
    // The grant's role, not her organization role: restricted content gives members nothing of their own.
    expect((await t.http.get(`/v1/spaces/${ids.I1}`).set(mia.auth).expect(200)).body.permissions).toMatchObject({
      comment: true,
      edit: false,
    });
    await t.http.delete(`/v1/collections/${ids.Internal}/permissions/users/${mia.id}`).set(owner.auth).expect(205);
    expect(names(await all(mia, `/v1/orgs/${orgId}/spaces`))).toEqual(['I3', 'P1', 'T1']);
    await t.http.get(`/v1/spaces/${ids.I1}`).set(mia.auth).expect(404);
  });

  it('the same through a team: removing the team’s grant, or the guest from the team, closes it at once', async () => {
    expect(names(await all(tom, `/v1/orgs/${orgId}/spaces`))).toEqual(['I1', 'I2', 'I3']);
    await t.http.delete(`/v1/collections/${ids.Internal}/permissions/teams/${teamId}`).set(owner.auth).expect(205);
    expect(await all(tom, `/v1/orgs/${orgId}/spaces`)).toEqual([]);
    await t.http.get(`/v1/spaces/${ids.I2}`).set(tom.auth).expect(404);
    await post(`/v1/collections/${ids.Internal}/permissions`, { role: 'read', teams: [teamId] }, 204);
    expect(names(await all(tom, `/v1/orgs/${orgId}/spaces`))).toEqual(['I1', 'I2', 'I3']);
    await t.http
      .put(`/v1/orgs/${orgId}/teams/${teamId}/members`)
      .set(owner.auth)
      .send({ remove: [tom.id] })
      .expect(204);
    expect(await all(tom, `/v1/orgs/${orgId}/spaces`)).toEqual([]);
    await t.http
      .put(`/v1/orgs/${orgId}/teams/${teamId}/members`)
      .set(owner.auth)
      .send({ add: [tom.id] })
      .expect(204);
  });

  it('a copy of a restricted space (a duplicate) stays restricted and is shared with whom its source is', async () => {
    await post(`/v1/spaces/${ids.R1}/permissions`, { role: 'read', users: [gus.id] }, 204);
    const copy = (await post(`/v1/spaces/${ids.R1}/duplicate`, {})).id as string;
    const seen = (await t.http.get(`/v1/spaces/${copy}`).set(owner.auth).expect(200)).body;
    expect(seen.defaultLevel).toBeNull();
    await t.http.get(`/v1/spaces/${copy}`).set(gus.auth).expect(200);
    await t.http.get(`/v1/spaces/${copy}`).set(mia.auth).expect(404);
    expect(JSON.stringify(await all(mia, `/v1/orgs/${orgId}/spaces`, 100))).not.toContain(copy);
    await t.http.delete(`/v1/spaces/${ids.R1}/permissions/users/${gus.id}`).set(owner.auth).expect(205);
    await t.http.delete(`/v1/spaces/${copy}`).set(owner.auth).expect(205);
  });

  it("a member's spaces and sites count what was granted to them themselves, among the spaces the caller may read", async () => {
    const member = async (who: TestUser, id: string) =>
      (await t.http.get(`/v1/orgs/${orgId}/members/${id}`).set(who.auth).expect(200)).body as Record<string, unknown>;
    // Gus was granted P1 and the site S1; Tom reaches Internal only through his team, which is not his own grant.
    expect(await member(owner, gus.id)).toMatchObject({ spaces: 1, sites: 1 });
    expect(await member(owner, tom.id)).toMatchObject({ spaces: 0, sites: 0 });
    // A grant on I2, which is closed to Mia: the owner counts it, Mia does not.
    await post(`/v1/spaces/${ids.I2}/permissions`, { role: 'read', users: [gus.id] }, 204);
    expect(await member(owner, gus.id)).toMatchObject({ spaces: 2, sites: 1 });
    expect(await member(mia, gus.id)).toMatchObject({ spaces: 1, sites: 1 });
    expect((await all(owner, `/v1/orgs/${orgId}/members`)).find((m) => m.id === gus.id)).toMatchObject({ spaces: 2, sites: 1 });
    expect((await all(mia, `/v1/orgs/${orgId}/members`)).find((m) => m.id === gus.id)).toMatchObject({ spaces: 1, sites: 1 });
    await t.http.delete(`/v1/spaces/${ids.I2}/permissions/users/${gus.id}`).set(owner.auth).expect(205);
    expect(await member(owner, gus.id)).toMatchObject({ spaces: 1, sites: 1 });
  });

  it('a guest made a member again sees the organization as members do; the role null is refused nowhere official', async () => {
    const u = await t.user('temp');
    await t.member(orgId, u, 'read');
    await t.http.patch(`/v1/orgs/${orgId}/members/${u.id}`).set(owner.auth).send({ role: null }).expect(200);
    expect(await all(u, `/v1/orgs/${orgId}/spaces`)).toEqual([]);
    await t.http.patch(`/v1/orgs/${orgId}/members/${u.id}`).set(owner.auth).send({ role: 'read' }).expect(200);
    expect(names(await all(u, `/v1/orgs/${orgId}/spaces`))).toEqual(['I3', 'P1', 'T1']);
    // The organization's defaultRole null: people who join by email domain are guests.
    await t.http.patch(`/v1/orgs/${orgId}`).set(owner.auth).send({ defaultRole: null }).expect(200);
    expect((await t.http.get(`/v1/orgs/${orgId}`).set(owner.auth).expect(200)).body.defaultRole).toBeNull();
    // A guest may leave; then the organization is gone for them. Naming someone else removes nobody.
    await t.http.delete(`/v1/orgs/${orgId}/members/${gus.id}`).set(stranger.auth).expect(204);
    await t.http.get(`/v1/orgs/${orgId}/members/${gus.id}`).set(owner.auth).expect(200);
    await t.http.delete(`/v1/orgs/${orgId}/members/${stranger.id}`).set(stranger.auth).expect(205);
    await t.http.get(`/v1/orgs/${orgId}`).set(stranger.auth).expect(404);
    // Hostile values for a role answer 400.
    for (const role of ['guest', '', 0, [], {}, 'admin\u0000']) {
      await t.http.patch(`/v1/orgs/${orgId}/members/${u.id}`).set(owner.auth).send({ role }).expect(400);
      await t.http.post(`/v1/orgs/${orgId}/link-invites`).set(owner.auth).send({ role }).expect(400);
    }
  });
});
