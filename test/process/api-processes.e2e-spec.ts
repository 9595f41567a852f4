import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { createServer, Server } from 'node:http';
import { Client } from 'pg';
import request from 'supertest';
import { createTestDatabase } from '../support/database';
import { expectError } from '../support/expect';
import { ApiProcess, runCli, startApiProcess } from '../support/process';
import { startS3 } from '../support/s3';

/**
 * Two real API processes (the built `main.js`, as two containers run it) on one PostgreSQL, with the
 * files on S3: what one writes, the other serves; revocations and role changes cross the process
 * boundary; jobs and schedules run once, not once per process; a merge racing through both loses nothing.
 */
/** Seals webhook secrets at rest; both processes are given it, as containers of one deployment are. */
const SHARED_SECRET_KEY = randomBytes(32).toString('base64');

describe('two API processes on one database', () => {
  jest.setTimeout(180_000);
  const bootstrapToken = 'quire-processes-bootstrap-token-0001';
  const auth = { Authorization: `Bearer ${bootstrapToken}` };
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let pg: Client;
  let a: ApiProcess;
  let b: ApiProcess;
  let env: Record<string, string>;
  let orgId: string;
  const received: { id: string; body: string }[] = [];
  let receiver: Server;
  let receiverUrl: string;

  const eventually = async (check: () => Promise<boolean>, what: string, ms = 10_000) => {
    for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await check()) return;
    throw new Error(`not within ${ms} ms: ${what}`);
  };

  beforeAll(async () => {
    db = await createTestDatabase(); // migrated, no users yet: both processes find an empty database
    s3 = await startS3();
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ id: String(req.headers['x-quire-event-id']), body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const address = receiver.address();
    receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
    env = {
      DATABASE_URL: db.url,
      ...s3.env,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      QUIRE_FILE_SIGNING_SECRET: 'shared-signing-secret-of-both-containers',
      // Seals webhook secrets at rest: every process must share it (each has a data dir of its own otherwise).
      QUIRE_SECRET_KEY: SHARED_SECRET_KEY,
      QUIRE_BOOTSTRAP_TOKEN: bootstrapToken,
      QUIRE_JOBS: 'on',
      QUIRE_APERTIUM: 'off',
      QUIRE_WEBHOOK_ALLOWLIST: '127.0.0.1',
      // Caches that would stay stale for an hour: only the cross-process notification can evict them.
      QUIRE_TOKEN_CACHE_TTL_MS: '3600000',
      QUIRE_ROLE_CACHE_TTL_MS: '600000',
      LOG_LEVEL: 'info',
    };
    // Started together on the empty database: they migrate and bootstrap one after the other.
    [a, b] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    orgId = (await request(a.url).get('/v1/orgs').set(auth).expect(200)).body.items[0].id;
  });
  afterAll(async () => {
    const codes = await Promise.all([a?.stop(), b?.stop()]);
    await pg?.end();
    await new Promise((r) => receiver?.close(r));
    await s3?.close();
    await db?.drop();
    expect(codes).toEqual([0, 0]); // SIGTERM drains and exits cleanly
  });

  it('two processes starting together on an empty database bootstrap exactly one admin, organization and token', async () => {
    const counts = await pg.query<{ users: string; orgs: string; tokens: string }>(
      'SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM organizations) AS orgs, (SELECT count(*) FROM api_tokens) AS tokens',
    );
    expect(counts.rows[0]).toEqual({ users: '1', orgs: '1', tokens: '1' });
    expect([a, b].filter((p) => p.lines.some((l) => l.includes('Quire first start')))).toHaveLength(1);
    await request(b.url).get('/v1/user').set(auth).expect(200);
  });

  it('a space written through one is read through the other; a role changed and a token revoked in one are applied by the other on its next request', async () => {
    const space = (await request(a.url).post(`/v1/orgs/${orgId}/spaces`).set(auth).send({ title: 'Written in a' }).expect(201)).body.id;
    expect((await request(b.url).get(`/v1/spaces/${space}`).set(auth).expect(200)).body.title).toBe('Written in a');

    const user = await runCli<{ id: string }>(['user:create', '--email', 'second@example.com'], env);
    await runCli(['member:add', '--org', orgId, '--user', user.id, '--role', 'edit'], env);
    const issued = await runCli<{ id: string; token: string }>(['token:create', '--user', user.id], env);
    const theirs = { Authorization: `Bearer ${issued.token}` };
    const canEdit = async (p: ApiProcess) =>
      (await request(p.url).get(`/v1/spaces/${space}`).set(theirs).expect(200)).body.permissions.edit;
    expect(await canEdit(b)).toBe(true); // token and role now cached in b for an hour
    expect(await canEdit(a)).toBe(true);

    await request(a.url).patch(`/v1/orgs/${orgId}/members/${user.id}`).set(auth).send({ role: 'read' }).expect(200);
    await eventually(async () => (await canEdit(b)) === false, 'the role change reaches b');
    expectError(await request(b.url).patch(`/v1/spaces/${space}`).set(theirs).send({ title: 'No' }), 403);

    await runCli(['token:revoke', '--id', issued.id], env); // a third process: the CLI
    for (const p of [a, b])
      await eventually(async () => (await request(p.url).get('/v1/user').set(theirs)).status === 401, 'the revocation');
  });

  it('a file uploaded through one process downloads through the other (S3 storage)', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));
    const space = (await request(a.url).post(`/v1/orgs/${orgId}/spaces`).set(auth).send({ title: 'Files' }).expect(201)).body.id;
    const cr = (await request(a.url).post(`/v1/spaces/${space}/change-requests`).set(auth).send({}).expect(201)).body.id;
    const written = await request(a.url)
      .post(`/v1/spaces/${space}/change-requests/${cr}/content?compat=false`)
      .set(auth)
      .send({
        changes: [
          {
            operation: 'insert_files',
            files: [{ ref: 'f', name: 'f.bin', contentType: 'application/octet-stream', base64: bytes.toString('base64') }],
          },
        ],
      })
      .expect(200);
    await request(a.url).post(`/v1/spaces/${space}/change-requests/${cr}/merge`).set(auth).expect(200);
    const link = (await request(b.url).get(`/v1/spaces/${space}/content/files/${written.body.insertedFiles[0].id}`).set(auth).expect(200))
      .body.downloadURL as string;
    const path = new URL(link).pathname + new URL(link).search;
    for (const p of [a, b]) {
      const got = await request(p.url)
        .get(path)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(got.status).toBe(200);
      expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
    }
  });

  it('merges racing through both processes lose nothing, and one change request merges once', async () => {
    const space = (await request(a.url).post(`/v1/orgs/${orgId}/spaces`).set(auth).send({ title: 'Raced' }).expect(201)).body.id;
    const base = `/v1/spaces/${space}/change-requests`;
    const withPage = async (title: string) => {
      const cr = (await request(a.url).post(base).set(auth).send({}).expect(201)).body.id as string;
      await request(a.url)
        .post(`${base}/${cr}/content`)
        .set(auth)
        .send({ changes: [{ operation: 'insert_page', title, document: { markdown: 'Written for the race.' } }] })
        .expect(200);
      return cr;
    };
    const crs = await Promise.all(Array.from({ length: 6 }, (_, i) => withPage(`Page ${i}`)));
    const merges = await Promise.all(
      crs.map((cr, i) =>
        request(i % 2 ? b.url : a.url)
          .post(`${base}/${cr}/merge`)
          .set(auth),
      ),
    );
    expect(merges.map((r) => r.status)).toEqual(crs.map(() => 200));
    const pages = (await request(b.url).get(`/v1/spaces/${space}/content/pages`).set(auth).expect(200)).body.pages as { title: string }[];
    expect(pages.map((p) => p.title).sort()).toEqual(crs.map((_, i) => `Page ${i}`));

    const once = await withPage('Once');
    const both = await Promise.all([a, b].map((p) => request(p.url).post(`${base}/${once}/merge`).set(auth)));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]); // the loser is told it is merged already
    expectError(
      both.find((r) => r.status === 409)!,
      409,
    );
    const pagesAfter = (await request(a.url).get(`/v1/spaces/${space}/content/pages`).set(auth).expect(200)).body.pages as {
      title: string;
    }[];
    expect(pagesAfter.filter((p) => p.title === 'Once')).toHaveLength(1);
  });

  it('a webhook delivery is sent once although both processes work the queue', async () => {
    const hook = (
      await request(a.url)
        .post(`/v1/orgs/${orgId}/webhooks`)
        .set(auth)
        .send({ url: receiverUrl, events: ['space.created'] })
        .expect(201)
    ).body;
    const before = received.length;
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        request(i % 2 ? b.url : a.url)
          .post(`/v1/orgs/${orgId}/spaces`)
          .set(auth)
          .send({ title: `Hooked ${i}` }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    await eventually(async () => received.length - before >= 6, 'six deliveries');
    await new Promise((r) => setTimeout(r, 2000)); // time for a duplicate to show up, if one were sent
    const ours = received.slice(before);
    expect(ours).toHaveLength(6);
    expect(new Set(ours.map((r) => r.id)).size).toBe(6);
    const listed = (await request(b.url).get(`/v1/orgs/${orgId}/webhooks/${hook.id}/deliveries`).set(auth).expect(200)).body.items as {
      status: string;
      attempts: number;
    }[];
    expect(listed.map((d) => [d.status, d.attempts])).toEqual(listed.map(() => ['succeeded', 1]));
  });

  it('scheduled jobs are planned once and run once per tick, not once per process', async () => {
    const schedules = await pg.query<{ name: string }>('SELECT name FROM pgboss.schedule ORDER BY name');
    expect(schedules.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining(['purge-deleted-spaces', 'webhooks-sweep', 'translations-sweep']),
    );
    expect(new Set(schedules.rows.map((r) => r.name)).size).toBe(schedules.rows.length);
    // The minutely sweeps: wait for a tick (at most ~90 s: a minute plus pg-boss's cron monitor interval).
    const minutely = ['webhooks-sweep', 'translations-sweep', 'conversations-sweep', 'openapi-sweep'];
    await eventually(
      async () => (await pg.query(`SELECT 1 FROM pgboss.job WHERE name = ANY($1) AND state = 'completed'`, [minutely])).rowCount! > 0,
      'a minutely sweep ran',
      120_000,
    );
    const perTick = await pg.query<{ name: string; minute: string; n: number }>(
      `SELECT name, date_trunc('minute', created_on)::text AS minute, count(*)::int AS n FROM pgboss.job WHERE name = ANY($1) GROUP BY 1, 2`,
      [minutely],
    );
    expect(perTick.rows.length).toBeGreaterThan(0);
    expect(perTick.rows.filter((r) => r.n !== 1)).toEqual([]);
  });
});
