import { IdentityService, SessionsService } from '@app/organizations-and-teams';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

/**
 * Signing in to the web app (#50): passwords (argon2id), one-time links, server-side sessions in a cookie that
 * works only with its CSRF token and from Quire's own pages, listed and revoked; failed sign-ins throttled per
 * address and account without locking the account's owner out; Bearer tokens as before.
 */
describe('signing in to the web app', () => {
  let t: TestApp;
  let alice: TestUser;
  const PASSWORD = 'correct horse battery';

  beforeAll(async () => {
    t = await createTestApp();
    alice = await t.user('alice');
    await t.http.put('/v1/user/password').set(alice.auth).send({ newPassword: PASSWORD }).expect(204);
  });
  afterAll(async () => t.close());

  /** Signs in from an address; answers the cookie (name=value), the CSRF token and the body. */
  const signIn = async (email: string, password: string, from = '203.0.113.1') => {
    const res = await t.http
      .post('/v1/auth/sign-in')
      .set('X-Forwarded-For', from)
      .set('User-Agent', 'Test browser/1.0')
      .send({ email, password });
    return res;
  };
  const opened = async (from?: string) => {
    const res = await signIn(alice.email, PASSWORD, from);
    expect(res.status).toBe(200);
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    return { cookie, csrf: res.body.csrfToken as string, body: res.body, setCookie: String(res.headers['set-cookie']) };
  };

  it('a password opens a session: an HttpOnly, SameSite=Strict cookie for /v1, the user, the session and its CSRF token', async () => {
    const { body, setCookie, cookie, csrf } = await opened();
    expect(setCookie).toMatch(/^quire_session=[A-Za-z0-9_-]{43}; Max-Age=7776000; Path=\/v1; HttpOnly; SameSite=Strict$/);
    expect(body).toMatchObject({
      object: 'signed-in',
      user: alice.id,
      email: alice.email,
      displayName: 'alice',
      session: { object: 'session', method: 'password', userAgent: 'Test browser/1.0', current: true },
    });
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The cookie with its token: the API answers as alice.
    expect((await t.http.get('/v1/user').set('Cookie', cookie).set('X-CSRF-Token', csrf).expect(200)).body.id).toBe(alice.id);
    // After a reload the app asks for the token with the cookie alone.
    const current = (await t.http.get('/v1/auth/session').set('Cookie', cookie).expect(200)).body;
    expect(current).toMatchObject({ user: alice.id, csrfToken: csrf, session: { id: body.session.id, current: true } });
    // The password is never stored as given.
    const stored = await t.app.get(SessionsService)['passwords'].get(alice.id);
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(stored).not.toContain(PASSWORD);
  });

  it('the cookie alone is not enough: no token or a wrong one is 403, another site’s Origin is 403; Bearer tokens work as before', async () => {
    const { cookie, csrf } = await opened();
    expectError(await t.http.get('/v1/user').set('Cookie', cookie), 403, /X-CSRF-Token/);
    expectError(
      await t.http
        .get('/v1/user')
        .set('Cookie', cookie)
        .set(
          'X-CSRF-Token',
          csrf.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        ),
      403,
    );
    expectError(await t.http.get('/v1/user').set('Cookie', cookie).set('X-CSRF-Token', 'x'), 403);
    expectError(
      await t.http
        .post('/v1/orgs')
        .set('Cookie', cookie)
        .set('X-CSRF-Token', csrf)
        .set('Origin', 'https://evil.example')
        .send({ title: 'Evil' }),
      403,
      /own pages/,
    );
    // From Quire's own origin (PUBLIC_URL), a write works.
    const org = await t.http
      .post('/v1/orgs')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf)
      .set('Origin', new URL(t.config.publicUrl!).origin)
      .send({ title: 'From the app' });
    expect(org.status).toBe(201);
    // A forged or unknown session cookie is 401; Bearer still works beside a cookie.
    expectError(
      await t.http
        .get('/v1/user')
        .set('Cookie', `quire_session=${'A'.repeat(43)}`)
        .set('X-CSRF-Token', csrf),
      401,
      /session has ended/,
    );
    expect((await t.http.get('/v1/user').set(alice.auth).set('Cookie', 'quire_session=garbage').expect(200)).body.id).toBe(alice.id);
  });

  it('wrong email or password: one message for both, 401; hostile input 400, never 500', async () => {
    expectError(await signIn(alice.email, 'wrong password!', '203.0.113.50'), 401, /^Wrong email or password$/);
    expectError(await signIn('nobody@example.com', PASSWORD, '203.0.113.50'), 401, /^Wrong email or password$/);
    for (const body of [
      {},
      { email: null, password: PASSWORD },
      { email: alice.email, password: null },
      { email: alice.email, password: 0x10 },
      { email: ['a'], password: PASSWORD },
      { email: alice.email, password: 'x'.repeat(257) },
      { email: alice.email, password: PASSWORD, extra: 1 },
    ])
      expectError(await t.http.post('/v1/auth/sign-in').send(body), 400);
    // A NUL byte is refused as input, not a crash.
    expectError(await signIn(alice.email, 'correct\u0000horse', '203.0.113.50'), 400);
  });

  it('failed sign-ins are throttled per address and account: 429 with Retry-After there, while the owner signs in from elsewhere', async () => {
    const bob = await t.user('bob');
    await t.http.put('/v1/user/password').set(bob.auth).send({ newPassword: 'bobs own password' }).expect(204);
    for (let i = 0; i < 5; i++) expectError(await signIn(bob.email, `guess ${i} wrong`, '198.51.100.7'), 401);
    const limited = await signIn(bob.email, 'bobs own password', '198.51.100.7');
    expectError(limited, 429, /Too many failed sign-ins/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Bob, from his own address, is not locked out; alice from the attacker's address neither (another account).
    expect((await signIn(bob.email, 'bobs own password', '192.0.2.10')).status).toBe(200);
    expect((await signIn(alice.email, PASSWORD, '198.51.100.7')).status).toBe(200);
    // The window passes: the address may try again.
    t.clock.advance(15 * 60_000);
    expect((await signIn(bob.email, 'bobs own password', '198.51.100.7')).status).toBe(200);
  });

  it('sessions are listed and revoked by their user; sign out ends this one; "sign out everywhere" ends all, at once', async () => {
    const carol = await t.user('carol');
    await t.http.put('/v1/user/password').set(carol.auth).send({ newPassword: 'carols password 1' }).expect(204);
    const open = async () => {
      const res = await signIn(carol.email, 'carols password 1', '192.0.2.30');
      return {
        cookie: String(res.headers['set-cookie']).split(';')[0],
        csrf: res.body.csrfToken as string,
        id: res.body.session.id as string,
      };
    };
    const [a, b, c] = [await open(), await open(), await open()];
    const as = (s: { cookie: string; csrf: string }) => ({ Cookie: s.cookie, 'X-CSRF-Token': s.csrf });
    const listed = (await t.http.get('/v1/auth/sessions').set(as(a)).expect(200)).body;
    expect(listed.count).toBe(3);
    expect(listed.items.find((s: { id: string }) => s.id === a.id).current).toBe(true);
    expect(listed.items.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    // Another user cannot see or end them.
    expect((await t.http.get('/v1/auth/sessions').set(alice.auth).expect(200)).body.items.some((s: { id: string }) => s.id === b.id)).toBe(
      false,
    );
    expectError(await t.http.delete(`/v1/auth/sessions/${b.id}`).set(alice.auth), 404);
    // Revoke one: its cookie stops working at once.
    await t.http.delete(`/v1/auth/sessions/${b.id}`).set(as(a)).expect(204);
    expectError(await t.http.get('/v1/user').set(as(b)), 401);
    expectError(await t.http.delete(`/v1/auth/sessions/${b.id}`).set(as(a)), 404);
    // Sign out: this session ends, its cookie is cleared.
    const out = await t.http.post('/v1/auth/sign-out').set(as(c)).expect(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^quire_session=; Max-Age=0; Path=\/v1; HttpOnly; SameSite=Strict$/);
    // Asked again with the ended session's cookie: not signed in (204), and the cookie is cleared.
    const ended = await t.http.get('/v1/auth/session').set('Cookie', c.cookie).expect(204);
    expect(String(ended.headers['set-cookie'])).toMatch(/^quire_session=; Max-Age=0/);
    expect((await t.http.get('/v1/auth/session').expect(204)).headers['set-cookie']).toBeUndefined();
    // Everywhere: a token of carol's ends every session of hers.
    const d = await open();
    await t.http.delete('/v1/auth/sessions').set(carol.auth).expect(204);
    for (const s of [a, d]) expectError(await t.http.get('/v1/user').set(as(s)), 401);
    expect((await t.http.get('/v1/auth/sessions').set(carol.auth).expect(200)).body.count).toBe(0);
  });

  it('a session ends after 14 days unused, and lives on while it is used', async () => {
    const s = await opened('192.0.2.40');
    const as = { Cookie: s.cookie, 'X-CSRF-Token': s.csrf };
    t.clock.advance(13 * 86_400_000);
    await t.http.get('/v1/user').set(as).expect(200); // renewed
    t.clock.advance(13 * 86_400_000);
    await t.http.get('/v1/user').set(as).expect(200);
    t.clock.advance(15 * 86_400_000);
    expectError(await t.http.get('/v1/user').set(as), 401);
  });

  it('a one-time link signs in once, within 24 hours; used, expired or made up it is 401', async () => {
    const sessions = t.app.get(SessionsService);
    const dave = await t.user('dave');
    const { token } = await sessions.issueLink(dave.id);
    const first = await t.http.post('/v1/auth/sign-in/link').send({ token }).expect(200);
    expect(first.body).toMatchObject({ user: dave.id, session: { method: 'link' } });
    expectError(await t.http.post('/v1/auth/sign-in/link').send({ token }), 401, /used, it expired/);
    const late = await sessions.issueLink(dave.id);
    t.clock.advance(24 * 3600_000 + 1);
    expectError(await t.http.post('/v1/auth/sign-in/link').send({ token: late.token }), 401);
    expectError(await t.http.post('/v1/auth/sign-in/link').send({ token: 'A'.repeat(43) }), 401);
    expectError(await t.http.post('/v1/auth/sign-in/link').send({ token: null }), 400);
    expectError(await t.http.post('/v1/auth/sign-in/link').send({ token: 'short' }), 400);
  });

  it('a password: 10 characters or more, not the email; changing one needs the current one', async () => {
    const erin = await t.user('erin');
    expectError(await t.http.put('/v1/user/password').set(erin.auth).send({ newPassword: 'short' }), 400, /at least 10/);
    expectError(await t.http.put('/v1/user/password').set(erin.auth).send({ newPassword: 'aaaaaaaaaaaa' }), 400, /different characters/);
    expectError(await t.http.put('/v1/user/password').set(erin.auth).send({ newPassword: erin.email }), 400, /email/);
    expectError(await t.http.put('/v1/user/password').set(erin.auth).send({ newPassword: null }), 400);
    await t.http.put('/v1/user/password').set(erin.auth).send({ newPassword: 'erins first password' }).expect(204);
    expectError(
      await t.http.put('/v1/user/password').set(erin.auth).send({ newPassword: 'erins second password' }),
      400,
      /currentPassword/,
    );
    expectError(
      await t.http.put('/v1/user/password').set(erin.auth).send({ currentPassword: 'not it at all', newPassword: 'erins second password' }),
      403,
    );
    await t.http
      .put('/v1/user/password')
      .set(erin.auth)
      .send({ currentPassword: 'erins first password', newPassword: 'erins second password' })
      .expect(204);
    expectError(await signIn(erin.email, 'erins first password', '192.0.2.60'), 401);
    expect((await signIn(erin.email, 'erins second password', '192.0.2.60')).status).toBe(200);
    expectError(await t.http.put('/v1/user/password').send({ newPassword: 'no caller here' }), 401);
  });

  it('personal API tokens from the app: made (shown once), listed without the token, revoked; another’s is 404; bad input 400', async () => {
    const { cookie, csrf } = await opened('192.0.2.70');
    const as = { Cookie: cookie, 'X-CSRF-Token': csrf };
    const made = (await t.http.post('/v1/user/tokens').set(as).send({ label: 'laptop', expiresInDays: 30 }).expect(201)).body;
    expect(made).toMatchObject({ object: 'api-token', label: 'laptop', revokedAt: null, organization: null });
    expect(made.token).toMatch(/^qr_/);
    expect(made.prefix).toBe(made.token.slice(0, 11));
    expect(Date.parse(made.expiresAt) - Date.parse(made.createdAt)).toBe(30 * 86_400_000);
    expect(
      (
        await t.http
          .get('/v1/user')
          .set({ Authorization: `Bearer ${made.token}` })
          .expect(200)
      ).body.id,
    ).toBe(alice.id);
    const listed = (await t.http.get('/v1/user/tokens').set(as).expect(200)).body;
    expect(listed.items.find((x: { id: string }) => x.id === made.id)).toMatchObject({ label: 'laptop', prefix: made.prefix });
    expect(JSON.stringify(listed)).not.toContain(made.token);
    // Someone else's token: as if it did not exist.
    const other = await t.user('tokens-other');
    expectError(await t.http.delete(`/v1/user/tokens/${made.id}`).set(other.auth), 404);
    expect((await t.http.get('/v1/user/tokens').set(other.auth).expect(200)).body.items.some((x: { id: string }) => x.id === made.id)).toBe(
      false,
    );
    await t.http.delete(`/v1/user/tokens/${made.id}`).set(as).expect(204);
    expectError(await t.http.get('/v1/user').set({ Authorization: `Bearer ${made.token}` }), 401, /revoked/);
    for (const body of [
      {},
      { label: null },
      { label: '' },
      { label: 'x', expiresInDays: 0 },
      { label: 'x', expiresInDays: '0x10' },
      { label: 'x', expiresInDays: 5000 },
    ])
      expectError(await t.http.post('/v1/user/tokens').set(as).send(body), 400);
    expectError(await t.http.post('/v1/user/tokens').send({ label: 'anonymous' }), 401);
  });

  it('attempts made at once cannot all pass the limit; an IPv6 network counts as one address', async () => {
    const gina = await t.user('gina');
    await t.http.put('/v1/user/password').set(gina.auth).send({ newPassword: 'ginas own password' }).expect(204);
    const at = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(gina.email, `wrong ${i} guess`, '198.51.100.99')));
    expect(at.filter((r) => r.status === 401).length).toBeLessThanOrEqual(5);
    expect(at.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(7);
    // Other addresses of one IPv6 /64 share its count; the owner elsewhere signs in.
    for (let i = 1; i <= 5; i++) expectError(await signIn(gina.email, 'wrong again!', `2001:db8:1:2::${i}`), 401);
    expectError(await signIn(gina.email, 'ginas own password', '2001:db8:1:2::ff'), 429);
    expect((await signIn(gina.email, 'ginas own password', '2001:db8:9:9::1')).status).toBe(200);
    // A right password does not count against the address: ten in a row pass.
    for (let i = 0; i < 10; i++) expect((await signIn(gina.email, 'ginas own password', '192.0.2.99')).status).toBe(200);
  });

  it('a sign-in comes from Quire’s pages: JSON only, Quire’s Origin (login CSRF)', async () => {
    const form = await t.http.post('/v1/auth/sign-in').type('form').send({ email: alice.email, password: PASSWORD });
    expectError(form, 400, /JSON/);
    expectError(
      await t.http.post('/v1/auth/sign-in').set('Origin', 'https://evil.example').send({ email: alice.email, password: PASSWORD }),
      403,
      /own pages/,
    );
    expectError(
      await t.http
        .post('/v1/auth/sign-in/link')
        .set('Origin', 'https://evil.example')
        .send({ token: 'A'.repeat(43) }),
      403,
    );
    await t.http
      .post('/v1/auth/sign-in')
      .set('Origin', new URL(t.config.publicUrl!).origin)
      .set('X-Forwarded-For', '192.0.2.120')
      .send({ email: alice.email, password: PASSWORD })
      .expect(200);
  });

  it('a token limited to one organization by SSO may not mint a token or set a password (403); a new password ends the other sessions', async () => {
    const henry = await t.user('henry');
    const org = await t.organization(henry);
    const { token } = await t.app.get(IdentityService).issueToken(henry.id, { via: { sso: org } });
    const scoped = { Authorization: `Bearer ${token}` };
    expectError(await t.http.post('/v1/user/tokens').set(scoped).send({ label: 'escape' }), 403, /limited to organization/);
    expectError(
      await t.http.put('/v1/user/password').set(scoped).send({ newPassword: 'henrys new password' }),
      403,
      /limited to organization/,
    );
    // With his own token: set, then two sessions; changing the password from one ends the other, not itself.
    await t.http.put('/v1/user/password').set(henry.auth).send({ newPassword: 'henrys first password' }).expect(204);
    const open = async () => {
      const res = await signIn(henry.email, 'henrys first password', '192.0.2.130');
      return { Cookie: String(res.headers['set-cookie']).split(';')[0], 'X-CSRF-Token': res.body.csrfToken as string };
    };
    const [a, b] = [await open(), await open()];
    await t.http
      .put('/v1/user/password')
      .set(a)
      .send({ currentPassword: 'henrys first password', newPassword: 'henrys second password' })
      .expect(204);
    await t.http.get('/v1/user').set(a).expect(200);
    expectError(await t.http.get('/v1/user').set(b), 401);
  });
});
