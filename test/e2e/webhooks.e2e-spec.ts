import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { WebhookDeliveries } from '@app/audit-and-webhooks';
import { HostResolver } from '@app/shared-kernel';
import { createTestApp, TestApp, TestUser, SHARED_SECRET_KEY } from '../support/app';
import { expectError } from '../support/expect';
import { createTestDatabase } from '../support/database';

/** The verification sample of docs/audit-and-webhooks.md, as a receiver would write it. */
function verify(secret: string, header: string, rawBody: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  if (!parts.t || !parts.v1 || Math.abs(nowSeconds - Number(parts.t)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback: answers with the queued statuses (then 200) and records what it got. */
function receiver() {
  const got: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answers.shift() ?? 200).end('ok');
    });
  });
  return {
    got,
    answers,
    async start(): Promise<string> {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('Webhooks: who gets told', () => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let org: string;
  let otherOrg: string;
  let rx: ReturnType<typeof receiver>;
  let url: string;
  let deliveries: WebhookDeliveries;

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_WEBHOOK_ALLOWLIST: '127.0.0.1' });
    admin = await t.user('admin');
    editor = await t.user('editor');
    outsider = await t.user('outsider');
    otherOrg = await t.organization(outsider);
    rx = receiver();
    url = await rx.start();
    deliveries = t.app.get(WebhookDeliveries);
  });
  afterAll(async () => {
    await rx.close();
    await t.close();
  });
  // Each test in an organization of its own: the webhooks of one never see the events of another.
  beforeEach(async () => {
    rx.got.length = 0;
    rx.answers.length = 0;
    org = await t.organization(admin);
    await t.member(org, editor, 'create');
  });

  const create = (body: object, who: TestUser = admin, organizationId = org) =>
    t.http.post(`/v1/orgs/${organizationId}/webhooks`).set(who.auth).send(body);
  const space = async (title = 'Docs') => (await t.http.post(`/v1/orgs/${org}/spaces`).set(admin.auth).send({ title }).expect(201)).body;
  const list = async (id: string, query: Record<string, string> = {}) =>
    (await t.http.get(`/v1/orgs/${org}/webhooks/${id}/deliveries`).query(query).set(admin.auth).expect(200)).body;
  /** What the job queue would do: attempt everything due now (in this test's organization). */
  const runDue = async () => {
    const ids: string[] = (
      await t.app
        .get(DataSource)
        .query(`SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1 AND organization_id = $2`, [
          t.clock.now(),
          org,
        ])
    ).map((r: { id: string }) => r.id);
    for (const id of ids) await deliveries.attempt(id);
    return ids.length;
  };

  it('lists the event types of every context', async () => {
    const res = await t.http.get('/v1/webhook-event-types').set(editor.auth).expect(200);
    for (const type of [
      'space.created',
      'change-request.status-changed',
      'comment.created',
      'review.submitted',
      'site.published',
      'openapi-spec.processed',
      'translation.completed',
    ])
      expect(res.body.items).toContain(type);
  });

  it('creates a webhook whose secret is shown once; validates what it is given', async () => {
    const res = await create({ url, events: ['space.created'], description: 'CI' }).expect(201);
    expect(res.body).toMatchObject({
      object: 'webhook',
      url,
      events: ['space.created'],
      active: true,
      description: 'CI',
      deactivatedReason: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
    expect(res.headers.location).toBe(res.body.urls.location);
    const read = await t.http.get(`/v1/orgs/${org}/webhooks/${res.body.id}`).set(admin.auth).expect(200);
    expect(read.body.secret).toBeUndefined();
    const all = await t.http.get(`/v1/orgs/${org}/webhooks`).set(admin.auth).expect(200);
    expect(all.body.items.map((w: { id: string }) => w.id)).toContain(res.body.id);
    expect(JSON.stringify(all.body)).not.toContain(res.body.secret);

    expectError(await create({ url: 'ftp://example.com/x', events: ['space.created'] }), 400, /https/);
    expectError(await create({ url: 'http://example.com/x', events: ['space.created'] }), 400, /QUIRE_WEBHOOK_ALLOWLIST/);
    expectError(await create({ url: 'https://169.254.169.254/latest', events: ['space.created'] }), 400, /private/);
    expectError(await create({ url: 'https://[::1]/x', events: ['space.created'] }), 400, /private/);
    for (const literal of [
      '[::ffff:127.0.0.1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[::ffff:a9fe:a9fe]',
      '[::127.0.0.1]',
      '[64:ff9b::a9fe:a9fe]',
      '2852039166',
    ])
      expectError(await create({ url: `https://${literal}/x`, events: ['space.created'] }), 400, /private/);
    expectError(await create({ url: 'https://user:pw@example.com/x', events: ['space.created'] }), 400, /credentials/);
    expectError(await create({ url: 'not a url', events: ['space.created'] }), 400);
    expectError(await create({ url: null, events: ['space.created'] }), 400);
    expectError(await create({ url: 'https://example.com/x', events: [] }), 400, /at least one/);
    expectError(await create({ url: 'https://example.com/x', events: ['space.exploded'] }), 400, /space\.exploded/);
    expectError(await create({ url: 'https://example.com/x', events: 'space.created' }), 400);
    expectError(await create({ url: 'https://example.com/x', events: ['space.created'], active: 'yes' }), 400);
    expectError(await create({ url: 'https://example.com/x', events: ['space.created'], description: 'x'.repeat(501) }), 400);
    expectError(await create({ url: 'https://example.com/\u0000', events: ['space.created'] }), 400);
    expect((await create({ url: 'https://example.com/x', events: ['*'], description: null }).expect(201)).body.events).toEqual(['*']);
  });

  it('admins only; another organization and its webhooks are out of reach', async () => {
    const hook = (await create({ url, events: ['space.created'] }).expect(201)).body;
    const base = `/v1/orgs/${org}/webhooks`;
    expectError(await create({ url, events: ['space.created'] }, editor), 403);
    expectError(await create({ url, events: ['space.created'] }, outsider), 404);
    expectError(await t.http.get(base).set(editor.auth), 403);
    expectError(await t.http.get(`${base}/${hook.id}`).set(outsider.auth), 404);
    expectError(await t.http.patch(`${base}/${hook.id}`).set(editor.auth).send({ active: false }), 403);
    expectError(await t.http.post(`${base}/${hook.id}/ping`).set(editor.auth), 403);
    // The other organization's admin, through their own organization, with this webhook's id.
    expectError(await t.http.get(`/v1/orgs/${otherOrg}/webhooks/${hook.id}`).set(outsider.auth), 404);
    expectError(await t.http.patch(`/v1/orgs/${otherOrg}/webhooks/${hook.id}`).set(outsider.auth).send({ active: false }), 404);
    await t.http.delete(`/v1/orgs/${otherOrg}/webhooks/${hook.id}`).set(outsider.auth).expect(204);
    expect((await t.http.get(`${base}/${hook.id}`).set(admin.auth).expect(200)).body.active).toBe(true);
  });

  it('delivers a signed event with a stable id; the receiver verifies it', async () => {
    const hook = (await create({ url, events: ['space.created'] }).expect(201)).body;
    const s = await space('Signed');
    expect(await runDue()).toBeGreaterThanOrEqual(1);
    const mine = rx.got.filter((r) => JSON.parse(r.body).data.spaceId === s.id);
    expect(mine).toHaveLength(1);
    const [got] = mine;
    const body = JSON.parse(got.body);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'space.created',
      createdAt: t.clock.now().toISOString(),
      organization: org,
      data: { spaceId: s.id, actor: admin.id },
    });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-quire-event']).toBe('space.created');
    expect(got.headers['x-quire-event-id']).toBe(body.id);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect(verify(hook.secret, got.headers['x-quire-signature'] as string, got.body, now)).toBe(true);
    expect(verify('whsec_wrong', got.headers['x-quire-signature'] as string, got.body, now)).toBe(false);
    expect(verify(hook.secret, got.headers['x-quire-signature'] as string, `${got.body} `, now)).toBe(false);
    expect(verify(hook.secret, got.headers['x-quire-signature'] as string, got.body, now + 3600)).toBe(false);

    const listed = await list(hook.id);
    expect(listed.items[0]).toMatchObject({
      object: 'webhook-delivery',
      event: { id: body.id, type: 'space.created' },
      status: 'succeeded',
      attempts: 1,
      responseCode: 200,
      durationMs: expect.any(Number),
      error: null,
      deliveredAt: t.clock.now().toISOString(),
    });
    // Attempting a delivered one again does nothing.
    expect(await deliveries.attempt(listed.items[0].id)).toBe(false);
  });

  it('retries 5xx, 429 and network errors with backoff; the same event id and bytes every time', async () => {
    const hook = (await create({ url, events: ['space.updated'] }).expect(201)).body;
    const s = await space('Retry');
    await t.http.patch(`/v1/spaces/${s.id}`).set(admin.auth).send({ title: 'Retry 2' }).expect(200);
    rx.answers.push(500, 429);
    await runDue();
    let d = (await list(hook.id)).items[0];
    expect(d).toMatchObject({ status: 'pending', attempts: 1, responseCode: 500, error: 'The receiver answered 500' });
    expect(d.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + 30_000).toISOString());
    expect(await runDue()).toBe(0); // not due yet
    t.clock.advance(30_000);
    await runDue();
    d = (await list(hook.id)).items[0];
    expect(d).toMatchObject({ status: 'pending', attempts: 2, responseCode: 429 });
    expect(d.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + 60_000).toISOString());
    t.clock.advance(60_000);
    await runDue();
    d = (await list(hook.id)).items[0];
    expect(d).toMatchObject({ status: 'succeeded', attempts: 3, responseCode: 200 });
    const bodies = rx.got.filter((r) => r.headers['x-quire-event'] === 'space.updated').map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(rx.got.map((r) => r.headers['x-quire-event-id'])).size).toBe(1);

    // Nobody listening: a network error, retried.
    const closed = (await create({ url: 'http://127.0.0.1:1/hook', events: ['space.created'] }).expect(201)).body;
    await space('Nobody');
    await runDue();
    expect((await list(closed.id)).items[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      responseCode: null,
      error: expect.stringMatching(/could not be fetched/),
    });
  });

  it('ten deliveries in a row refused for good turn the webhook off', async () => {
    const hook = (await create({ url, events: ['space.created'] }).expect(201)).body;
    for (let i = 0; i < 10; i++) {
      await space(`Refused ${i}`);
      rx.answers.push(400);
      await runDue();
      const w = (await t.http.get(`/v1/orgs/${org}/webhooks/${hook.id}`).set(admin.auth).expect(200)).body;
      expect(w.active).toBe(i < 9);
    }
    const w = (await t.http.get(`/v1/orgs/${org}/webhooks/${hook.id}`).set(admin.auth).expect(200)).body;
    expect(w.deactivatedReason).toBe('10 deliveries in a row failed');
  });

  it('does not retry a 4xx (but 408 and 429): the delivery fails at once', async () => {
    const hook = (await create({ url, events: ['space.deleted'] }).expect(201)).body;
    const s = await space();
    await t.http.delete(`/v1/spaces/${s.id}`).set(admin.auth).expect(205);
    rx.answers.push(410);
    await runDue();
    expect((await list(hook.id)).items[0]).toMatchObject({ status: 'failed', attempts: 1, responseCode: 410, nextAttemptAt: null });
    t.clock.advance(3_600_000);
    expect(await runDue()).toBe(0);
    expect(rx.got).toHaveLength(1);
    expect((await list(hook.id, { status: 'failed' })).count).toBe(1);
    expect((await list(hook.id, { status: 'succeeded' })).count).toBe(0);
    expectError(await t.http.get(`/v1/orgs/${org}/webhooks/${hook.id}/deliveries`).query({ status: 'lost' }).set(admin.auth), 400);
  });

  it('an inactive webhook gets nothing; failing for 24 hours turns a webhook off with the reason', async () => {
    const off = (await create({ url, events: ['space.restored'], active: false }).expect(201)).body;
    const hook = (await create({ url, events: ['space.restored'] }).expect(201)).body;
    const s = await space();
    await t.http.delete(`/v1/spaces/${s.id}`).set(admin.auth).expect(205);
    await t.http.post(`/v1/spaces/${s.id}/restore`).set(admin.auth).expect(200);
    expect((await list(off.id)).count).toBe(0);
    expect((await list(hook.id)).count).toBe(1);
    let attempts = 0;
    for (let i = 0; i < 100; i++) {
      rx.answers.push(503);
      attempts += await runDue();
      const d = (await list(hook.id)).items[0];
      if (d.status !== 'pending') break;
      t.clock.advance(new Date(d.nextAttemptAt).getTime() - t.clock.now().getTime());
    }
    const d = (await list(hook.id)).items[0];
    expect(d.status).toBe('failed');
    expect(attempts).toBeGreaterThan(20); // 30 s, 1, 2, 4 … minutes, then every hour for 24 hours
    expect(d.attempts).toBe(attempts);
    const after = (await t.http.get(`/v1/orgs/${org}/webhooks/${hook.id}`).set(admin.auth).expect(200)).body;
    expect(after).toMatchObject({
      active: false,
      deactivatedReason: expect.stringMatching(/24 hours.*503/),
      deactivatedAt: t.clock.now().toISOString(),
    });
    rx.got.length = 0;
    await t.http.delete(`/v1/spaces/${s.id}`).set(admin.auth).expect(205);
    await t.http.post(`/v1/spaces/${s.id}/restore`).set(admin.auth).expect(200);
    await runDue();
    expect(rx.got.filter((r) => r.headers['x-quire-event'] === 'space.restored')).toHaveLength(0);
    // Turned back on by an admin: the reason goes, the next event is delivered.
    const on = await t.http.patch(`/v1/orgs/${org}/webhooks/${hook.id}`).set(admin.auth).send({ active: true }).expect(200);
    expect(on.body).toMatchObject({ active: true, deactivatedReason: null, deactivatedAt: null });
    await t.http.delete(`/v1/spaces/${s.id}`).set(admin.auth).expect(205);
    await t.http.post(`/v1/spaces/${s.id}/restore`).set(admin.auth).expect(200);
    await runDue();
    expect(rx.got.filter((r) => r.headers['x-quire-event'] === 'space.restored')).toHaveLength(1);
  });

  it('redelivers an event under its id; pings; rotates the secret', async () => {
    const hook = (await create({ url, events: ['space.created'] }).expect(201)).body;
    await space('Again');
    await runDue();
    const [first] = (await list(hook.id)).items;
    const again = await t.http.post(`/v1/orgs/${org}/webhooks/${hook.id}/deliveries/${first.id}/redeliver`).set(admin.auth).expect(201);
    expect(again.body).toMatchObject({ status: 'pending', attempts: 0, redeliveryOf: first.id, event: first.event });
    await runDue();
    const twice = rx.got.filter((r) => r.headers['x-quire-event-id'] === first.event.id);
    expect(twice).toHaveLength(2);
    expect(twice[0].body).toBe(twice[1].body);

    const rotated = await t.http.patch(`/v1/orgs/${org}/webhooks/${hook.id}`).set(admin.auth).send({ rotateSecret: true }).expect(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const ping = await t.http.post(`/v1/orgs/${org}/webhooks/${hook.id}/ping`).set(admin.auth).expect(201);
    expect(ping.body.event.type).toBe('ping');
    await runDue();
    const pinged = rx.got.find((r) => r.headers['x-quire-event'] === 'ping')!;
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect(verify(rotated.body.secret, pinged.headers['x-quire-signature'] as string, pinged.body, now)).toBe(true);
    expect(verify(hook.secret, pinged.headers['x-quire-signature'] as string, pinged.body, now)).toBe(false);
    const one = await t.http.get(`/v1/orgs/${org}/webhooks/${hook.id}/deliveries/${ping.body.id}`).set(admin.auth).expect(200);
    expect(one.body).toMatchObject({ status: 'succeeded', attempts: 1 });
    expectError(await t.http.get(`/v1/orgs/${org}/webhooks/${hook.id}/deliveries/nope`).set(admin.auth), 404);
    expectError(
      await t.http.post(`/v1/orgs/${org}/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`).set(admin.auth),
      404,
    );

    await t.http.patch(`/v1/orgs/${org}/webhooks/${hook.id}`).set(admin.auth).send({ active: false }).expect(200);
    expectError(await t.http.post(`/v1/orgs/${org}/webhooks/${hook.id}/deliveries/${first.id}/redeliver`).set(admin.auth), 409, /inactive/);
    await t.http.delete(`/v1/orgs/${org}/webhooks/${hook.id}`).set(admin.auth).expect(205);
    await t.http.delete(`/v1/orgs/${org}/webhooks/${hook.id}`).set(admin.auth).expect(204);
    expectError(await t.http.get(`/v1/orgs/${org}/webhooks/${hook.id}/deliveries`).set(admin.auth), 404);
  });

  it('deliveries commit with the write: when they cannot be written, the write does not happen', async () => {
    await create({ url, events: ['space.created'] }).expect(201);
    const ds = t.app.get(DataSource);
    const before = (await t.http.get(`/v1/orgs/${org}/spaces`).set(admin.auth).expect(200)).body.count;
    await ds.query(`CREATE FUNCTION refuse_delivery() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`);
    await ds.query('CREATE TRIGGER refuse_delivery BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION refuse_delivery()');
    try {
      expect((await t.http.post(`/v1/orgs/${org}/spaces`).set(admin.auth).send({ title: 'Lost?' })).status).toBe(500);
    } finally {
      await ds.query('DROP TRIGGER refuse_delivery ON webhook_deliveries');
      await ds.query('DROP FUNCTION refuse_delivery()');
    }
    expect((await t.http.get(`/v1/orgs/${org}/spaces`).set(admin.auth).expect(200)).body.count).toBe(before);
  });

  it('refuses to connect to a private address a public-looking name resolves to (resolved once, pinned)', async () => {
    const hook = (await create({ url: 'https://hooks.example.test/in', events: ['space.created'] }).expect(201)).body;
    const lookup = jest.spyOn(t.app.get(HostResolver), 'lookup').mockResolvedValue(['10.0.0.7']);
    try {
      await space('Private');
      await runDue();
    } finally {
      lookup.mockRestore();
    }
    const d = (await list(hook.id)).items[0];
    expect(d).toMatchObject({ status: 'failed', attempts: 1, responseCode: null, error: expect.stringMatching(/private/) });
  });
});

