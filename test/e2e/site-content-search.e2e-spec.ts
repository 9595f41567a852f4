import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { spaceWithPages } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

/** searchSiteContent (`POST /orgs/{id}/sites/{siteId}/search`): the spaces a site shows, in the scope asked. */
describe('site content search', () => {
  let t: TestApp;
  let admin: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let orgId: string;
  let otherOrg: string;
  /** Four spaces, each with a page that says "orbit" and its own word. */
  const spaces: Record<string, string> = {};
  let siteId: string;
  let siteSpaceOf: Record<string, string>;

  const search = (body: unknown, who: TestUser = admin, site = siteId, query = '') =>
    t.http
      .post(`/v1/orgs/${orgId}/sites/${site}/search${query}`)
      .set(who.auth)
      .send(body as object);
  /** The titles of the spaces a search answers, best first. */
  const found = async (body: object, who: TestUser = admin) => {
    const res = await search({ query: 'orbit', ...body }, who);
    expect([res.status, res.body.error?.message]).toEqual([200, undefined]);
    return (res.body.items as { title: string }[]).map((s) => s.title).sort();
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    reader = await t.user('reader');
    stranger = await t.user('stranger');
    orgId = await t.organization(admin);
    otherOrg = await t.organization(stranger);
    await t.member(orgId, reader, 'read');
    for (const name of ['Guide', 'Extra', 'Reference', 'Elsewhere'])
      spaces[name] = await spaceWithPages(
        t,
        admin,
        orgId,
        [{ title: `${name} page`, markdown: `The orbit of the ${name.toLowerCase()}.` }],
        {
          title: name,
        },
      );
    // A site without sections: Guide (its default site space) and Extra. Elsewhere is on no site.
    siteId = (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Docs', spaces: [spaces.Guide] })
        .expect(201)
    ).body.id as string;
    await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`).set(admin.auth).send({ spaceId: spaces.Extra }).expect(201);
    const listed = (await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`).set(admin.auth).expect(200)).body.items as {
      id: string;
      space: { id: string };
      default: boolean;
    }[];
    siteSpaceOf = Object.fromEntries(listed.map((s) => [Object.keys(spaces).find((k) => spaces[k] === s.space.id)!, s.id]));
    expect(listed.find((s) => s.default)?.space.id).toBe(spaces.Guide);
  });
  afterAll(async () => t.close());

  it('searches the default scope, a specific one or all of the site; never a space the site does not show', async () => {
    expect(await found({})).toEqual(['Guide']);
    expect(await found({ scope: { mode: 'default' } })).toEqual(['Guide']);
    expect(await found({ scope: { mode: 'all' } })).toEqual(['Extra', 'Guide']);
    expect(await found({ scope: { mode: 'specific', siteSpaceIds: [siteSpaceOf.Extra] } })).toEqual(['Extra']);
    expect(await found({ scope: { mode: 'default', currentSiteSpace: siteSpaceOf.Extra } })).toEqual(['Extra', 'Guide']);
    expect(await found({ scope: { mode: 'default', currentSiteSpace: siteSpaceOf.Extra, restrictTo: 'currentSiteSpace' } })).toEqual([
      'Extra',
    ]);
    expect(await found({ scope: { mode: 'default', currentSiteSpace: siteSpaceOf.Extra, restrictTo: 'otherSiteSpaces' } })).toEqual([
      'Guide',
    ]);
    // The deprecated forms the scope replaced.
    expect(await found({ siteSpaceIds: [siteSpaceOf.Extra] })).toEqual(['Extra']);
    expect(await found({ mode: 'specific', siteSpaceIds: [siteSpaceOf.Guide] })).toEqual(['Guide']);
    expect(await found({ mode: 'current', siteSpaceId: siteSpaceOf.Extra })).toEqual(['Extra', 'Guide']);
    expect(await found({ mode: 'all' })).toEqual(['Extra', 'Guide']);
    // The page and its section, as the organization's search gives them.
    const res = await search({ query: 'orbit', scope: { mode: 'specific', siteSpaceIds: [siteSpaceOf.Extra] } }).expect(200);
    expect(res.body.items[0]).toMatchObject({ type: 'space', id: spaces.Extra, title: 'Extra', pages: [{ title: 'Extra page', rank: 1 }] });
    expect(res.body.items[0].pages[0].sections[0].body).toContain('<mark>');
  });

  it('with sections, the default scope is each section’s default site space', async () => {
    const site = (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Sections', spaces: [spaces.Guide] })
        .expect(201)
    ).body.id as string;
    // The first section adopts the site space at the root (Guide, its default) with Extra; the second holds Reference.
    for (const [spaceId, title] of [
      [spaces.Extra, 'Start'],
      [spaces.Reference, 'Reference'],
    ])
      await t.http.post(`/v1/orgs/${orgId}/sites/${site}/sections`).set(admin.auth).send({ spaceId, title }).expect(201);
    const titles = async (body: object) =>
      ((await search({ query: 'orbit', ...body }, admin, site).expect(200)).body.items as { title: string }[]).map((s) => s.title).sort();
    const sections = (await t.http.get(`/v1/orgs/${orgId}/sites/${site}/sections`).set(admin.auth).expect(200)).body.items as {
      siteSpaces: { default: boolean; space: { title: string } }[];
    }[];
    const defaults = sections.map((s) => s.siteSpaces.find((x) => x.default)!.space.title).sort();
    expect(defaults.length).toBe(sections.length);
    expect(defaults).toEqual(['Guide', 'Reference']);
    expect(await titles({})).toEqual(defaults);
    expect(await titles({ scope: { mode: 'all' } })).toEqual(['Extra', 'Guide', 'Reference']);
  });

  it('pages through the results with the list envelope', async () => {
    const first = await search({ query: 'orbit', scope: { mode: 'all' } }, admin, siteId, '?limit=1').expect(200);
    expect(first.body.items).toHaveLength(1);
    expect(first.body.count).toBe(2);
    const next = first.body.next.page as string;
    const second = await search(
      { query: 'orbit', scope: { mode: 'all' } },
      admin,
      siteId,
      `?limit=1&page=${encodeURIComponent(next)}`,
    ).expect(200);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expectError(await search({ query: 'orbit' }, admin, siteId, '?page=forged'), 400, /page/);
  });

  it('refuses a query or scope it cannot take: 400 with the reason', async () => {
    expectError(await search({}), 400, /query/);
    expectError(await search({ query: '' }), 400, /query/);
    expectError(await search({ query: null }), 400, /query/);
    expectError(await search({ query: 'x'.repeat(513) }), 400, /query/);
    await search({ query: 'x'.repeat(512) }).expect(200);
    expectError(await search({ query: 'orbit', scope: { mode: 'specific' } }), 400, /siteSpaceIds/);
    expectError(await search({ query: 'orbit', scope: { mode: 'specific', siteSpaceIds: [] } }), 400, /siteSpaceIds/);
    expectError(await search({ query: 'orbit', scope: { mode: 'everything' } }), 400, /mode/);
    expectError(await search({ query: 'orbit', scope: { mode: 'specific', siteSpaceIds: ['nosuch'] } }), 400, /nosuch/);
    expectError(await search({ query: 'orbit', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } }), 400, /currentSiteSpace/);
    expectError(await search({ query: 'orbit', scope: { mode: 'all' }, mode: 'all' }), 400, /scope/);
    expectError(await search({ query: 'orbit', mode: 'current' }), 400, /siteSpaceId/);
    expectError(await search({ query: 'orbit', scope: 'all' }), 400, /scope/);
    expectError(await search({ query: 'orbit', scope: { mode: 'all', restrictTo: 'currentSiteSpace' } }), 400, /restrictTo/);
    expectError(await search({ query: 'orbit', mode: 'all', siteSpaceIds: [siteSpaceOf.Extra] }), 400, /siteSpaceIds/);
    expectError(await search({ query: 'orbit', mode: 'all', siteSpaceId: siteSpaceOf.Extra }), 400, /siteSpaceId/);
  });

  it('answers members with the site’s read role, among the spaces they may read; a stranger, another organization’s site or no token get nothing', async () => {
    expect(await found({ scope: { mode: 'all' } }, reader)).toEqual(['Extra', 'Guide']);
    // A restricted space on the site: its admin finds it, a reader without a grant gets no hit, title or count of it.
    const closed = (await t.http.post(`/v1/orgs/${orgId}/collections`).set(admin.auth).send({ title: 'Closed' }).expect(201)).body
      .id as string;
    await t.http.patch(`/v1/collections/${closed}`).set(admin.auth).send({ defaultLevel: null }).expect(200);
    const secret = await spaceWithPages(t, admin, orgId, [{ title: 'Secret page', markdown: 'The orbit of the secret.' }], {
      title: 'Secret',
      parent: closed,
    });
    const site = (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Mixed', spaces: [spaces.Guide] })
        .expect(201)
    ).body.id as string;
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId: secret }).expect(201);
    const inMixed = async (who: TestUser) =>
      (await search({ query: 'orbit', scope: { mode: 'all' } }, who, site).expect(200)).body as {
        items: { title: string }[];
        count: number;
      };
    expect((await inMixed(admin)).items.map((x) => x.title).sort()).toEqual(['Guide', 'Secret']);
    const readers = await inMixed(reader);
    expect([readers.items.map((x) => x.title), readers.count]).toEqual([['Guide'], 1]);
    expectError(await search({ query: 'orbit' }, stranger), 404, /./);
    const theirs = (await t.http.post(`/v1/orgs/${otherOrg}/sites`).set(stranger.auth).send({ title: 'Theirs' }).expect(201)).body
      .id as string;
    expectError(await search({ query: 'orbit' }, admin, theirs), 404, /./);
    expectError(await t.http.post(`/v1/orgs/${orgId}/sites/${siteId}/search`).send({ query: 'orbit' }), 401, /./);
  });

  it('drives it with the official client; the answer matches the official schema', async () => {
    const { port } = t.app.getHttpServer().address() as { port: number };
    const api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
    const res = await api.orgs.searchSiteContent(orgId, siteId, { query: 'orbit', scope: { mode: 'all' } });
    expect(res.status).toBe(200);
    const schemas = officialValidator();
    for (const item of res.data.items) expect(schemas.check('SearchSpaceResult', item)).toBe('');
    expect(res.data.items.map((s) => s.type === 'space' && s.title).sort()).toEqual(['Extra', 'Guide']);
  });
});
