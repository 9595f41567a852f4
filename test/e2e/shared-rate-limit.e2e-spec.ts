import { createTestApp, TestApp, TestUser, SHARED_SECRET_KEY } from '../support/app';
import { expectError } from '../support/expect';

/** QUIRE_RATE_LIMIT_PER_MINUTE holds across API processes (#33): two processes on one database, one token. */
describe('one rate limit across API processes', () => {
  const env = { QUIRE_RATE_LIMIT_PER_MINUTE: '600', QUIRE_SECRET_KEY: SHARED_SECRET_KEY };
  let a: TestApp;
  let b: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    a = await createTestApp(env);
    b = await createTestApp(env, { sharedDatabaseUrl: a.databaseUrl });
    user = await a.user('busy');
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('1,400 requests spread over two processes, concurrently: at most 600 pass, at most one lease (12) fewer; then 429 in both', async () => {
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let batch = 0; batch < 28; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => ((batch + i) % 2 ? a : b).http.get('/v1/user').set(user.auth)),
      );
      for (const r of answers) {
        statuses.push(r.status);
        if (r.status === 200) remaining.push(Number(r.headers['x-ratelimit-remaining']));
      }
    }
    const passed = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(passed).toBeLessThanOrEqual(600);
    expect(passed).toBeGreaterThanOrEqual(600 - 12);
    // X-RateLimit-Remaining stays honest: never more than what is left of the limit when the answer went out.
    expect(Math.min(...remaining)).toBeGreaterThanOrEqual(0);
    expect(remaining.every((n) => n < 600)).toBe(true);
    for (const t of [a, b]) {
      const refused = await t.http.get('/v1/user').set(user.auth);
      expectError(refused, 429, /Too many requests: at most 600 a minute/);
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another token has its own limit; the window's end opens it again in both processes.
    const other = await b.user('calm');
    await a.http.get('/v1/user').set(other.auth).expect(200);
    a.clock.advance(60_000);
    b.clock.advance(60_000);
    await b.http.get('/v1/user').set(user.auth).expect(200);
    await a.http.get('/v1/user').set(user.auth).expect(200);
  });
});
