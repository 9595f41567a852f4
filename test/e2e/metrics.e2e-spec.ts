import { createTestApp, TestApp } from '../support/app';
import { loadConfig } from '../../apps/api/src/config';
import { expectError } from '../support/expect';

/** GET /metrics (Prometheus text format), off unless QUIRE_METRICS=on; an optional bearer guards it. */
describe('metrics', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  const value = (text: string, line: RegExp) => {
    const found = text.split('\n').find((l) => line.test(l));
    return found === undefined ? undefined : Number(found.split(' ').pop());
  };

  it('counts and times requests per route template and status; pool, jobs, search, caches, process', async () => {
    t = await createTestApp({ QUIRE_METRICS: 'on' });
    const admin = await t.user('admin');
    const org = await t.organization(admin);
    const space = (await t.http.post(`/v1/orgs/${org}/spaces`).set(admin.auth).send({ title: 'M' }).expect(201)).body.id;
    for (let i = 0; i < 3; i++) await t.http.get(`/v1/spaces/${space}`).set(admin.auth).expect(200);
    await t.http.get('/v1/spaces/nope').set(admin.auth).expect(404);
    await t.http.get('/v1/no/such/route').set(admin.auth).expect(404);
    await t.http.get(`/v1/spaces/${space}/content/pages`).set(admin.auth).expect(200);
    await t.http.get(`/v1/spaces/${space}/content/pages`).set(admin.auth).expect(200);
    // A published site's script, twice: the second is answered from memory, before any route.
    const site = (
      await t.http
        .post(`/v1/orgs/${org}/sites`)
        .set(admin.auth)
        .send({ title: 'Metrics site', spaces: [space] })
        .expect(201)
    ).body.id;
    await t.http.post(`/v1/orgs/${org}/sites/${site}/publish`).set(admin.auth).expect(200);
    for (let i = 0; i < 2; i++) await t.http.get(`/sites/${site}/~site.js`).expect(200);

    const res = await t.http.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(value(text, /^quire_http_requests_total\{method="GET",route="\/v1\/spaces\/:spaceId",status="200"\}/)).toBe(3);
    expect(value(text, /^quire_http_requests_total\{method="GET",route="\/v1\/spaces\/:spaceId",status="404"\}/)).toBe(1);
    expect(value(text, /^quire_http_requests_total\{method="POST",route="\/v1\/orgs\/:organizationId\/spaces",status="201"\}/)).toBe(1);
    // An unknown /v1 route is answered by the catch-all 404 route: its template, never the URL.
    expect(value(text, /^quire_http_requests_total\{method="GET",route="\/v1\*path",status="404"\}/)).toBe(1);
    expect(text).not.toContain('no/such/route');
    expect(text).not.toContain(space); // ids never become labels
    expect(value(text, /^quire_http_request_duration_seconds_count\{method="GET",route="\/v1\/spaces\/:spaceId",status="200"\}/)).toBe(3);
    expect(value(text, /^quire_front_door_answers_total /)).toBe(1);
    expect(value(text, /^quire_front_door_kept_bytes /)).toBeGreaterThan(0);
    expect(value(text, /^quire_db_pool_connections\{state="total"\}/)).toBeGreaterThan(0);
    expect(value(text, /^quire_db_pool_connections\{state="waiting"\}/)).toBe(0);
    expect(value(text, /^quire_search_ranking\{state="waiting"\}/)).toBe(0);
    expect(value(text, /^quire_cache_hits\{cache="rendered-content"\}/)).toBeGreaterThanOrEqual(1);
    expect(value(text, /^quire_cache_misses\{cache="rendered-content"\}/)).toBeGreaterThanOrEqual(1);
    expect(value(text, /^quire_process_resident_memory_bytes/)).toBeGreaterThan(0);
    expect(text).toMatch(/^quire_nodejs_eventloop_lag_seconds /m);
  });

  it('is off by default; with a token, only that bearer scrapes', async () => {
    t = await createTestApp();
    expectError(await t.http.get('/metrics'), 404);
    await t.close();
    t = await createTestApp({ QUIRE_METRICS: 'on', QUIRE_METRICS_TOKEN: 'scrape-secret-0123456789' });
    expectError(await t.http.get('/metrics'), 401);
    expectError(await t.http.get('/metrics').set('Authorization', 'Bearer wrong'), 401);
    const ok = await t.http.get('/metrics').set('Authorization', 'Bearer scrape-secret-0123456789').expect(200);
    expect(ok.text).toContain('quire_http_requests_total');
    expect(() => loadConfig({ QUIRE_METRICS: 'yes' })).toThrow(/QUIRE_METRICS/);
    expect(() => loadConfig({ QUIRE_METRICS: 'on', QUIRE_METRICS_TOKEN: 'short' })).toThrow(/QUIRE_METRICS_TOKEN/);
  });
});
