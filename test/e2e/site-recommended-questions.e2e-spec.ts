import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

/**
 * streamRecommendedQuestionsInSite (`GET /orgs/{id}/sites/{siteId}/ask/questions`): the questions the site's
 * visitors asked most and got an answer to, as server-sent events.
 */
describe('recommended questions of a site', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let siteId: string;
  let guide: { space: string; siteSpace: string };
  let extra: { space: string; siteSpace: string };

  let visitor = 0;
  /** A question asked by a visitor of their own (another user agent: another visitor of the day). */
  const asked = (query: string, answered: boolean | undefined, where: { space: string; siteSpace: string }, userAgent?: string) => ({
    type: 'ask_question',
    query,
    ...(answered === undefined ? {} : { answered }),
    session: {
      visitorId: 'v',
      sessionId: 's',
      userAgent: userAgent ?? `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + visitor++}.0) Gecko/20100101 Firefox/${100 + visitor}.0`,
      language: 'en',
      referrer: null,
      cookies: {},
    },
    location: {
      url: 'https://docs.example.com/',
      siteSection: null,
      siteSpace: where.siteSpace,
      siteShareKey: null,
      space: where.space,
      revision: 'r',
      page: 'p',
    },
  });
  const track = (events: unknown[]) => t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/insights/events`).send({ events }).expect(204);
  const questions = async (query = '', who: TestUser = reader) => {
    const res = await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/ask/questions${query}`).set(who.auth).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.text.endsWith('event: done\ndata: {}\n\n')).toBe(true);
    return res.text
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => (JSON.parse(e.slice('data: '.length)) as { question: string }).question);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    stranger = await t.user('stranger');
    orgId = await t.organization(admin);
    await t.organization(stranger, 'Elsewhere');
    await t.member(orgId, reader, 'read');
    const space = async (title: string) =>
      (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
    const [g, e] = [await space('Guide'), await space('Extra')];
    siteId = (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Docs', spaces: [g] })
        .expect(201)
    ).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`).set(admin.auth).send({ spaceId: e }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/publish`).set(admin.auth).expect(200);
    const listed = (await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`).set(admin.auth).expect(200)).body.items as {
      id: string;
      space: { id: string };
    }[];
    const of = (id: string) => ({ space: id, siteSpace: listed.find((s) => s.space.id === id)!.id });
    [guide, extra] = [of(g), of(e)];
  });
  afterAll(async () => t.close());

  it('streams none before anyone asked; then the answered questions most visitors asked (two at least, no bot), one per wording, at most five', async () => {
    expect(await questions()).toEqual([]);
    await track([
      ...Array.from({ length: 3 }, () => asked('How do I install it?', true, guide)),
      asked('  how do i install it? ', true, guide),
      ...Array.from({ length: 3 }, () => asked('Where are the logs?', true, extra)),
      // Not answered, or with no word of the answer: never suggested, however often.
      ...Array.from({ length: 6 }, () => asked('Is there a dark mode?', false, guide)),
      ...Array.from({ length: 6 }, () => asked('Who wrote this?', undefined, guide)),
      ...['a', 'b', 'c', 'd', 'e'].flatMap((x) => [asked(`Question ${x}?`, true, guide), asked(`Question ${x}?`, true, guide)]),
      // One visitor asking many times, or a single visitor at all, or a bot: not enough to suggest it to everyone.
      ...Array.from({ length: 20 }, () => asked('Buy cheap tokens at spam.example?', true, guide, 'Mozilla/5.0 (Spammer)')),
      asked('Asked once?', true, guide),
      ...Array.from({ length: 3 }, () => asked('Crawled?', true, guide, 'Googlebot/2.1 (+http://www.google.com/bot.html)')),
    ]);
    const all = await questions();
    expect(all.slice(0, 2)).toEqual(['How do I install it?', 'Where are the logs?']);
    expect(all).toHaveLength(5);
    // The same question in another case is the same one, shown in its most common wording.
    expect(all.filter((q) => q.toLowerCase() === 'how do i install it?')).toEqual(['How do I install it?']);
    expect(all).not.toContain('Is there a dark mode?');
    expect(all).not.toContain('Buy cheap tokens at spam.example?');
    expect(all).not.toContain('Asked once?');
    expect(all).not.toContain('Crawled?');
    expect(all).not.toContain('Who wrote this?');
  });

  it('narrows to a site space (or, deprecated, a space), as the official client asks', async () => {
    const { port } = t.app.getHttpServer().address() as { port: number };
    const api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: reader.token });
    const received: unknown[] = [];
    for await (const event of api.orgs.streamRecommendedQuestionsInSite(orgId, siteId, { siteSpaceId: extra.siteSpace }))
      received.push(event);
    for (const event of received) expect(officialValidator().check('SearchAIRecommendedQuestionStream', event)).toBe('');
    expect(received).toEqual([{ question: 'Where are the logs?' }]);
    expect(await questions(`?spaceId=${extra.space}`)).toEqual(['Where are the logs?']);
  });

  it('answers 400 for a site space of no such site or both filters, 404 to another organization, 401 without a token', async () => {
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/ask/questions?siteSpaceId=nope`).set(reader.auth), 400);
    expectError(
      await t.http
        .get(`/v1/orgs/${orgId}/sites/${siteId}/ask/questions?siteSpaceId=${guide.siteSpace}&spaceId=${guide.space}`)
        .set(reader.auth),
      400,
    );
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/ask/questions`).set(stranger.auth), 404);
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites/nosite/ask/questions`).set(reader.auth), 404);
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/ask/questions`), 401);
  });
});
