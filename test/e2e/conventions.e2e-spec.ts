import { connect } from 'node:net';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('authentication and wire conventions', () => {
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await t.user('alice');
  });
  afterAll(async () => t.close());

  describe('Bearer tokens', () => {
    it('GET /v1/user returns the authenticated user', async () => {
      const res = await t.http.get('/v1/user').set(alice.auth).expect(200);
      expect(res.body).toEqual({
        object: 'user',
        id: alice.id,
        displayName: 'alice',
        email: alice.email,
        urls: { location: `http://quire.test/v1/users/${alice.id}` },
      });
    });

    it('GET /v1/users/{id}: yourself or a co-member; anyone else is 404', async () => {
      const bob = await t.user('bob-visible');
      const carol = await t.user('carol-hidden');
      await t.http.get(`/v1/users/${alice.id}`).set(alice.auth).expect(200);
      expectError(await t.http.get(`/v1/users/${bob.id}`).set(alice.auth), 404);
      const org = await t.organization(alice);
      await t.member(org, bob, 'read');
      const res = await t.http.get(`/v1/users/${bob.id}`).set(alice.auth).expect(200);
      expect(res.body).toMatchObject({ object: 'user', id: bob.id, email: bob.email });
      expectError(await t.http.get(`/v1/users/${carol.id}`).set(bob.auth), 404);
    });

    it('401 without a token, with a malformed header, or with an unknown token', async () => {
      expectError(await t.http.get('/v1/user'), 401, /Bearer/);
      expectError(await t.http.get('/v1/user').set('Authorization', `Basic ${alice.token}`), 401, /Bearer <token>/);
      expectError(await t.http.get('/v1/user').set('Authorization', 'Bearer qr_doesnotexist'), 401, /Invalid token/);
    });

    it('401 for a revoked token, at once', async () => {
      const { IdentityService } = await import('@app/organizations-and-teams');
      const identity = t.app.get(IdentityService);
      const { token, record } = await identity.issueToken(alice.id);
      await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`).expect(200);
      await identity.revokeToken(record.id);
      expectError(await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`), 401, /revoked/);
    });

    it('401 for an expired token', async () => {
      const { IdentityService } = await import('@app/organizations-and-teams');
      const identity = t.app.get(IdentityService);
      const { token } = await identity.issueToken(alice.id, { expiresAt: new Date(t.clock.now().getTime() + 60_000) });
      await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`).expect(200);
      t.clock.advance(60_000);
      expectError(await t.http.get('/v1/user').set('Authorization', `Bearer ${token}`), 401, /expired/);
    });

    it('health and docs are public', async () => {
      await t.http.get('/health').expect(200, { status: 'ok' });
      await t.http.get('/health/ready').expect(200, { status: 'ok', database: 'ok' });
      await t.http.get('/docs-json').expect(200);
    });
  });

  describe('error envelope', () => {
    it('unknown route → 404', async () => {
      expectError(await t.http.get('/v1/nothing-here').set(alice.auth), 404, /No route/);
      // Outside /v1 as well (no HTML page), whatever the method.
      expectError(await t.http.get('/nothing-here'), 404, /Cannot GET \/nothing-here/);
      expectError(await t.http.post('/wp-login.php').send({}), 404);
      expectError(await t.http.delete('/'), 404);
    });

    it('malformed JSON → 400', async () => {
      expectError(await t.http.post('/v1/orgs').set(alice.auth).set('Content-Type', 'application/json').send('{"title": '), 400);
    });

    it('JSON nested 10,000 levels deep → 400, not a crash', async () => {
      const deep = '{"title":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
      expectError(await t.http.post('/v1/orgs').set(alice.auth).set('Content-Type', 'application/json').send(deep), 400, /nested deeper/);
    });

    it('body over the limit → 413', async () => {
      const big = JSON.stringify({ title: 'x'.repeat(1_100_000) });
      expectError(await t.http.post('/v1/orgs').set(alice.auth).set('Content-Type', 'application/json').send(big), 413, /too large/);
    });

    it('validation → 400 naming the field; unknown fields are refused', async () => {
      expectError(await t.http.post('/v1/orgs').set(alice.auth).send({ title: 'x' }), 400, /title/);
      expectError(await t.http.post('/v1/orgs').set(alice.auth).send({ title: 'Acme', extra: 1 }), 400, /extra/);
      expectError(await t.http.post('/v1/orgs').set(alice.auth).send({ title: 42 }), 400, /title/);
    });

    it('bad percent-encoding in a path → 400', async () => {
      expectError(await t.http.get('/v1/spaces/%E0%A4%A').set(alice.auth), 400);
    });

    it('malformed HTTP → 400 in the envelope', async () => {
      const server = t.app.getHttpServer();
      if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const { port } = server.address() as { port: number };
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('THIS IS NOT HTTP\r\n\r\n'));
        let data = '';
        socket.on('data', (d) => (data += d.toString()));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ error: { code: 400, message: 'Malformed HTTP request' } });
    });

    it('oversized headers → 431 in the envelope', async () => {
      const server = t.app.getHttpServer();
      if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const { port } = server.address() as { port: number };
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
        );
        let data = '';
        socket.on('data', (d) => (data += d.toString()));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    });

    it('echoes a request id, or makes one', async () => {
      const given = await t.http.get('/health').set('X-Request-Id', 'req-123').expect(200);
      expect(given.headers['x-request-id']).toBe('req-123');
      const made = await t.http.get('/health').expect(200);
      expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('lists', () => {
    it('pages with an opaque cursor, limit 0..1000, no next on the last page', async () => {
      const bob = await t.user('bob');
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1000);
        await t.http
          .post('/v1/orgs')
          .set(bob.auth)
          .send({ title: `Org ${i}` })
          .expect(201);
      }
      const first = await t.http.get('/v1/orgs?limit=2').set(bob.auth).expect(200);
      expect(first.body.count).toBe(5);
      expect(first.body.items.map((o: { title: string }) => o.title)).toEqual(['Org 0', 'Org 1']);
      const second = await t.http.get(`/v1/orgs?limit=2&page=${first.body.next.page}`).set(bob.auth).expect(200);
      expect(second.body.items.map((o: { title: string }) => o.title)).toEqual(['Org 2', 'Org 3']);
      const third = await t.http.get(`/v1/orgs?limit=2&page=${second.body.next.page}`).set(bob.auth).expect(200);
      expect(third.body.items.map((o: { title: string }) => o.title)).toEqual(['Org 4']);
      expect(third.body).not.toHaveProperty('next');
      const zero = await t.http.get('/v1/orgs?limit=0').set(bob.auth).expect(200);
      expect(zero.body).toEqual({ items: [], count: 5 });
      await t.http.get('/v1/orgs?limit=1000').set(bob.auth).expect(200);
      expectError(await t.http.get('/v1/orgs?limit=1001').set(bob.auth), 400, /limit/);
      expectError(await t.http.get('/v1/orgs?limit=-1').set(bob.auth), 400, /limit/);
      expectError(await t.http.get('/v1/orgs?page=forged').set(bob.auth), 400, /cursor/);
    });

    it('a cursor does not skip or repeat items when rows are added meanwhile', async () => {
      const carol = await t.user('carol');
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1000);
        await t.http
          .post('/v1/orgs')
          .set(carol.auth)
          .send({ title: `C${i}` })
          .expect(201);
      }
      const first = await t.http.get('/v1/orgs?limit=2').set(carol.auth).expect(200);
      t.clock.advance(1000);
      await t.http.post('/v1/orgs').set(carol.auth).send({ title: 'C3' }).expect(201);
      const rest = await t.http.get(`/v1/orgs?limit=10&page=${first.body.next.page}`).set(carol.auth).expect(200);
      expect([...first.body.items, ...rest.body.items].map((o: { title: string }) => o.title)).toEqual(['C0', 'C1', 'C2', 'C3']);
    });
  });

  describe('updates', () => {
    it('PATCH answers 200 with the resource, or 204 with Prefer: return=minimal', async () => {
      const orgId = await t.organization(alice);
      const full = await t.http.patch(`/v1/orgs/${orgId}`).set(alice.auth).send({ ai: true }).expect(200);
      expect(full.body.ai).toBe(true);
      const minimal = await t.http
        .patch(`/v1/orgs/${orgId}`)
        .set(alice.auth)
        .set('Prefer', 'return=minimal')
        .send({ ai: false })
        .expect(204);
      expect(minimal.text).toBe('');
      const after = await t.http.get(`/v1/orgs/${orgId}`).set(alice.auth).expect(200);
      expect(after.body.ai).toBe(false);
    });
  });
});

describe('rate limiting', () => {
  let t: TestApp;
  afterAll(async () => t.close());

  it('429 in the envelope past the per-token limit, with Retry-After; other tokens are unaffected', async () => {
    t = await createTestApp({ QUIRE_RATE_LIMIT_PER_MINUTE: '3' });
    const u = await t.user('busy');
    const v = await t.user('calm');
    const reset = String(Math.ceil(t.clock.now().getTime() / 1000) + 60);
    for (let i = 0; i < 3; i++) {
      const ok = await t.http.get('/v1/user').set(u.auth).expect(200);
      expect(ok.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': String(2 - i), 'x-ratelimit-reset': reset });
      expect(ok.headers['retry-after']).toBeUndefined();
    }
    const res = await t.http.get('/v1/user').set(u.auth);
    expectError(res, 429, /Too many requests/);
    expect(res.headers).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': reset,
      'retry-after': '60',
    });
    // Errors and writes carry them too; public routes (no token) do not.
    const missing = await t.http.get('/v1/spaces/nope').set(v.auth).expect(404);
    expect(missing.headers['x-ratelimit-remaining']).toBe('2');
    expect((await t.http.get('/health').expect(200)).headers['x-ratelimit-limit']).toBeUndefined();
    await t.http.get('/v1/user').set(v.auth).expect(200);
    t.clock.advance(60_000);
    await t.http.get('/v1/user').set(u.auth).expect(200);
  });
});
