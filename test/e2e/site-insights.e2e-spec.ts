import { jest } from '@jest/globals';
import { Db } from '@app/persistence';
import { SiteInsightsService, TopicsEngine, TopicsIndexLost } from '@app/site-insights';
import { SitePageTexts } from '@app/sites-and-publishing';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { mergeChanges, spaceWithPages } from '../support/content';

/**
 * Site insights (#51): the official trackEventsInSiteById (public: the site's script sends it), aggregateSiteEvents
 * (role read on the site) and submitAgentFeedbackToSite; what is kept of a visitor (a salted daily hash, no
 * address, user agent or cookie), DNT and Sec-GPC, the retention job, the per-address limit, refused input.
 */
describe('site insights', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let otherOrg: string;
  let spaceId: string;
  let siteId: string;
  const UA_FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
  const UA_IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

  const publishSite = async (org: string, who: TestUser, title: string, publish = true) => {
    const base = `/v1/orgs/${org}/sites`;
    const id = (await t.http.post(base).set(who.auth).send({ title }).expect(201)).body.id as string;
    if (publish) await t.http.post(`${base}/${id}/publish`).set(who.auth).expect(200);
    return id;
  };
  const event = (type: string, extra: Record<string, unknown> = {}, session: Record<string, unknown> = {}) => ({
    type,
    session: { visitorId: 'v-client', sessionId: 's1', userAgent: UA_FIREFOX, language: 'en-GB', referrer: null, cookies: {}, ...session },
    location: {
      url: 'https://docs.example.com/sites/x/guide?utm_source=newsletter&shareKey=secret',
      siteSection: null,
      siteSpace: 'sitesp_1',
      siteShareKey: null,
      space: spaceId,
      revision: 'rev1',
      page: 'page-guide',
    },
    ...extra,
  });
  const track = (events: unknown[], site = siteId, org = orgId) =>
    t.http.post(`/v1/orgs/${org}/sites/${site}/insights/events`).send({ events });
  const aggregate = (body: Record<string, unknown>, who: TestUser = admin, site = siteId) =>
    t.http.post(`/v1/orgs/${orgId}/sites/${site}/insights/events/aggregate`).set(who.auth).send(body);
  const counts = async (body: Record<string, unknown> = {}) => {
    const res = await aggregate({ range: 'last24Hours', groupBy: [{ column: 'eventType' }], ...body }).expect(200);
    const [types, n] = res.body.columns as { values: unknown[] }[];
    return Object.fromEntries(types.values.map((type, i) => [type, n.values[i]]));
  };
  const rows = async () => {
    await t.app.get(SiteInsightsService).flush();
    return t.app.get(Db).query('SELECT * FROM site_insights_events WHERE site_id = $1 ORDER BY seq', [siteId]);
  };

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_INSIGHTS_EVENTS_PER_MINUTE: '300' });
    admin = await t.user('admin');
    reader = await t.user('reader');
    stranger = await t.user('stranger');
    orgId = await t.organization(admin);
    otherOrg = await t.organization(stranger);
    await t.member(orgId, reader, 'read');
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body.id;
    siteId = await publishSite(orgId, admin, 'Docs');
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    // Each test starts in a minute and a day of its own: the per-address window and the day's salt are fresh.
    t.clock.advance(86_400_000);
    await t.app.get(SiteInsightsService).flush();
    await t.app.get(Db).query('DELETE FROM site_insights_events');
  });

  it('counts exactly the events sent, by type, visitor and session; keeps no address, user agent, cookie or client visitor id', async () => {
    await track([
      event('page_view', {}, { referrer: 'https://docs.example.com/sites/x/start?shareKey=secret&jwt_token=secret#top' }),
      event('search_type_query', { query: 'install', resultsCount: 3 }),
      event('search_type_query', { query: 'kubernetes', resultsCount: 0 }),
      event('page_view', {}, { sessionId: 's2' }),
      event('page_view', {}, { userAgent: UA_IPHONE, sessionId: 'x' }),
    ]).expect(204);
    expect(await counts()).toEqual({ page_view: 3, search_type_query: 2 });
    const totals = await aggregate({
      range: 'last24Hours',
      select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
    }).expect(200);
    expect(totals.body.columns).toEqual([
      { column: 'eventsCount', values: [5] },
      { column: 'visitorsCount', values: [2] },
      { column: 'sessionsCount', values: [3] },
    ]);
    const kept = await rows();
    const stored = JSON.stringify(kept);
    for (const secret of ['127.0.0.1', '::ffff', 'Firefox/128', 'iPhone', 'v-client', 'shareKey', 'secret'])
      expect([secret, stored.includes(secret)]).toEqual([secret, false]);
    expect(kept[0]).toMatchObject({ url: 'https://docs.example.com/sites/x/guide', url_path: '/sites/x/guide', utm_source: 'newsletter' });
    // The referrer without its query (a share key, a visitor token).
    expect(
      kept
        .filter((r: { referrer: string | null }) => r.referrer)
        .map((r: { referrer: string; referrer_domain: string }) => [r.referrer, r.referrer_domain]),
    ).toEqual([['https://docs.example.com/sites/x/start', 'docs.example.com']]);
    expect(kept.map((r: { browser: string; device: string; os: string }) => [r.browser, r.device, r.os])).toContainEqual([
      'safari',
      'mobile',
      'ios',
    ]);
  });

  it('answers the official columns: searches with no result, their queries, pages, feedback ratings, filters, order and limit', async () => {
    await track([
      event('search_type_query', { query: 'kubernetes', resultsCount: 0 }),
      event('search_type_query', { query: 'kubernetes', resultsCount: 0 }, { sessionId: 's9' }),
      event('search_type_query', { query: 'helm', resultsCount: 0 }),
      event('search_type_query', { query: 'install', resultsCount: 4 }),
      event('page_post_feedback', { feedback: { rating: 'good' } }),
      event('page_post_feedback', { feedback: { rating: 'bad' } }),
      event('page_post_feedback_comment', { feedback: { rating: 'bad', comment: 'Out of date.' } }),
      event('page_view', {}, {}),
      { ...event('page_view'), location: { ...event('page_view').location, page: null } },
    ]).expect(204);
    const none = await aggregate({
      range: 'last7Days',
      where: [{ column: 'eventSearchResultsCount', values: [0] }],
      groupBy: [{ column: 'eventSearchQuery' }],
      select: [{ column: 'eventSearchQuery' }, { column: 'eventsCount' }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
    }).expect(200);
    expect(none.body.columns).toEqual([
      { column: 'eventSearchQuery', values: ['kubernetes', 'helm'] },
      { column: 'eventsCount', values: [2, 1] },
    ]);
    const limited = await aggregate({ range: 'last7Days', groupBy: [{ column: 'eventType' }], limit: 1 }).expect(200);
    expect(limited.body.columns[0].values).toHaveLength(1);
    const having = await aggregate({
      range: 'last7Days',
      groupBy: [{ column: 'eventType' }],
      where: [{ column: 'eventsCount', operator: 'greaterThanOrEqual', values: [3] }],
    }).expect(200);
    expect(having.body.columns[0].values).toEqual(['search_type_query']);
    const rating = await aggregate({ range: 'last7Days', select: [{ column: 'pageFeedbackRating' }] }).expect(200);
    expect(rating.body.columns).toEqual([{ column: 'pageFeedbackRating', values: [{ ok: 0, good: 1, bad: 1 }] }]);
    const comments = await aggregate({
      range: 'last7Days',
      where: [{ column: 'eventType', values: ['page_post_feedback_comment'] }],
      groupBy: [{ column: 'eventPageFeedbackComment' }, { column: 'eventPageFeedbackRating' }],
    }).expect(200);
    expect(comments.body.columns.slice(0, 2)).toEqual([
      { column: 'eventPageFeedbackComment', values: ['Out of date.'] },
      { column: 'eventPageFeedbackRating', values: ['bad'] },
    ]);
    // A page view with no page is a 404: `page` null matches it.
    const broken = await aggregate({
      range: 'last7Days',
      where: [
        { column: 'eventType', values: ['page_view'] },
        { column: 'page', values: [null] },
      ],
      select: [{ column: 'eventsCount' }],
    }).expect(200);
    expect(broken.body.columns[0].values).toEqual([1]);
    const pages = await aggregate({
      range: 'last7Days',
      where: [{ column: 'eventType', values: ['page_view'] }],
      groupBy: [{ column: 'page' }],
    }).expect(200);
    expect(pages.body.columns[0].values).toEqual([null, { page: 'page-guide', space: spaceId }]);
    const notIn = await counts({ where: [{ column: 'eventType', operator: 'notIn', values: ['search_type_query', 'page_view'] }] });
    expect(notIn).toEqual({ page_post_feedback: 2, page_post_feedback_comment: 1 });
  });

  it('counts within the range: last7Days reaches back exactly seven days, not a moment more; buckets by day in UTC', async () => {
    await track([event('page_view')]).expect(204);
    const first = t.clock.now();
    t.clock.advance(7 * 86_400_000);
    await track([event('page_view'), event('page_view')]).expect(204);
    expect(await counts({ range: 'last7Days' })).toEqual({ page_view: 3 });
    t.clock.advance(1);
    expect(await counts({ range: 'last7Days' })).toEqual({ page_view: 2 });
    expect(await counts({ range: 'last30Days' })).toEqual({ page_view: 3 });
    expect(await counts({ range: 'last24Hours' })).toEqual({ page_view: 2 });
    const days = await aggregate({
      range: { from: new Date(first.getTime() - 86_400_000).toISOString(), to: t.clock.now().toISOString() },
      groupBy: [{ column: 'datetime', interval: 'day' }],
    }).expect(200);
    const dayOf = (d: Date) => `${d.toISOString().slice(0, 10)}T00:00:00.000Z`;
    expect(days.body.columns).toEqual([
      { column: 'datetime', values: [dayOf(first), dayOf(t.clock.now())] },
      { column: 'eventsCount', values: [1, 2] },
    ]);
  });

  it('counts a visitor by a hash that changes with the day; the purge deletes past days’ salts and events past the retention', async () => {
    await track([event('page_view')]).expect(204);
    t.clock.advance(86_400_000);
    await track([event('page_view')]).expect(204);
    const kept = await rows();
    expect(kept).toHaveLength(2);
    expect(kept[0].visitor).not.toBe(kept[1].visitor);
    const insights = t.app.get(SiteInsightsService);
    const purged = await insights.purge();
    expect(purged.events).toBe(0);
    expect(purged.salts).toBeGreaterThanOrEqual(1);
    const salts = await t.app.get(Db).query('SELECT day::text AS day FROM site_insights_salts');
    expect(salts).toEqual([{ day: t.clock.now().toISOString().slice(0, 10) }]);
    t.clock.advance(395 * 86_400_000);
    expect((await insights.purge()).events).toBe(1);
    t.clock.advance(86_400_000);
    expect((await insights.purge()).events).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it('keeps nothing for a visitor who asks not to be tracked (DNT, Sec-GPC), yet checks what is sent', async () => {
    await t.http
      .post(`/v1/orgs/${orgId}/sites/${siteId}/insights/events`)
      .set('DNT', '1')
      .send({ events: [event('page_view')] })
      .expect(204);
    await t.http
      .post(`/v1/orgs/${orgId}/sites/${siteId}/insights/events`)
      .set('Sec-GPC', '1')
      .send({ events: [event('page_view')] })
      .expect(204);
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/sites/${siteId}/insights/events`)
        .set('DNT', '1')
        .send({ events: [{ type: 'page_view' }] }),
      400,
      /events\[0\]/,
    );
    expect(await counts()).toEqual({});
  });

  it('refuses what the official schema does not allow, keeping none of a batch with one bad event', async () => {
    const bad: [unknown, RegExp][] = [
      [{}, /events/],
      [{ events: 'x' }, /events/],
      [{ events: [null] }, /events/],
      [{ events: [{ ...event('page_view'), type: 'page_vue' }] }, /events\[0\]/],
      [{ events: [event('page_view'), event('search_type_query')] }, /events\[1\].*query/],
      [{ events: [event('search_type_query', { query: 'x', resultsCount: -1 })] }, /resultsCount/],
      [{ events: [event('search_type_query', { query: 'x', resultsCount: '0x10' })] }, /resultsCount/],
      [{ events: [event('ask_question', { query: 'x', answered: 'yes' })] }, /answered/],
      [{ events: [event('page_post_feedback', { feedback: { rating: 'great' } })] }, /events\[0\]/],
      [{ events: [event('page_post_feedback_comment', { feedback: { rating: 'ok', comment: 'x'.repeat(513) } })] }, /events\[0\]/],
      [{ events: [{ ...event('page_view'), location: { ...event('page_view').location, url: 'not a url' } }] }, /events\[0\]/],
      [{ events: [{ ...event('page_view'), session: { ...event('page_view').session, userAgent: null } }] }, /events\[0\]/],
      [{ events: [event('page_view', { timestamp: new Date(t.clock.now().getTime() - 6 * 60_000).toISOString() })] }, /5 minutes/],
      [{ events: Array.from({ length: 101 }, () => event('page_view')) }, /100/],
      [{ events: [event('search_type_query', { query: 'x'.repeat(9000) })] }, /8192 characters/],
      // What the formats let through and cannot be read: a leap second, a port out of range, a huge count.
      [{ events: [event('page_view', { timestamp: '2026-06-30T23:59:60Z' })] }, /timestamp/],
      [{ events: [{ ...event('page_view'), location: { ...event('page_view').location, url: 'http://x:99999/' } }] }, /location.url/],
      [{ events: [event('search_type_query', { query: 'x', resultsCount: 3e9 })] }, /resultsCount/],
    ];
    for (const [body, message] of bad)
      expectError(await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/insights/events`).send(body as object), 400, message);
    await track([event('page_view', { timestamp: new Date(t.clock.now().getTime() - 4 * 60_000).toISOString() })]).expect(204);
    expect(await counts()).toEqual({ page_view: 1 });
  });

  it('takes events only for a published site of the organization named; 404 otherwise, saying nothing of another organization', async () => {
    const draft = await publishSite(orgId, admin, 'Draft', false);
    const foreign = await publishSite(otherOrg, stranger, 'Theirs');
    expectError(await track([event('page_view')], draft), 404, /Site/);
    expectError(await track([event('page_view')], foreign), 404, /Site/);
    expectError(await track([event('page_view')], siteId, otherOrg), 404, /Site/);
    expectError(await track([event('page_view')], 'nosuchsite'), 404, /Site/);
    expect(await counts()).toEqual({});
  });

  it('answers a cross-origin script: the preflight and the POST allow any origin, without credentials', async () => {
    const pre = await t.http
      .options(`/v1/orgs/${orgId}/sites/${siteId}/insights/events`)
      .set('Origin', 'https://docs.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type')
      .expect(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-headers']).toMatch(/content-type/i);
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    const post = await track([event('page_view')])
      .set('Origin', 'https://docs.example.com')
      .expect(204);
    expect(post.headers['access-control-allow-origin']).toBe('*');
  });

  it('limits the events one address sends in a minute (429 with Retry-After), and takes them again the next minute', async () => {
    const hundred = Array.from({ length: 100 }, () => event('page_view'));
    for (let i = 0; i < 3; i++) await track(hundred).expect(204);
    const refused = await track([event('page_view')]);
    expectError(refused, 429, /Too many insights events/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(61_000);
    await track([event('page_view')]).expect(204);
    expect(await counts({ range: 'last24Hours' })).toEqual({ page_view: 301 });
  });

  it('lets members with the site’s read role count; a stranger gets 404, a token-less caller 401', async () => {
    await track([event('page_view')]).expect(204);
    expect((await aggregate({ range: 'last24Hours' }, reader).expect(200)).body.columns).toEqual([{ column: 'eventsCount', values: [1] }]);
    expectError(await aggregate({ range: 'last24Hours' }, stranger), 404, /./);
    const foreign = await publishSite(otherOrg, stranger, 'Theirs too');
    expectError(await aggregate({ range: 'last24Hours' }, admin, foreign), 404, /./);
    expect((await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/insights/events/aggregate`).send({ range: 'last7Days' })).status).toBe(
      401,
    );
  });

  it('refuses a query it cannot answer: 400 with the reason', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{}, /range/],
      [{ range: 'lastDecade' }, /range/],
      [{ range: { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' } }, /before/],
      [{ range: 'last7Days', select: [{ column: 'eventType' }] }, /neither in groupBy/],
      [{ range: 'last7Days', groupBy: [{ column: 'eventsCount' }] }, /counts the groups/],
      [{ range: 'last7Days', groupBy: [{ column: 'eventType' }, { column: 'eventType' }] }, /twice/],
      [{ range: 'last7Days', groupBy: [{ column: 'colour' }] }, /groupBy/],
      [{ range: 'last7Days', where: [{ column: 'eventType', operator: 'greaterThan', values: ['page_view'] }] }, /no order/],
      [{ range: 'last7Days', where: [{ column: 'hourOfDay', operator: 'lessThan', values: [1, 2] }] }, /exactly one value/],
      [{ range: 'last7Days', where: [{ column: 'pageFeedbackRating', values: [] }] }, /./],
      [{ range: 'last7Days', order: { by: { column: 'visitorsCount' }, direction: 'asc' } }, /selected/],
      [{ range: 'last7Days', limit: 0 }, /limit/],
      [{ range: 'last7Days', limit: 1001 }, /limit/],
      [{ range: 'last7Days', limit: '0x10' }, /limit/],
      [
        {
          range: 'last7Days',
          groupBy: [{ column: 'eventType' }],
          where: [{ column: 'eventsCount', operator: 'greaterThan', values: [1.5] }],
        },
        /whole numbers/,
      ],
      [{ range: 'last7Days', where: [{ column: 'eventSearchResultsCount', values: [3e9] }] }, /whole numbers/],
      [
        { range: 'last7Days', where: [{ column: 'datetime', operator: 'greaterThan', values: ['0000-01-01T00:00:00Z'] }] },
        /year 1 to 9999/,
      ],
      [{ range: { from: '0000-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } }, /year 1 to 9999/],
    ];
    for (const [body, message] of bad) expectError(await aggregate(body), 400, message);
  });

  it('takes an agent’s feedback (submitAgentFeedbackToSite) from a member, counted as agent_feedback', async () => {
    const res = await t.http
      .post(`/v1/orgs/${orgId}/sites/${siteId}/agents/feedback`)
      .set(reader.auth)
      .send({
        reportedBy: { model: 'some-model', userAgent: 'claude-code/1.2.3' },
        subject: { kind: 'documentation', url: 'https://docs.example.com/guide' },
        feedback: { category: 'documentation', severity: 'medium', summary: 'The install steps skip the database.' },
      })
      .expect(201);
    expect(res.body).toEqual({ id: expect.any(String), result: expect.stringMatching(/recorded/) });
    const kept = await t.app
      .get(Db)
      .query('SELECT site_id, source, subject, feedback FROM site_agent_feedback WHERE id = $1', [res.body.id]);
    expect(kept).toEqual([
      {
        site_id: siteId,
        source: 'api',
        subject: { kind: 'documentation', url: 'https://docs.example.com/guide' },
        feedback: { category: 'documentation', severity: 'medium', summary: 'The install steps skip the database.' },
      },
    ]);
    const agents = await aggregate({
      range: 'last24Hours',
      groupBy: [{ column: 'eventType' }, { column: 'urlPath' }, { column: 'visitorBot' }],
    }).expect(200);
    expect(agents.body.columns.slice(0, 3)).toEqual([
      { column: 'eventType', values: ['agent_feedback'] },
      { column: 'urlPath', values: ['/guide'] },
      { column: 'visitorBot', values: ['claude-code'] },
    ]);
    const feedback = (summary: string) => ({ subject: { kind: 'generic' }, feedback: { category: 'usability', summary } });
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/sites/${siteId}/agents/feedback`)
        .set(reader.auth)
        .send(feedback('x'.repeat(257))),
      400,
      /summary/,
    );
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/sites/${siteId}/agents/feedback`)
        .set(reader.auth)
        .send({ ...feedback('x'), extra: 1 }),
      400,
      /extra/,
    );
    expectError(await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/agents/feedback`).set(stranger.auth).send(feedback('x')), 404, /./);
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/sites/${siteId}/agents/feedback`)
        .set(reader.auth)
        .send({ subject: { kind: 'documentation', url: 'http://x:99999/' }, feedback: { category: 'usability', summary: 'x' } }),
      400,
      /url/,
    );
    // Kept as long as the events are.
    t.clock.advance(396 * 86_400_000);
    expect((await t.app.get(SiteInsightsService).purge()).feedback).toBeGreaterThanOrEqual(1);
    expect(await t.app.get(Db).query('SELECT 1 FROM site_agent_feedback WHERE id = $1', [res.body.id])).toEqual([]);
  });

  it('tells the site’s script where to send events and what each page shows; the 404 names no page; a preview sends nothing', async () => {
    const docs = await spaceWithPages(t, admin, orgId, [{ title: 'Install', markdown: 'Run the installer.' }]);
    const site = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body.id as string;
    const siteSpace = (await t.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId: docs }).expect(201))
      .body.id as string;
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(admin.auth).expect(200);
    const insightsOf = (html: string) => {
      const m = /<meta name="quire-insights" content="([^"]+)"/.exec(html);
      return m ? JSON.parse(m[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&')) : null;
    };
    const page = await t.http.get(`/sites/${site}/install`).expect(200);
    const pageId = (await t.http.get(`/v1/spaces/${docs}/content/path/install`).set(admin.auth).expect(200)).body.id;
    const revision = (await t.http.get(`/v1/spaces/${docs}`).set(admin.auth).expect(200)).body.revision;
    const endpoint = expect.stringMatching(new RegExp(`^http://[^/]+/v1/orgs/${orgId}/sites/${site}/insights/events$`));
    expect(insightsOf(page.text)).toEqual({
      endpoint,
      kind: 'page',
      location: { siteSection: null, siteSpace, space: docs, revision, page: pageId },
    });
    // The script may reach the API's origin, where the events go.
    expect(page.headers['content-security-policy']).toMatch(/connect-src 'self' http:\/\/[^;]+;/);
    const missing = await t.http.get(`/sites/${site}/no-such-page`).expect(404);
    expect(insightsOf(missing.text)).toEqual({
      endpoint,
      kind: 'not-found',
      location: { siteSection: null, siteSpace, space: docs, revision: null, page: null },
    });
    const search = await t.http.get(`/sites/${site}/~search?q=installer`).expect(200);
    expect(insightsOf(search.text)).toMatchObject({ kind: 'search', search: { query: 'installer', results: 1 } });
    expect(search.text).toContain('data-question="installer"');
    // A member's preview of the site is not a visit.
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/unpublish`).set(admin.auth).expect(200);
    const preview = (await t.http.get(`/v1/orgs/${orgId}/sites/${site}`).set(admin.auth).expect(200)).body.urls.preview as string;
    const started = await t.http.get(new URL(preview).pathname).expect(302);
    const cookie = started.headers['set-cookie'];
    const previewed = await t.http.get(`/sites/${site}/install`).set('Cookie', cookie).expect(200);
    expect(previewed.text).toContain('Run the installer.');
    expect(insightsOf(previewed.text)).toBeNull();
  });

  it('groups what visitors did not find into topics, with the pages they opened next; a topic opens a change request', async () => {
    const after = (query: string, session: string, page: string | null, kind = 'search_type_query') => [
      kind === 'ask_question'
        ? event('ask_question', { query }, { sessionId: session })
        : event(kind, { query, resultsCount: 0 }, { sessionId: session }),
      ...(page ? [{ ...event('page_view', {}, { sessionId: session }), location: { ...event('page_view').location, page } }] : []),
    ];
    await track([
      ...after('docker logging driver', 'a', 'page-docker'),
      ...after('Docker logging driver ', 'b', 'page-docker'),
      ...after('--log-driver=fluentd', 'c', null),
      ...after('How do I send my Docker containers logs to fluentd?', 'd', 'page-docker', 'ask_question'),
      ...after('windows service', 'e', 'page-windows'),
      ...after('install on windows', 'f', null),
      // Found something: not a topic.
      event('search_type_query', { query: 'install', resultsCount: 2 }),
    ]).expect(204);
    const res = await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/insights/topics`).set(reader.auth).expect(200);
    const topics = res.body.items as {
      id: string;
      label: string;
      count: number;
      queries: { text: string; kind: string; count: number }[];
      pages: { page: string; count: number }[];
    }[];
    expect(res.body.count).toBe(topics.length);
    const all = topics.flatMap((x) => x.queries.map((q) => q.text)).sort();
    expect(all).toEqual([
      '--log-driver=fluentd',
      'docker logging driver',
      'how do i send my docker containers logs to fluentd?',
      'install on windows',
      'windows service',
    ]);
    const docker = topics.find((x) => x.queries.some((q) => q.text === 'docker logging driver'))!;
    expect(docker.queries.find((q) => q.text === 'docker logging driver')).toEqual({
      text: 'docker logging driver',
      kind: 'search',
      count: 2,
    });
    expect(docker.label).toBe('docker logging driver');
    expect(docker.pages[0]).toMatchObject({ page: 'page-docker', space: spaceId });
    expect(docker.pages[0].count).toBeGreaterThanOrEqual(2);
    // Largest first; counts add up.
    expect(topics.map((x) => x.count)).toEqual([...topics.map((x) => x.count)].sort((a, b) => b - a));
    expect(topics.reduce((n, x) => n + x.count, 0)).toBe(6);
    // The same topics again (the clustering kept), and none in another range with nothing in it.
    expect((await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/insights/topics`).set(reader.auth).expect(200)).body.items).toEqual(
      res.body.items,
    );
    t.clock.advance(2 * 86_400_000);
    expect(
      (await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/insights/topics?range=last24Hours`).set(reader.auth).expect(200)).body.items,
    ).toEqual([]);
    const topics7 = (await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/insights/topics?range=last7Days`).set(admin.auth).expect(200))
      .body;
    expect(topics7.items).toEqual(res.body.items);
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/insights/topics?range=forever`).set(admin.auth), 400, /range/);
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/insights/topics`).set(stranger.auth), 404, /./);
    // A change request from the topic, on the site's space: the label as its subject, the queries as its description.
    const open = (who: TestUser, id: string, body: object) =>
      t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/insights/topics/${id}/change-requests`).set(who.auth).send(body);
    expectError(await open(reader, docker.id, { spaceId, range: 'last7Days' }), 403, /./);
    expectError(await open(admin, 'nosuchtopic', { spaceId, range: 'last7Days' }), 404, /Topic/);
    expectError(await open(admin, docker.id, { range: 'last7Days' }), 400, /spaceId/);
    const theirSpace = (await t.http.post(`/v1/orgs/${otherOrg}/spaces`).set(stranger.auth).send({ title: 'Theirs' }).expect(201)).body.id;
    expectError(await open(admin, docker.id, { spaceId: theirSpace, range: 'last7Days' }), 404, /./);
    const cr = await open(admin, docker.id, { spaceId, range: 'last7Days' });
    expect([cr.status, cr.body.error?.message]).toEqual([201, undefined]);
    expect(cr.body).toMatchObject({ object: 'change-request', subject: 'Visitors look for: docker logging driver' });
    expect(cr.headers.location).toBe(cr.body.urls.location);
    const description = await t.http.get(`/v1/spaces/${spaceId}/change-requests/${cr.body.number}/description`).set(admin.auth).expect(200);
    expect(description.body.markdown).toContain('Searched “docker logging driver” (2×)');
    expect(description.body.markdown).toContain('Pages they opened next');
  });

  it('groups queries that share no word by the site’s pages they lead to, and follows the pages as they change', async () => {
    const docs = await spaceWithPages(t, admin, orgId, [
      {
        title: 'Kubernetes',
        markdown: 'Deploy the collector as a DaemonSet on every node. The Helm chart installs the DaemonSet for you.',
      },
      { title: 'Windows', markdown: 'Run the MSI installer, or install from PowerShell: the MSI registers the Windows service.' },
      { title: 'Configuration', markdown: 'The configuration file lists sources and outputs.' },
      { title: 'Upgrading', markdown: 'Read the release notes before upgrading.' },
    ]);
    const site = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Collector' }).expect(201)).body.id as string;
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId: docs }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(admin.auth).expect(200);
    // Four searches with no result, no two sharing a word: the pages they lead to make two topics of them.
    await track(
      ['helm chart', 'daemonset yaml', 'msi', 'powershell'].map((query) => event('search_type_query', { query, resultsCount: 0 })),
      site,
    ).expect(204);
    const grouped = async () =>
      (
        (await t.http.get(`/v1/orgs/${orgId}/sites/${site}/insights/topics`).set(reader.auth).expect(200)).body.items as {
          queries: { text: string }[];
        }[]
      )
        .map((x) => x.queries.map((q) => q.text).sort())
        .sort((a, b) => a[0].localeCompare(b[0]));
    expect(await grouped()).toEqual([
      ['daemonset yaml', 'helm chart'],
      ['msi', 'powershell'],
    ]);
    // The pages change (the Helm chart and the MSI move to a page of their own): the topics follow them.
    const pages = (await t.http.get(`/v1/spaces/${docs}/content`).set(admin.auth).expect(200)).body.pages as {
      id: string;
      title: string;
    }[];
    const kubernetes = pages.find((p) => p.title === 'Kubernetes')!.id;
    const windows = pages.find((p) => p.title === 'Windows')!.id;
    await mergeChanges(t, admin, docs, [
      { operation: 'update_page', page: kubernetes, document: { markdown: 'Deploy the collector as a DaemonSet on every node.' } },
      { operation: 'update_page', page: windows, document: { markdown: 'Install from PowerShell as a Windows service.' } },
      { operation: 'insert_page', title: 'Packages', document: { markdown: 'The Helm chart and the MSI are built for each release.' } },
    ]);
    const after = await grouped();
    const topicOf = (text: string) => after.find((queries) => queries.includes(text));
    expect(topicOf('helm chart')).not.toContain('daemonset yaml');
    expect(topicOf('msi')).not.toContain('powershell');
  });

  it('reads and indexes a site’s pages once for reads at the same time, and again once the site’s pages change', async () => {
    const docs = await spaceWithPages(t, admin, orgId, [
      { title: 'Proxies', markdown: 'Route requests through a proxy agent with its own dispatcher.' },
      { title: 'Timeouts', markdown: 'The headers timeout and the body timeout end a request that waits too long.' },
    ]);
    const site = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Client' }).expect(201)).body.id as string;
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId: docs }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(admin.auth).expect(200);
    await track(
      ['corporate proxy', 'dispatcher agent', 'headers timeout', 'request hangs'].map((query) =>
        event('search_type_query', { query, resultsCount: 0 }),
      ),
      site,
    ).expect(204);
    const reads = jest.spyOn(t.app.get(SitePageTexts), 'pages');
    try {
      const topics = () => t.http.get(`/v1/orgs/${orgId}/sites/${site}/insights/topics`).set(reader.auth).expect(200);
      const [a, b, c] = await Promise.all([topics(), topics(), topics()]);
      expect(reads).toHaveBeenCalledTimes(1);
      expect(b.body.items).toEqual(a.body.items);
      expect(c.body.items).toEqual(a.body.items);
      expect(a.body.items.flatMap((x: { queries: { text: string }[] }) => x.queries.map((q) => q.text)).sort()).toEqual([
        'corporate proxy',
        'dispatcher agent',
        'headers timeout',
        'request hangs',
      ]);
      await topics();
      expect(reads).toHaveBeenCalledTimes(1); // the same version of the pages: the index kept
      // The engine loses the index (a worker that ended): a read with a new query indexes the site again, once.
      await t.app.get(TopicsEngine).drop(site);
      await track([event('search_type_query', { query: 'proxy tunnel', resultsCount: 0 })], site).expect(204);
      const again = (await topics()).body.items as { queries: { text: string }[] }[];
      expect(reads).toHaveBeenCalledTimes(2);
      expect(again.flatMap((x) => x.queries.map((q) => q.text))).toContain('proxy tunnel');
      // The worker ends during a search: the read builds the site's index again and answers.
      const lost = jest.spyOn(t.app.get(TopicsEngine), 'contexts').mockRejectedValueOnce(new TopicsIndexLost(site));
      try {
        await track([event('search_type_query', { query: 'tunnel timeout', resultsCount: 0 })], site).expect(204);
        const rebuilt = (await topics()).body.items as { queries: { text: string }[] }[];
        expect(rebuilt.flatMap((x) => x.queries.map((q) => q.text))).toContain('tunnel timeout');
        expect(lost).toHaveBeenCalledTimes(2);
        expect(reads).toHaveBeenCalledTimes(3);
      } finally {
        lost.mockRestore();
      }
      // It ends again while the read builds it: the read answers 503 (try again), and the next read is whole.
      const twice = jest
        .spyOn(t.app.get(TopicsEngine), 'contexts')
        .mockRejectedValueOnce(new TopicsIndexLost(site))
        .mockRejectedValueOnce(new TopicsIndexLost(site));
      try {
        await track([event('search_type_query', { query: 'tunnel reset', resultsCount: 0 })], site).expect(204);
        const unavailable = await t.http.get(`/v1/orgs/${orgId}/sites/${site}/insights/topics`).set(reader.auth).expect(503);
        expect(unavailable.body).toEqual({
          error: { code: 503, message: expect.stringMatching(/^Topics cannot be computed now .*try again/) },
        });
        expect(reads).toHaveBeenCalledTimes(4); // built again once, then given up
        const whole = (await topics()).body.items as { queries: { text: string }[] }[];
        expect(whole.flatMap((x) => x.queries.map((q) => q.text))).toContain('tunnel reset');
        expect(reads).toHaveBeenCalledTimes(5);
      } finally {
        twice.mockRestore();
      }
      const pages = (await t.http.get(`/v1/spaces/${docs}/content`).set(admin.auth).expect(200)).body.pages as {
        id: string;
        title: string;
      }[];
      // The pages change: the engine forgets the site's earlier index as the new one's build begins (never both).
      const engine = t.app.get(TopicsEngine);
      const drops = jest.spyOn(engine, 'drop');
      const builds = jest.spyOn(engine, 'index');
      await mergeChanges(t, admin, docs, [
        {
          operation: 'update_page',
          page: pages.find((p) => p.title === 'Timeouts')!.id,
          document: { markdown: 'A request that hangs ends.' },
        },
      ]);
      await Promise.all([topics(), topics()]);
      expect(reads).toHaveBeenCalledTimes(6);
      expect(drops).toHaveBeenCalledWith(site);
      expect(builds).toHaveBeenCalledTimes(1);
      expect(drops.mock.invocationCallOrder[0]).toBeLessThan(builds.mock.invocationCallOrder[0]);
      drops.mockRestore();
      builds.mockRestore();
    } finally {
      reads.mockRestore();
    }
  });

  it('drops the waiting events of a site deleted before they were written, and writes the others', async () => {
    const doomed = await publishSite(orgId, admin, 'Doomed');
    const insights = t.app.get(SiteInsightsService);
    await track([event('page_view')], doomed).expect(204);
    await track([event('page_view')]).expect(204);
    expect((await t.http.delete(`/v1/orgs/${orgId}/sites/${doomed}`).set(admin.auth)).status).toBeLessThan(300);
    await insights.flush();
    expect(await counts()).toEqual({ page_view: 1 });
  });
});
