import { createTestApp, TestApp, TestUser } from '../support/app';

/**
 * Hostile input against every operation of the served OpenAPI document (a new route is covered
 * automatically): NUL bytes and lone surrogates in path ids, query values and body strings; `null`
 * where the official schema does not allow it; integers and booleans that are not plain decimal
 * digits / true / false. Every answer is a 4xx in the error envelope, never a 500.
 */
type Schema = {
  type?: string | string[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  items?: Schema;
};
interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: unknown[];
}
interface Route {
  method: string;
  path: string;
  op: Operation;
}

describe('hostile input on every operation of the OpenAPI document', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let routes: Route[];
  let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

  const resolve = (s: Schema | undefined): Schema | undefined => {
    let cur = s;
    while (cur?.$ref) cur = doc.components.schemas[cur.$ref.split('/').pop()!];
    return cur;
  };
  const nullable = (s: Schema | undefined): boolean => {
    const r = resolve(s);
    if (!r) return true;
    if (r.nullable || (Array.isArray(r.type) && r.type.includes('null')) || r.type === 'null') return true;
    return [...(r.oneOf ?? []), ...(r.anyOf ?? [])].some(nullable);
  };
  const properties = (s: Schema | undefined): Record<string, Schema> => {
    const r = resolve(s);
    if (!r) return {};
    return Object.assign({}, ...(r.allOf ?? []).map(properties), r.properties ?? {});
  };
  const typeOf = (s: Schema | undefined): string | undefined => {
    const r = resolve(s);
    return Array.isArray(r?.type) ? r.type.find((x) => x !== 'null') : r?.type;
  };

  /** The path with `override` for one parameter and a plausible (unknown) id for the others. */
  const url = (r: Route, override: Record<string, string> = {}, query = '') => {
    const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) => override[name] ?? (name === 'organizationId' ? orgId : 'unknownId123'));
    return path + (query ? `?${query}` : '');
  };
  const send = (r: Route, target: string, body?: unknown) => {
    const req = (t.http as unknown as Record<string, (u: string) => import('supertest').Test>)[r.method](target).set(admin.auth);
    return body === undefined ? req : req.send(body as object);
  };
  const expectClientError = (res: import('supertest').Response, what: string) => {
    const enveloped =
      res.body?.error?.code === res.status && typeof res.body.error.message === 'string' && Object.keys(res.body).length === 1;
    if (res.status >= 500 || res.status < 400 || !enveloped) throw new Error(`${what}: got ${res.status} ${JSON.stringify(res.body)}`);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    doc = (await t.http.get('/docs-json').expect(200)).body;
    routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map(([method, op]) => ({ method, path, op })),
    );
    expect(routes.length).toBeGreaterThan(80);
  });
  afterAll(async () => t.close());

  it('a NUL byte or a lone surrogate in any path parameter answers 4xx (404 for ids), never 500', async () => {
    let tried = 0;
    for (const r of routes) {
      for (const p of (r.op.parameters ?? []).filter((x) => x.in === 'path')) {
        for (const hostile of ['abc%00def', '%00', 'a%ED%A0%80b', `x${'%F0%9F%98%80'.repeat(3)}`]) {
          const res = await send(r, url(r, { [p.name]: hostile }));
          expectClientError(res, `${r.method.toUpperCase()} ${r.path} with ${p.name}=${hostile}`);
          if (/Id$/.test(p.name) && hostile.includes('%00')) expect([400, 404]).toContain(res.status);
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(200);
  });

  it('a NUL byte in any string query value answers 400 naming it; integers and booleans are strict', async () => {
    let tried = 0;
    for (const r of routes) {
      for (const p of (r.op.parameters ?? []).filter((x) => x.in === 'query')) {
        const type = typeOf(p.schema);
        const cases: string[] =
          type === 'integer' || type === 'number'
            ? ['0x10', '%2010', '10%20', '1e1', '10abc', '-0x1', '%00', '']
            : type === 'boolean'
              ? ['1', '0', 'yes', 'TRUE', 'maybe', '%00']
              : ['a%00b'];
        for (const value of cases) {
          const res = await send(r, url(r, {}, `${p.name}=${value}`));
          const what = `${r.method.toUpperCase()} ${r.path}?${p.name}=${value}`;
          expectClientError(res, what);
          if (res.status !== 400) throw new Error(`${what}: expected 400, got ${res.status} ${JSON.stringify(res.body)}`);
          // A route with a body validates the body first (Nest runs its parameter pipes in order).
          if (!r.op.requestBody && !res.body.error.message.includes(p.name))
            throw new Error(`${what}: the message does not name ${p.name}: ${res.body.error.message}`);
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(100);
  });

  it('null where the official schema does not allow it, and NUL bytes in body strings, answer 400 naming the field', async () => {
    let tried = 0;
    for (const r of routes) {
      const schema = r.op.requestBody?.content['application/json']?.schema;
      if (!schema) continue;
      for (const [name, prop] of Object.entries(properties(schema))) {
        const what = `${r.method.toUpperCase()} ${r.path} with ${name}`;
        const bodies: unknown[] = [];
        if (!nullable(prop)) bodies.push({ [name]: null });
        if (typeOf(prop) === 'string') bodies.push({ [name]: 'a\u0000b' }, { [name]: 'a\ud800b' });
        for (const body of bodies) {
          const res = await send(r, url(r), body);
          expectClientError(res, `${what}=${JSON.stringify(body)}`);
          if (res.status !== 400)
            throw new Error(`${what}=${JSON.stringify(body)}: expected 400, got ${res.status} ${JSON.stringify(res.body)}`);
          if (!res.body.error.message.includes(name))
            throw new Error(`${what}: the message does not name ${name}: ${res.body.error.message}`);
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(100);
  });

  it('a forged cursor (decodes, wrong shape) answers 400 in the envelope on every list endpoint', async () => {
    // Real resources, so that every list gets as far as reading its cursor.
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Cursors' }).expect(201)).body;
    const collection = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ title: 'Shelf' }).expect(201)).body;
    const team = (await t.http.put(`/v1/orgs/${orgId}/teams`).set(admin.auth).send({ title: 'Cursor team' }).expect(201)).body;
    const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(admin.auth).send({}).expect(201)).body;
    const site = (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Cursor site', spaces: [space.id] })
        .expect(201)
    ).body;
    await t.http
      .post(`/v1/orgs/${orgId}/openapi`)
      .set(admin.auth)
      .send({ slug: 'cursor-spec', source: { text: '{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{}}' } })
      .expect(201);
    const written = await t.http
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_page', ref: 'home', title: 'Home searchable', document: { markdown: 'Searchable words here.' } },
          {
            operation: 'insert_files',
            files: [{ ref: 'notes', name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('hello').toString('base64') }],
          },
        ],
      });
    if (written.status !== 200) throw new Error(JSON.stringify(written.body));
    const pageId = written.body.changes.find((c: { object: string; page?: { id: string } }) => c.object === 'created_page').page.id;
    const fileId = written.body.insertedFiles[0].id;
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);
    const revisionId = (await t.http.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.revision;
    const commentOn = async (base: string) =>
      (
        await t.http
          .post(`${base}/comments`)
          .set(admin.auth)
          .send({ body: { markdown: 'c' } })
          .expect(200)
      ).body.id as string;
    const commentIds = {
      space: await commentOn(`/v1/spaces/${space.id}`),
      changeRequest: await commentOn(`/v1/spaces/${space.id}/change-requests/${cr.id}`),
    };
    const webhook = await t.http
      .post(`/v1/orgs/${orgId}/webhooks`)
      .set(admin.auth)
      .send({ url: 'https://hooks.example.com/in', events: ['space.created'] })
      .expect(201);
    const ids: Record<string, string> = {
      webhookId: webhook.body.id,
      organizationId: orgId,
      spaceId: space.id,
      collectionId: collection.id,
      teamId: team.id,
      changeRequestId: cr.id,
      pageId,
      fileId,
      revisionId,
      userId: admin.id,
      siteId: site.id,
      specSlug: 'cursor-spec',
    };
    const forge = (k: unknown[]) => Buffer.from(JSON.stringify({ v: 1, k }), 'utf8').toString('base64url');
    // Wrong for every list, whatever its key: wrong arity (no list has four keys), objects, NUL, not a cursor.
    const forged = [
      forge(['a', 'b', 'c', 'd']),
      forge([{}, []]),
      forge([null, 'x']),
      forge(['x\u0000y']),
      forge(['2026-03-01T10:00:00.000Z', 'x\u0000y']),
      forge([]),
      forge(Array.from({ length: 9 }, (_, i) => String(i))),
      'not base64 at all!',
    ];
    let lists = 0;
    for (const r of routes.filter(
      // Lists take `page` and `limit` (getChangeRequestPDF's `page` is a page id, not a cursor).
      (x) =>
        x.method === 'get' && ['page', 'limit'].every((name) => (x.op.parameters ?? []).some((p) => p.in === 'query' && p.name === name)),
    )) {
      const query = r.path.endsWith('/search') ? 'query=searchable&' : '';
      const routeIds = { ...ids, commentId: r.path.includes('/change-requests/') ? commentIds.changeRequest : commentIds.space };
      const plain = await send(r, url(r, routeIds, query.slice(0, -1)));
      if (plain.status !== 200) throw new Error(`${r.path}: the list itself answered ${plain.status} ${JSON.stringify(plain.body)}`);
      for (const cursor of forged) {
        const res = await send(r, url(r, routeIds, `${query}page=${encodeURIComponent(cursor)}`));
        const what = `GET ${r.path}?page=${Buffer.from(cursor, 'base64url').toString('utf8')}`;
        expectClientError(res, what);
        if (res.status !== 400) throw new Error(`${what}: expected 400, got ${res.status}`);
      }
      lists += 1;
    }
    expect(lists).toBeGreaterThan(20);

    // Wrong for one list's key: a date that is not a date, a number that is not a number.
    const wrongFor: [string, unknown[]][] = [
      [`/v1/orgs/${orgId}/spaces`, ['not-a-date', 'x']],
      [`/v1/orgs/${orgId}/spaces`, ['2026-13-45T99:99:99Z', 'x']],
      [`/v1/orgs/${orgId}/spaces`, [12, 'x']],
      [`/v1/orgs/${orgId}/collections`, ['yesterday', 'x']],
      [`/v1/spaces/${space.id}/change-requests`, ['abc']],
      [`/v1/spaces/${space.id}/change-requests`, [1.5]],
      [`/v1/spaces/${space.id}/search?query=searchable`, ['zz', 'x', 1]],
      [`/v1/spaces/${space.id}/search?query=searchable`, ['0.5', 'x', 'not-a-number']],
      [`/v1/spaces/${space.id}/search?query=searchable`, ['1e999', 'x', 1]],
      [`/v1/orgs/${orgId}/search?query=searchable`, ['NaN', 'x', 1]],
      [`/v1/spaces/${space.id}/content/files`, [7]],
    ];
    for (const [path, key] of wrongFor) {
      const res = await t.http.get(`${path}${path.includes('?') ? '&' : '?'}page=${forge(key)}`).set(admin.auth);
      const what = `GET ${path} with cursor ${JSON.stringify(key)}`;
      expectClientError(res, what);
      if (res.status !== 400) throw new Error(`${what}: expected 400, got ${res.status}`);
    }
  });

  it('NUL bytes deep in a body and in a nested array are found too', async () => {
    const res = await t.http
      .put(`/v1/orgs/${orgId}/teams`)
      .set(admin.auth)
      .send({ title: 'ok', members: ['x\u0000'] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('members');
  });
});
