import { loadConfig } from '../../apps/api/src/config';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('authentication abuse', () => {
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_AUTH_FAILURES_PER_MINUTE: '5', QUIRE_CONTENT_BODY_LIMIT: '3mb' });
    alice = await t.user('alice');
  });
  afterAll(async () => t.close());

  it('failures are throttled, not the address: over the limit a valid token still passes, an invalid one gets 429', async () => {
    for (let i = 0; i < 5; i++)
      expectError(await t.http.get('/v1/user').set('Authorization', `Bearer qr_invalid${i}xxxxxxxxxxxxxxxxxxxx`), 401);
    const limited = await t.http.get('/v1/user').set('Authorization', 'Bearer qr_invalid_again_xxxxxxxxxxxxxxx');
    expectError(limited, 429, /failed authentications/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expectError(await t.http.get('/v1/user'), 429);
    // The address is over its limit; its valid token is not a failure and passes.
    await t.http.get('/v1/user').set(alice.auth).expect(200);
    // Public routes are not authentication: they still answer.
    await t.http.get('/health').expect(200);
    t.clock.advance(60_000);
    expectError(await t.http.get('/v1/user').set('Authorization', 'Bearer qr_invalid_later_xxxxxxxxxxxxxxx'), 401);
  });

  it('100 bad tokens from one address, then a good one → 200; another bad one → 429 with Retry-After', async () => {
    t.clock.advance(60_000);
    const answers: number[] = [];
    for (let i = 0; i < 100; i++)
      answers.push((await t.http.get('/v1/orgs').set('Authorization', `Bearer qr_bad_${i}_xxxxxxxxxxxxxxxxxxxxxxxx`)).status);
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(answers.slice(5))).toEqual(new Set([429]));
    const good = await t.http.get('/v1/orgs').set(alice.auth).expect(200);
    expect(good.body.items).toEqual(expect.any(Array));
    const bad = await t.http.get('/v1/orgs').set('Authorization', 'Bearer qr_bad_once_more_xxxxxxxxxxxxxxxxxxx');
    expectError(bad, 429, /failed authentications/);
    expect(Number(bad.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(bad.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('the content route parses its large body only for an authenticated caller', async () => {
    t.clock.advance(60_000);
    const route = '/v1/spaces/whatever/change-requests/whatever/content';
    // 2 MB of malformed JSON: anonymous callers get 401 (the body is never parsed, or it would be a 400).
    const junk = '{' + 'x'.repeat(2 * 1024 * 1024);
    expectError(await t.http.post(route).set('Content-Type', 'application/json').send(junk), 401);
    expectError(
      await t.http
        .post(route)
        .set('Content-Type', 'application/json')
        .set('Authorization', 'Bearer qr_nope_nope_nope_nope_nope')
        .send(junk),
      401,
    );
    // Authenticated: parsed (malformed → 400), within the route's own limit; above it → 413.
    expectError(await t.http.post(route).set('Content-Type', 'application/json').set(alice.auth).send(junk), 400);
    const pages = (n: number) =>
      JSON.stringify({
        changes: Array.from({ length: n }, (_, i) => ({
          operation: 'insert_page',
          title: `Big ${i}`,
          document: { markdown: 'a'.repeat(900_000) },
        })),
      });
    const within = pages(2);
    expectError(await t.http.post(route).set('Content-Type', 'application/json').set(alice.auth).send(within), 404);
    const above = pages(4);
    expectError(await t.http.post(route).set('Content-Type', 'application/json').set(alice.auth).send(above), 413);
    // Other routes keep the small limit.
    expectError(await t.http.post('/v1/orgs').set('Content-Type', 'application/json').set(alice.auth).send(within), 413);
  });

  it('QUIRE_CONTENT_BODY_LIMIT and QUIRE_AUTH_FAILURES_PER_MINUTE are validated at start', () => {
    expect(() => loadConfig({ QUIRE_CONTENT_BODY_LIMIT: 'lots' })).toThrow(/QUIRE_CONTENT_BODY_LIMIT/);
    expect(() => loadConfig({ QUIRE_AUTH_FAILURES_PER_MINUTE: '-1' })).toThrow(/QUIRE_AUTH_FAILURES_PER_MINUTE/);
    expect(loadConfig({ QUIRE_CONTENT_BODY_LIMIT: '16mb' }).contentBodyLimit).toBe('16mb');
  });
});
