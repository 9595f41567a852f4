import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../apps/api/src/database/embedded-postgres';
import { migrate } from '../../apps/api/src/database/migrate';

/**
 * PostgreSQL stopped under the API, then started again (a real server of this test's own, on the same port
 * and data dir): meanwhile every request that needs the database answers 503 with Retry-After and a clear
 * message (the API in the error envelope, a published site's page as a page, the MCP endpoints), never 500;
 * /health/ready answers 503; once it is back, requests succeed at once and every acknowledged write is there.
 */
describe('a database outage', () => {
  let pg: EmbeddedPostgresHandle;
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let siteId: string;
  const dataDir = join(process.cwd(), '.test-data', `outage-${process.pid}`);
  let port: number;
  const FLAGS = ['-c', 'fsync=off', '-c', 'synchronous_commit=on', '-c', 'full_page_writes=off'];

  beforeAll(async () => {
    port = await freePort();
    pg = await startEmbeddedPostgres({ dataDir, port, database: 'quire', persistent: true, extraFlags: FLAGS });
    await migrate(pg.url);
    t = await createTestApp({}, { sharedDatabaseUrl: pg.url });
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body.id;
    const cr = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${space}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${space}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    siteId = (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Docs', spaces: [space] })
        .expect(201)
    ).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/publish`).set(admin.auth).expect(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const expectUnavailable = (res: { status: number; headers: Record<string, string>; body: unknown }, what: string) => {
    if (res.status !== 503) throw new Error(`${what}: expected 503, got ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.headers['retry-after']).toBe('5');
  };

  it('answers 503 with Retry-After while PostgreSQL is stopped, and recovers at once, losing no acknowledged write', async () => {
    // An acknowledged write just before the outage.
    const before = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Written before' }).expect(201)).body.id;
    await pg.stop();
    try {
      const stranger = { Authorization: 'Bearer qr_not_a_token_0000000000000000000000000000' };
      const cases: [string, () => Promise<{ status: number; headers: Record<string, string>; body: unknown; text?: string }>][] = [
        ['an API read', () => t.http.get(`/v1/orgs/${orgId}/spaces`).set(admin.auth)],
        ['an API write', () => t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'During' })],
        ['a token not seen before', () => t.http.get(`/v1/orgs/${orgId}`).set(stranger)],
        [
          'a content batch (authenticated before its body is read)',
          () => t.http.post(`/v1/spaces/${before}/change-requests/x/content`).set(admin.auth).send({ changes: [] }),
        ],
        ['the published JSON', () => t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/published`).set(admin.auth)],
        ['a page of the published site', () => t.http.get(`/sites/${siteId}/`).set('Accept', 'text/html')],
        ['the site search as JSON', () => t.http.get(`/sites/${siteId}/~search.json?q=hello`)],
        ['the readiness check', () => t.http.get('/health/ready')],
        ['a custom hostname not seen before', () => t.http.get('/').set('Host', 'docs.outage.example.com').set('Accept', 'text/html')],
      ];
      for (const [what, send] of cases) expectUnavailable(await send(), what);

      const api = await t.http.get(`/v1/orgs/${orgId}/spaces`).set(admin.auth);
      expect(api.body).toEqual({ error: { code: 503, message: expect.stringMatching(/database cannot be reached.*try again/) } });
      const page = await t.http.get(`/sites/${siteId}/`).set('Accept', 'text/html');
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('try again in a few seconds');
      // A browser at a custom hostname this process has not looked up yet gets the page too; curl gets JSON.
      const hostPage = await t.http.get('/guide').set('Host', 'docs.outage.example.com').set('Accept', 'text/html,*/*;q=0.8');
      expect(hostPage.headers['content-type']).toMatch(/^text\/html/);
      const curl = await t.http.get('/guide').set('Host', 'docs.outage.example.com').set('Accept', '*/*');
      expect(curl.body).toEqual({ error: { code: 503, message: expect.stringMatching(/database cannot be reached/) } });
      expect((await t.http.get('/health')).status).toBe(200);

      // MCP: the API's endpoint and a published site's, each an answer of 503 with the JSON-RPC error saying why.
      const rpc = (method: string, params: object) => ({ jsonrpc: '2.0', id: 1, method, params });
      const mcp = await t.http
        .post('/mcp')
        .set(admin.auth)
        .set('Accept', 'application/json, text/event-stream')
        .send(rpc('tools/call', { name: 'list_spaces', arguments: { organizationId: orgId } }));
      expectUnavailable(mcp, 'the API MCP');
      expect(mcp.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { message: expect.stringMatching(/database cannot be reached/) } });
      const siteMcp = await t.http
        .post(`/sites/${siteId}/~mcp`)
        .set('Accept', 'application/json, text/event-stream')
        .send(rpc('tools/call', { name: 'search', arguments: { query: 'hello' } }));
      expectUnavailable(siteMcp, 'the site MCP');
      expect(siteMcp.body).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        error: { message: expect.stringMatching(/database cannot be reached/) },
      });
    } finally {
      pg = await startEmbeddedPostgres({ dataDir, port, database: 'quire', persistent: true, extraFlags: FLAGS });
    }
    // Back at once: reads, writes, the site, readiness; the write acknowledged before the outage is there.
    await t.http.get('/health/ready').expect(200);
    const titles = (await t.http.get(`/v1/orgs/${orgId}/spaces`).set(admin.auth).expect(200)).body.items.map(
      (s: { title: string }) => s.title,
    );
    expect(titles).toContain('Written before');
    expect(titles).not.toContain('During');
    await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'After' }).expect(201);
    expect((await t.http.get(`/sites/${siteId}/`).expect(200)).text).toContain('Hello.');
  }, 120_000);
});