describe('Webhooks: delivery survives a restart between attempts (the job is in PostgreSQL)', () => {
  it('first attempt by one process (500), the retry by the next one', async () => {
    const rx = receiver();
    const url = await rx.start();
    const db = await createTestDatabase();
    // Two processes with data dirs of their own share the key that seals webhook secrets, as a deployment must.
    const env = { QUIRE_JOBS: 'on', QUIRE_WEBHOOK_ALLOWLIST: '127.0.0.1', QUIRE_SECRET_KEY: SHARED_SECRET_KEY };
    const a = await createTestApp(env, { sharedDatabaseUrl: db.url });
    let b: TestApp | null = null;
    try {
      const admin = await a.user('admin');
      const org = await a.organization(admin);
      const hook = (
        await a.http
          .post(`/v1/orgs/${org}/webhooks`)
          .set(admin.auth)
          .send({ url, events: ['space.created'] })
          .expect(201)
      ).body;
      rx.answers.push(500);
      await a.http.post(`/v1/orgs/${org}/spaces`).set(admin.auth).send({ title: 'Durable' }).expect(201);
      const until = async (what: () => boolean | Promise<boolean>) => {
        for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100)))
          if (await what()) return;
        throw new Error('timed out');
      };
      await until(() => rx.got.length === 1); // sent by a job, right after the commit
      await a.close();

      b = await createTestApp(env, { sharedDatabaseUrl: db.url });
      b.clock.advance(30_000);
      expect(await b.app.get(WebhookDeliveries).sweep()).toBe(1);
      await until(() => rx.got.length === 2);
      const ds = b.app.get(DataSource);
      await until(
        async () => (await ds.query(`SELECT status FROM webhook_deliveries WHERE webhook_id = $1`, [hook.id]))[0].status === 'succeeded',
      );
      const [row] = await ds.query('SELECT attempts, response_code FROM webhook_deliveries WHERE webhook_id = $1', [hook.id]);
      expect(row).toEqual({ attempts: 2, response_code: 200 });
      expect(rx.got[0].body).toBe(rx.got[1].body);
    } finally {
      await b?.close();
      await rx.close();
      await db.drop();
    }
  }, 60_000);
});
