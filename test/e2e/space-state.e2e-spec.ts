import { Db } from '@app/persistence';
import { DomainEvent, DomainEvents } from '@app/shared-kernel';
import { createTestApp, TestApp, TestUser } from '../support/app';

/**
 * One writer of space state: a space that changes organization ends in the same state whichever way it
 * went, by its own transfer or by its collection's. The same fixture (a space in a collection, with a
 * page, a change request with a comment and a review, a site showing it, a grant) is built in a fresh
 * pair of organizations for each way, moved, and every table that carries an organization or a space is
 * compared, with every organization-wide list in both organizations.
 */
describe('Space state follows the space, whichever way it moves', () => {
  let t: TestApp;
  let admin: TestUser;
  let reviewer: TestUser;
  let granted: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reviewer = await t.user('reviewer');
    granted = await t.user('granted');
  });
  afterAll(async () => t.close());

  interface Fixture {
    a: string;
    b: string;
    collection: string;
    space: string;
    cr: string;
    site: string;
  }

  const seed = async (n: number): Promise<Fixture> => {
    const a = await t.organization(admin, `A${n}`);
    const b = await t.organization(admin, `B${n}`);
    await t.member(a, reviewer, 'review');
    await t.member(a, granted, 'read');
    const collection = (await t.http.post(`/v1/orgs/${a}/collections`).set(admin.auth).send({ title: 'Kitchen' }).expect(201)).body.id;
    const space = (await t.http.post(`/v1/orgs/${a}/spaces`).set(admin.auth).send({ title: 'Kettles', parent: collection }).expect(201))
      .body.id;
    const cr = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({ subject: 'Descale' }).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${space}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({
        changes: [{ operation: 'insert_page', title: 'Descaling', document: { markdown: 'Descaling the kettle with citric acid.' } }],
      })
      .expect(200);
    await t.http.post(`/v1/spaces/${space}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    const open = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({ subject: 'Follow-up' }).expect(201)).body
      .id;
    await t.http
      .post(`/v1/spaces/${space}/change-requests/${open}/comments`)
      .set(admin.auth)
      .send({ body: { markdown: 'Looks right' } })
      .expect(200);
    await t.http.post(`/v1/spaces/${space}/change-requests/${open}/reviews`).set(reviewer.auth).send({ status: 'approved' }).expect(201);
    await t.http
      .post(`/v1/spaces/${space}/permissions`)
      .set(admin.auth)
      .send({ role: 'edit', users: [granted.id] })
      .expect(204);
    const site = (await t.http.post(`/v1/orgs/${a}/sites`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body.id;
    await t.http.post(`/v1/orgs/${a}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId: space }).expect(201);
    return { a, b, collection, space, cr: open, site };
  };

  /** Every table with an organization_id or a space_id: rows of the space, and rows per organization (ids named). */
  const rows = async (f: Fixture) => {
    const db = t.app.get(Db);
    const columns: { table_name: string; column_name: string }[] = await db.query(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_name IN ('organization_id', 'space_id') ORDER BY table_name, column_name`,
    );
    const tables = new Map<string, Set<string>>();
    for (const c of columns) tables.set(c.table_name, (tables.get(c.table_name) ?? new Set()).add(c.column_name));
    const name = (org: string | null) => (org === f.a ? 'A' : org === f.b ? 'B' : org === null ? null : 'other');
    const state: Record<string, unknown> = {};
    for (const [table, has] of tables) {
      // History of what was done, and where: an audit event stays in the organization it happened in.
      // Collections are what the two ways differ in by design; the webhook and job tables hold no space rows here.
      if (['audit_events', 'collections', 'change_request_list_marks'].includes(table)) continue;
      if (has.has('space_id')) {
        const byOrg: { org: string | null; n: number }[] = await db.query(
          `SELECT ${has.has('organization_id') ? 'organization_id' : 'NULL'} AS org, count(*)::int AS n FROM ${table} WHERE space_id = $1 GROUP BY 1 ORDER BY 1`,
          [f.space],
        );
        state[`${table} of the space`] = byOrg.map((r) => `${name(r.org)}: ${r.n}`).sort();
      }
      if (has.has('organization_id')) {
        const perOrg: { org: string; n: number }[] = await db.query(
          `SELECT organization_id AS org, count(*)::int AS n FROM ${table} WHERE organization_id = ANY($1::text[]) GROUP BY 1`,
          [[f.a, f.b]],
        );
        state[`${table} per organization`] = perOrg.map((r) => `${name(r.org)}: ${r.n}`).sort();
      }
    }
    const space: { organization_id: string }[] = await db.query('SELECT organization_id FROM spaces WHERE id = $1', [f.space]);
    state['the space is in'] = name(space[0].organization_id);
    return state;
  };

  /** Every organization-wide list, in both organizations, as the admin (a member of both) reads it. */
  const lists = async (f: Fixture) => {
    const get = async (path: string) => (await t.http.get(path).set(admin.auth).expect(200)).body;
    const out: Record<string, unknown> = {};
    for (const [org, label] of [
      [f.a, 'A'],
      [f.b, 'B'],
    ]) {
      out[`${label} spaces`] = (await get(`/v1/orgs/${org}/spaces`)).items.map((s: { id: string }) => (s.id === f.space ? 'S' : s.id));
      out[`${label} change requests`] = (await get(`/v1/orgs/${org}/change-requests?status=open&status=merged`)).items
        .map((c: { subject: string; space: string }) => `${c.subject} in ${c.space === f.space ? 'S' : c.space}`)
        .sort();
      out[`${label} search`] = (await get(`/v1/orgs/${org}/search?query=descaling`)).items.map((s: { id: string }) =>
        s.id === f.space ? 'S' : s.id,
      );
      const sites = (await get(`/v1/orgs/${org}/sites`)).items as { id: string }[];
      out[`${label} sites showing it`] = (
        await Promise.all(
          sites.map(async (s) =>
            (await get(`/v1/orgs/${org}/sites/${s.id}/site-spaces`)).items.filter((x: { space: { id: string } }) => x.space.id === f.space),
          ),
        )
      ).flat().length;
    }
    out['grants on the space'] = (await get(`/v1/spaces/${f.space}/permissions/users`)).items.length;
    out['change request in B'] = (await get(`/v1/spaces/${f.space}/change-requests/${f.cr}`)).status;
    return out;
  };

  const ways: [string, (f: Fixture) => Promise<unknown>][] = [
    ['space transfer', (f) => t.http.post(`/v1/spaces/${f.space}/transfer`).set(admin.auth).send({ organization: f.b }).expect(200)],
    [
      'collection transfer',
      (f) => t.http.post(`/v1/collections/${f.collection}/transfer`).set(admin.auth).send({ organization: f.b }).expect(200),
    ],
  ];

  it('space transfer and collection transfer reach the same rows and the same lists in both organizations', async () => {
    const ends: Record<string, unknown>[] = [];
    for (const [i, [way, move]] of ways.entries()) {
      const f = await seed(i);
      const before = await lists(f);
      expect(before).toMatchObject({ 'A change requests': ['Descale in S', 'Follow-up in S'], 'A search': ['S'], 'A sites showing it': 1 });
      await move(f);
      ends.push({ way, rows: await rows(f), lists: await lists(f) });
    }
    const [bySpace, byCollection] = ends;
    // What the space's own transfer gives, stated once: everything went to B, nothing stayed in A.
    expect(bySpace.lists).toEqual({
      'A spaces': [],
      'A change requests': [],
      'A search': [],
      'A sites showing it': 0,
      'B spaces': ['S'],
      'B change requests': ['Descale in S', 'Follow-up in S'],
      'B search': ['S'],
      'B sites showing it': 0,
      'grants on the space': 0,
      'change request in B': 'open',
    });
    expect((bySpace.rows as Record<string, string[]>)['change_requests of the space']).toEqual(['B: 2']);
    expect((bySpace.rows as Record<string, string[]>)['comments of the space']).toEqual(['B: 1']);
    expect((bySpace.rows as Record<string, string[]>)['change_request_reviews of the space']).toEqual(['B: 1']);
    // And the collection's transfer reaches exactly the same.
    expect(byCollection.rows).toEqual(bySpace.rows);
    expect(byCollection.lists).toEqual(bySpace.lists);
  });

  it('a collection delete deletes its spaces as their own delete would: change requests leave the list, sites drop them, restore brings them back', async () => {
    const f = await seed(2);
    await t.http.delete(`/v1/collections/${f.collection}`).set(admin.auth).expect(205);
    const get = async (path: string) => (await t.http.get(path).set(admin.auth).expect(200)).body;
    expect((await get(`/v1/orgs/${f.a}/change-requests?status=open&status=merged`)).items).toEqual([]);
    expect((await get(`/v1/orgs/${f.a}/sites/${f.site}/site-spaces`)).items).toEqual([]);
    expect((await get(`/v1/orgs/${f.a}/spaces`)).items).toEqual([]);
    await t.http.post(`/v1/spaces/${f.space}/restore`).set(admin.auth).expect(200);
    const restored = (await get(`/v1/orgs/${f.a}/change-requests?status=open&status=merged`)).items.map(
      (c: { subject: string }) => c.subject,
    );
    expect(restored.sort()).toEqual(['Descale', 'Follow-up']);
    expect((await get(`/v1/orgs/${f.a}/spaces`)).items.map((s: { id: string }) => s.id)).toEqual([f.space]);
  });

  it('the other contexts follow a space by recording its events in the same unit of work: a follower that fails undoes the move', async () => {
    const f = await seed(3);
    const seen: DomainEvent[] = [];
    const bus = t.app.get(DomainEvents);
    const remove = bus.addRecorder(async (e) => {
      seen.push(e);
      if (e.type === 'space.transferred') throw new Error('a follower failed');
    });
    try {
      await t.http.post(`/v1/spaces/${f.space}/transfer`).set(admin.auth).send({ organization: f.b }).expect(500);
    } finally {
      remove();
    }
    expect(seen.map((e) => e.type)).toContain('space.transferred');
    expect(seen.find((e) => e.type === 'space.transferred')).toMatchObject({
      organizationId: f.a,
      data: { spaceId: f.space, fromOrganizationId: f.a, toOrganizationId: f.b },
    });
    // Nothing half-written: the space, its change requests and the site showing it are all still in A.
    const db = t.app.get(Db);
    expect((await db.query('SELECT organization_id FROM spaces WHERE id = $1', [f.space]))[0].organization_id).toBe(f.a);
    expect(await db.query('SELECT DISTINCT organization_id FROM change_requests WHERE space_id = $1', [f.space])).toEqual([
      { organization_id: f.a },
    ]);
    const get = async (path: string) => (await t.http.get(path).set(admin.auth).expect(200)).body;
    expect((await get(`/v1/orgs/${f.a}/sites/${f.site}/site-spaces`)).items.map((x: { space: { id: string } }) => x.space.id)).toEqual([
      f.space,
    ]);
    // A merge moves main: followers hear `space.content-moved`, which webhooks are not offered.
    const heard: string[] = [];
    const listen = bus.addRecorder(async (e) => {
      heard.push(e.type);
    });
    try {
      const cr = (await t.http.post(`/v1/spaces/${f.space}/change-requests`).set(admin.auth).send({ subject: 'More' }).expect(201)).body.id;
      await t.http
        .post(`/v1/spaces/${f.space}/change-requests/${cr}/content`)
        .set(admin.auth)
        .send({ changes: [{ operation: 'insert_page', title: 'Limescale', document: { markdown: 'Vinegar works too.' } }] })
        .expect(200);
      await t.http.post(`/v1/spaces/${f.space}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    } finally {
      listen();
    }
    expect(heard).toContain('space.content-moved');
    const offered = (await t.http.get(`/v1/webhook-event-types`).set(admin.auth).expect(200)).body;
    expect(JSON.stringify(offered)).toContain('space.deleted');
    expect(JSON.stringify(offered)).not.toContain('space.content-moved');
  });
});
