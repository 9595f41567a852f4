import { Db } from '@app/persistence';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { png } from '../support/png';

/**
 * No outbound I/O inside a database transaction: a write that fetches a URL source fetches it before its
 * unit of work opens. While a slow remote makes it wait, it holds no pool connection and no lock: other
 * writes to the same change request and space, and reads, go through.
 */
describe('outbound requests happen outside database transactions', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let slow: Server;
  let port: number;
  let asked: () => void;
  let answer: () => void;
  const SLOW_MS = 5000;

  beforeAll(async () => {
    slow = createServer((_req: IncomingMessage, res: ServerResponse) => {
      asked();
      const timer = setTimeout(() => {
        res.setHeader('Content-Type', 'image/png');
        res.end(png(4, 4));
        answer();
      }, SLOW_MS);
      res.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
    port = (slow.address() as { port: number }).port;
    t = await createTestApp({ QUIRE_FILE_URL_ALLOWLIST: '127.0.0.1', QUIRE_FILE_URL_ALLOW_PRIVATE: 'true' });
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => slow.close(r));
  });

  it('while a URL source takes 5 s, the connection pool is free, and writes to the same change request and space and reads succeed', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Slow' }).expect(201)).body;
    const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(admin.auth).send({}).expect(201)).body;
    const content = `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`;
    const wasAsked = new Promise<void>((r) => (asked = r));
    let answered = false;
    const wasAnswered = new Promise<void>((r) => (answer = r)).then(() => (answered = true));

    const fetching = t.http
      .post(content)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_files', files: [{ name: 'slow.png', url: `http://127.0.0.1:${port}/slow.png` }] }] })
      .then((r) => r);
    await wasAsked;

    // No connection of this database sits in a transaction while the remote is thinking.
    const db = t.app.get(Db);
    const inTransaction: { n: number }[] = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    );
    expect(inTransaction[0].n).toBe(0);
    expect(db.poolStats().waiting).toBe(0);

    // Another write to the same change request, a write to the space, and reads, all while it waits.
    await t.http
      .post(content)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', title: 'Written meanwhile', document: { markdown: 'Meanwhile.' } }] })
      .expect(200);
    await t.http.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ title: 'Renamed meanwhile' }).expect(200);
    await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}`).set(admin.auth).expect(200);
    await t.http.get(`/v1/orgs/${orgId}/spaces`).set(admin.auth).expect(200);
    expect(answered).toBe(false);

    // The slow write then lands on top of the other one: nothing lost.
    const res = await fetching;
    await wasAnswered;
    expect(res.status).toBe(200);
    expect(res.body.insertedFiles).toEqual([expect.objectContaining({ name: 'slow.png', dimensions: { width: 4, height: 4 } })]);
    const pages = (await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`).set(admin.auth).expect(200)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Written meanwhile']);
    const files = (await t.http.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/files`).set(admin.auth).expect(200)).body;
    expect(files.items.map((f: { name: string }) => f.name)).toEqual(['slow.png']);
  }, 30_000);

  it('a caller who may not write never makes the service fetch', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Closed' }).expect(201)).body;
    const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(admin.auth).send({}).expect(201)).body;
    const outsider = await t.user('outsider');
    let fetched = false;
    asked = () => (fetched = true);
    const res = await t.http
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`)
      .set(outsider.auth)
      .send({ changes: [{ operation: 'insert_files', files: [{ name: 'x.png', url: `http://127.0.0.1:${port}/x.png` }] }] });
    expect(res.status).toBe(404);
    expect(fetched).toBe(false);
  });
});
