import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('sites: sites, sections, section groups, site spaces and the structure invariants', () => {
  let t: TestApp;
  let admin: TestUser;
  let creator: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrgId: string;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://quire.example.com' });
    admin = await t.user('admin');
    creator = await t.user('creator');
    editor = await t.user('editor');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, creator, 'create');
    await t.member(orgId, editor, 'edit');
    await t.member(orgId, reader, 'read');
    otherOrgId = await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => t.close());

  const space = async (title: string, org = orgId, who = admin) =>
    (await t.http.post(`/v1/orgs/${org}/spaces`).set(who.auth).send({ title }).expect(201)).body.id as string;
  const site = async (body: object = {}) =>
    (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(creator.auth)
        .send({ title: 'Docs site', ...body })
        .expect(201)
    ).body as {
      id: string;
    };
  const base = (siteId: string) => `/v1/orgs/${orgId}/sites/${siteId}`;
  const structure = async (siteId: string) =>
    (
      await t.http
        .get(`${base(siteId)}/structure`)
        .set(reader.auth)
        .expect(200)
    ).body;

  it('creates a site with the official shape and defaults, lists it with the official filters, gets, patches and deletes it', async () => {
    const a = await space('Guide');
    const res = await t.http
      .post(`/v1/orgs/${orgId}/sites`)
      .set(creator.auth)
      .send({ title: 'Product docs', spaces: [a] })
      .expect(201);
    expect(res.body).toMatchObject({
      object: 'site',
      type: 'basic',
      appliedType: 'basic',
      title: 'Product docs',
      visibility: 'public',
      published: false,
      siteSpaces: 1,
      defaultLevel: 'inherit',
      features: [],
      adaptiveContent: { enabled: false },
      permissions: { view: true, create: true, admin: false, editAdaptiveSchema: false },
      urls: { location: `https://quire.example.com/v1/orgs/${orgId}/sites/${res.body.id}` },
    });
    expect(res.body.urls.published).toBeUndefined();
    expect(res.headers.location).toBe(res.body.urls.location);
    const id = res.body.id as string;
    await site({ title: 'Internal handbook', type: 'premium', visibility: 'share-link' });

    const list = (q: string) => t.http.get(`/v1/orgs/${orgId}/sites${q}`).set(reader.auth).expect(200);
    expect((await list('')).body.items.map((s: { title: string }) => s.title)).toEqual(
      expect.arrayContaining(['Product docs', 'Internal handbook']),
    );
    expect((await list(`?space=${a}`)).body.items.map((s: { id: string }) => s.id)).toEqual([id]);
    expect((await list('?title=HANDBOOK')).body.items.map((s: { title: string }) => s.title)).toEqual(['Internal handbook']);
    expect((await list('?type=premium')).body.items.map((s: { title: string }) => s.title)).toEqual(['Internal handbook']);
    expect((await list('?type=premium&type=basic')).body.count).toBeGreaterThanOrEqual(2);
    expect((await list('?published=true')).body.items.map((s: { id: string }) => s.id)).not.toContain(id);
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites?published=yes`).set(reader.auth), 400);
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites?type=gold`).set(reader.auth), 400);

    expect((await t.http.get(base(id)).set(reader.auth).expect(200)).body.id).toBe(id);
    const patched = await t.http
      .patch(base(id))
      .set(admin.auth)
      .send({
        title: 'Docs',
        basename: 'docs',
        hostname: 'docs.acme.example',
        proxy: 'acme.example/help',
        agentsContext: 'excluded',
        adaptiveContent: { enabled: true },
      })
      .expect(200);
    expect(patched.body).toMatchObject({
      title: 'Docs',
      basename: 'docs',
      hostname: 'docs.acme.example',
      proxy: { origin: 'acme.example/help' },
      agentsContext: 'excluded',
      adaptiveContent: { enabled: true },
      permissions: { admin: true },
    });
    expect((await t.http.patch(base(id)).set(admin.auth).send({ proxy: null }).expect(200)).body.proxy).toBeUndefined();
    expectError(await t.http.patch(base(id)).set(admin.auth).send({ proxy: 'acme.example' }), 400, /proxy/);
    expectError(await t.http.patch(base(id)).set(admin.auth).send({ hostname: 'Docs.Example.com' }), 400, /hostname/);
    expectError(await t.http.patch(base(id)).set(admin.auth).send({ hostname: 'example.com' }), 400, /hostname/);
    expectError(await t.http.patch(base(id)).set(admin.auth).send({ title: 'x' }), 400, /title/);
    expectError(await t.http.patch(base(id)).set(admin.auth).send({ visibility: 'secret' }), 400, /visibility/);
    expectError(await t.http.patch(base(id)).set(creator.auth).send({ title: 'Mine' }), 403);

    // Published URL: the proxy, else hostname (+ basename), else Quire's own URL.
    const published = (
      await t.http
        .post(`${base(id)}/publish`)
        .set(admin.auth)
        .expect(200)
    ).body;
    expect(published).toMatchObject({ published: true, urls: { published: 'https://docs.acme.example/docs/' } });
    expect(
      (
        await t.http
          .post(`${base(id)}/unpublish`)
          .set(admin.auth)
          .expect(200)
      ).body.published,
    ).toBe(false);
    expectError(await t.http.post(`${base(id)}/publish`).set(creator.auth), 403);

    expectError(await t.http.delete(base(id)).set(creator.auth), 403);
    await t.http.delete(base(id)).set(admin.auth).expect(205);
    await t.http.delete(base(id)).set(admin.auth).expect(204);
    expectError(await t.http.get(base(id)).set(admin.auth), 404);
  });

  it('refuses spaces it cannot show: unknown, deleted, or of another organization (nothing is created)', async () => {
    const foreign = await space('Theirs', otherOrgId, outsider);
    const before = (await t.http.get(`/v1/orgs/${orgId}/sites`).set(admin.auth).expect(200)).body.count;
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(creator.auth)
        .send({ title: 'Bad', spaces: [foreign] }),
      404,
      /Space/,
    );
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(creator.auth)
        .send({ title: 'Bad', spaces: ['nope'] }),
      404,
      /Space/,
    );
    expect((await t.http.get(`/v1/orgs/${orgId}/sites`).set(admin.auth).expect(200)).body.count).toBe(before);
    const s = await site();
    expectError(
      await t.http
        .post(`${base(s.id)}/site-spaces`)
        .set(creator.auth)
        .send({ spaceId: foreign }),
      404,
    );
    expectError(await t.http.get(base(s.id)).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/orgs/${otherOrgId}/sites/${s.id}`).set(outsider.auth), 404);
    expectError(
      await t.http
        .post(`${base(s.id)}/site-spaces`)
        .set(editor.auth)
        .send({ spaceId: await space('Mine') }),
      403,
    );
  });

  it('keeps one default site space per level, adopts root site spaces into the first section, one default section', async () => {
    const [a, b, c] = [await space('Alpha'), await space('Beta'), await space('Gamma')];
    const s = await site({ spaces: [a, b] });
    let st = await structure(s.id);
    expect(st.type).toBe('siteSpaces');
    expect(st.structure.map((x: { title: string; default: boolean; path: string }) => [x.title, x.default, x.path])).toEqual([
      ['Alpha', true, 'alpha'],
      ['Beta', false, 'beta'],
    ]);
    // A second site space of the same space gets a unique path.
    const again = (
      await t.http
        .post(`${base(s.id)}/site-spaces`)
        .set(creator.auth)
        .send({ spaceId: a })
        .expect(201)
    ).body;
    expect(again).toMatchObject({ object: 'site-space', path: 'alpha-2', default: false, title: 'Alpha', space: { id: a } });
    await t.http
      .delete(`${base(s.id)}/site-spaces/${again.id}`)
      .set(creator.auth)
      .expect(205);

    const section = (
      await t.http
        .post(`${base(s.id)}/sections`)
        .set(creator.auth)
        .send({ spaceId: c, title: 'Reference' })
        .expect(201)
    ).body;
    expect(section).toMatchObject({ object: 'site-section', title: 'Reference', path: 'reference', default: true, draft: false });
    expect(section.siteSpaces.map((x: { title: string }) => x.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    const second = (
      await t.http
        .post(`${base(s.id)}/sections`)
        .set(creator.auth)
        .send({ spaceId: a, title: null, icon: 'book' })
        .expect(201)
    ).body;
    expect(second).toMatchObject({ title: 'Alpha', path: 'alpha', default: false, icon: 'book' });
    expect(second.siteSpaces).toHaveLength(1);
    expect(second.siteSpaces[0].default).toBe(true);
    st = await structure(s.id);
    expect(st.type).toBe('sections');
    expect((await t.http.get(base(s.id)).set(reader.auth).expect(200)).body.siteSpaces).toBe(4);

    // New site spaces go to the default section when none is named.
    const added = (
      await t.http
        .post(`${base(s.id)}/site-spaces`)
        .set(creator.auth)
        .send({ spaceId: b })
        .expect(201)
    ).body;
    expect(added.section).toBe(section.id);
    const toSecond = (
      await t.http
        .post(`${base(s.id)}/site-spaces`)
        .set(creator.auth)
        .send({ spaceId: b, sectionId: second.id })
        .expect(201)
    ).body;
    expect(toSecond).toMatchObject({ section: second.id, default: false });
    expectError(
      await t.http
        .post(`${base(s.id)}/site-spaces`)
        .set(creator.auth)
        .send({ spaceId: b, sectionId: 'nope' }),
      404,
      /section/i,
    );

    // Defaults: site-level defaultSiteSection / defaultSiteSpace, and per section.
    await t.http.patch(base(s.id)).set(admin.auth).send({ defaultSiteSection: second.id }).expect(200);
    await t.http.patch(base(s.id)).set(admin.auth).send({ defaultSiteSpace: toSecond.id }).expect(200);
    expectError(await t.http.patch(base(s.id)).set(admin.auth).send({ defaultSiteSpace: added.id }), 400, /default section/);
    const sections = (
      await t.http
        .get(`${base(s.id)}/sections`)
        .set(reader.auth)
        .expect(200)
    ).body.items;
    expect(sections.map((x: { default: boolean }) => x.default)).toEqual([false, true]);
    expect(
      sections[1].siteSpaces.map((x: { id: string; default: boolean }) => [x.id, x.default]).filter(([, d]: [string, boolean]) => d),
    ).toEqual([[toSecond.id, true]]);
    const defaults = (
      await t.http
        .get(`${base(s.id)}/site-spaces?default=true`)
        .set(reader.auth)
        .expect(200)
    ).body.items;
    expect(defaults.map((x: { id: string }) => x.id)).toEqual([toSecond.id]);
    const others = (
      await t.http
        .get(`${base(s.id)}/site-spaces?default=false`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(others.count).toBe(5);
    expect(
      (
        await t.http
          .get(`${base(s.id)}/site-spaces`)
          .set(reader.auth)
          .expect(200)
      ).body.count,
    ).toBe(6);
    const patchedSection = await t.http
      .patch(`${base(s.id)}/sections/${section.id}`)
      .set(creator.auth)
      .send({ defaultSiteSpace: added.id, description: 'All about it', condition: 'visitor.claims.beta' })
      .expect(200);
    expect(patchedSection.body).toMatchObject({ description: 'All about it', condition: 'visitor.claims.beta' });
    expect(patchedSection.body.siteSpaces.find((x: { default: boolean }) => x.default).id).toBe(added.id);
    // unset leaves, null removes
    expect(
      (
        await t.http
          .patch(`${base(s.id)}/sections/${section.id}`)
          .set(creator.auth)
          .send({ title: 'Ref' })
          .expect(200)
      ).body.condition,
    ).toBe('visitor.claims.beta');
    const cleared = (
      await t.http
        .patch(`${base(s.id)}/sections/${section.id}`)
        .set(creator.auth)
        .send({ condition: null, description: null })
        .expect(200)
    ).body;
    expect(cleared.condition).toBeUndefined();
    expect(cleared.description).toBeUndefined();

    // Deleting the default section: another becomes default; its site spaces go with it.
    await t.http
      .delete(`${base(s.id)}/sections/${second.id}`)
      .set(creator.auth)
      .expect(205);
    await t.http
      .delete(`${base(s.id)}/sections/${second.id}`)
      .set(creator.auth)
      .expect(204);
    const left = (
      await t.http
        .get(`${base(s.id)}/sections`)
        .set(reader.auth)
        .expect(200)
    ).body.items;
    expect(left.map((x: { id: string; default: boolean }) => [x.id, x.default])).toEqual([[section.id, true]]);
    expect((await t.http.get(base(s.id)).set(reader.auth).expect(200)).body.siteSpaces).toBe(4);
  });

  it('validates paths, titles, icons, descriptions and conditions at their limits', async () => {
    const a = await space('Paths');
    const s = await site({ spaces: [a] });
    const section = (
      await t.http
        .post(`${base(s.id)}/sections`)
        .set(creator.auth)
        .send({ spaceId: a, title: 'One' })
        .expect(201)
    ).body;
    const other = (
      await t.http
        .post(`${base(s.id)}/sections`)
        .set(creator.auth)
        .send({ spaceId: a, title: 'Two' })
        .expect(201)
    ).body;
    const url = `${base(s.id)}/sections/${section.id}`;
    await t.http
      .patch(url)
      .set(creator.auth)
      .send({ path: 'p'.repeat(100), title: 't'.repeat(128), icon: 'i'.repeat(50), description: 'd'.repeat(256) })
      .expect(200);
    expectError(
      await t.http
        .patch(url)
        .set(creator.auth)
        .send({ path: 'p'.repeat(101) }),
      400,
      /path/,
    );
    expectError(await t.http.patch(url).set(creator.auth).send({ path: '' }), 400, /path/);
    expectError(await t.http.patch(url).set(creator.auth).send({ path: 'a/b' }), 400, /path/);
    expectError(
      await t.http
        .patch(url)
        .set(creator.auth)
        .send({ title: 't'.repeat(129) }),
      400,
      /title/,
    );
    expectError(await t.http.patch(url).set(creator.auth).send({ title: 'x' }), 400, /title/);
    expectError(
      await t.http
        .patch(url)
        .set(creator.auth)
        .send({ icon: 'i'.repeat(51) }),
      400,
      /icon/,
    );
    expectError(
      await t.http
        .patch(url)
        .set(creator.auth)
        .send({ description: 'd'.repeat(257) }),
      400,
      /description/,
    );
    expectError(
      await t.http
        .patch(url)
        .set(creator.auth)
        .send({ condition: 'c'.repeat(1025) }),
      400,
      /condition/,
    );
    expectError(await t.http.patch(url).set(creator.auth).send({ path: other.path }), 409, /path/);
    expectError(await t.http.patch(url).set(creator.auth).send({ condition: 'visitor.claims.a &&' }), 400, /condition/);
    expectError(await t.http.patch(url).set(creator.auth).send({ condition: 'process.exit()' }), 400, /condition/);
    expectError(await t.http.patch(url).set(creator.auth).send({ condition: 'visitor.constructor' }), 400, /condition/);
    expectError(await t.http.patch(url).set(creator.auth).send({ condition: 'visitor.claims = 1' }), 400, /condition/);
    expectError(await t.http.patch(url).set(creator.auth).send({ defaultSiteSpace: other.siteSpaces[0].id }), 400, /not in section/);
    await t.http
      .patch(url)
      .set(creator.auth)
      .send({ condition: 'visitor.claims.plan == "pro" || visitor.claims.roles.includes("admin")' })
      .expect(200);
    expectError(
      await t.http
        .post(`${base(s.id)}/sections`)
        .set(creator.auth)
        .send({ spaceId: a, title: 'x' }),
      400,
      /title/,
    );
    expectError(
      await t.http
        .post(`${base(s.id)}/sections`)
        .set(creator.auth)
        .send({ title: 'No space' }),
      400,
      /spaceId/,
    );
    expectError(
      await t.http
        .post(`${base(s.id)}/sections`)
        .set(creator.auth)
        .send({ spaceId: null }),
      400,
      /spaceId/,
    );

    const ss = section.siteSpaces[0];
    const ssUrl = `${base(s.id)}/site-spaces/${ss.id}`;
    const b = await space('Second');
    const second = (
      await t.http
        .post(`${base(s.id)}/site-spaces`)
        .set(creator.auth)
        .send({ spaceId: b, sectionId: section.id })
        .expect(201)
    ).body;
    expect(
      (await t.http.patch(ssUrl).set(creator.auth).send({ path: 'start', condition: 'visitor.claims.x' }).expect(200)).body,
    ).toMatchObject({
      path: 'start',
      condition: 'visitor.claims.x',
    });
    expectError(
      await t.http
        .patch(`${base(s.id)}/site-spaces/${second.id}`)
        .set(creator.auth)
        .send({ path: 'start' }),
      409,
      /path/,
    );
    expectError(
      await t.http
        .patch(ssUrl)
        .set(creator.auth)
        .send({ path: 'p'.repeat(101) }),
      400,
      /path/,
    );
    expect((await t.http.patch(ssUrl).set(creator.auth).send({ spaceId: b }).expect(200)).body).toMatchObject({
      space: { id: b },
      title: 'Second',
      condition: 'visitor.claims.x',
    });
    expect((await t.http.patch(ssUrl).set(creator.auth).send({ condition: null }).expect(200)).body.condition).toBeUndefined();
    expectError(
      await t.http
        .patch(`${base(s.id)}/site-spaces/nope`)
        .set(creator.auth)
        .send({ path: 'x' }),
      404,
    );
  });

  it('section groups: create with sections and parent, rename, add and remove sections, delete keeps the sections', async () => {
    const a = await space('Grouped');
    const s = await site({ spaces: [a] });
    const mk = async (title: string) =>
      (
        await t.http
          .post(`${base(s.id)}/sections`)
          .set(creator.auth)
          .send({ spaceId: a, title })
          .expect(201)
      ).body.id as string;
    const [s1, s2, s3] = [await mk('First'), await mk('Second'), await mk('Third')];
    const g = (
      await t.http
        .post(`${base(s.id)}/section-groups`)
        .set(creator.auth)
        .send({ title: 'Guides', icon: 'map', sections: [s1, s2] })
        .expect(201)
    ).body;
    expect(g).toMatchObject({ object: 'site-section-group', title: 'Guides', icon: 'map', draft: false });
    expect(g.children.map((c: { id: string }) => c.id)).toEqual([s1, s2]);
    expect(g.sections.map((c: { id: string; sectionGroup: string }) => [c.id, c.sectionGroup])).toEqual([
      [s1, g.id],
      [s2, g.id],
    ]);
    const inner = (
      await t.http
        .post(`${base(s.id)}/section-groups`)
        .set(creator.auth)
        .send({ title: 'Inner', parent: g.id })
        .expect(201)
    ).body;
    expect(inner.sectionGroup).toBe(g.id);
    expectError(
      await t.http
        .post(`${base(s.id)}/section-groups`)
        .set(creator.auth)
        .send({ title: 'X', parent: 'nope' }),
      404,
      /group/,
    );
    expectError(
      await t.http
        .post(`${base(s.id)}/section-groups`)
        .set(creator.auth)
        .send({ title: 'X', sections: ['nope'] }),
      404,
      /section/,
    );
    expectError(
      await t.http
        .post(`${base(s.id)}/section-groups`)
        .set(creator.auth)
        .send({ title: '' }),
      400,
      /title/,
    );
    expect(
      (
        await t.http
          .patch(`${base(s.id)}/section-groups/${g.id}`)
          .set(creator.auth)
          .send({ title: 'Handbooks', icon: null })
          .expect(200)
      ).body,
    ).toMatchObject({
      title: 'Handbooks',
    });
    const withThird = (
      await t.http
        .post(`${base(s.id)}/section-groups/${inner.id}/sections`)
        .set(creator.auth)
        .send({ sectionId: s3 })
        .expect(201)
    ).body;
    expect(withThird.children.map((c: { id: string }) => c.id)).toEqual([s3]);
    await t.http
      .delete(`${base(s.id)}/section-groups/${g.id}/sections/${s1}`)
      .set(creator.auth)
      .expect(205);
    await t.http
      .delete(`${base(s.id)}/section-groups/${g.id}/sections/${s1}`)
      .set(creator.auth)
      .expect(204);
    expectError(await t.http.delete(`${base(s.id)}/section-groups/nope/sections/${s1}`).set(creator.auth), 404);
    let st = await structure(s.id);
    // s1 went right after the group it left
    expect(st.structure.map((i: { id: string }) => i.id)).toEqual([g.id, s1]);
    const groups = (
      await t.http
        .get(`${base(s.id)}/section-groups`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(groups.items.map((x: { id: string }) => x.id)).toEqual([g.id, inner.id]);

    await t.http
      .delete(`${base(s.id)}/section-groups/${g.id}`)
      .set(creator.auth)
      .expect(205);
    await t.http
      .delete(`${base(s.id)}/section-groups/${g.id}`)
      .set(creator.auth)
      .expect(204);
    st = await structure(s.id);
    expect(st.structure.map((i: { id: string }) => i.id)).toEqual([s2, inner.id, s1]);
    expect(
      (
        await t.http
          .get(`${base(s.id)}/sections`)
          .set(reader.auth)
          .expect(200)
      ).body.count,
    ).toBe(3);
  });

  it('sorts the structure exactly (before/after, across sections and groups); the deprecated moves delegate to it', async () => {
    const a = await space('Sorted');
    const s = await site();
    const mk = async (title: string) =>
      (
        await t.http
          .post(`${base(s.id)}/sections`)
          .set(creator.auth)
          .send({ spaceId: a, title })
          .expect(201)
      ).body;
    const [x, y, z] = [await mk('Xray'), await mk('Yankee'), await mk('Zulu')];
    const ids = async () => (await structure(s.id)).structure.map((i: { id: string }) => i.id);
    const sort = (item: object, position: object) =>
      t.http
        .patch(`${base(s.id)}/structure/sort`)
        .set(creator.auth)
        .send({ item, position });

    expect((await sort({ type: 'site-section', id: z.id }, { before: { type: 'site-section', id: x.id } }).expect(200)).body.id).toBe(z.id);
    expect(await ids()).toEqual([z.id, x.id, y.id]);
    await sort({ type: 'site-section', id: z.id }, { after: { type: 'site-section', id: y.id } }).expect(200);
    expect(await ids()).toEqual([x.id, y.id, z.id]);
    await sort({ type: 'site-section', id: x.id }, {}).expect(200);
    expect(await ids()).toEqual([y.id, z.id, x.id]);
    // deprecated moveSiteSection
    await t.http
      .post(`${base(s.id)}/sections/${x.id}/move`)
      .set(creator.auth)
      .send({ position: { before: { type: 'site-section', siteSection: y.id } } })
      .expect(200);
    expect(await ids()).toEqual([x.id, y.id, z.id]);

    // Into a group by pointing at a section inside it.
    const g = (
      await t.http
        .post(`${base(s.id)}/section-groups`)
        .set(creator.auth)
        .send({ title: 'G', sections: [y.id] })
        .expect(201)
    ).body;
    await sort({ type: 'site-section', id: z.id }, { after: { type: 'site-section', id: y.id } }).expect(200);
    expect(await ids()).toEqual([x.id, g.id]);
    const gNow = (
      await t.http
        .get(`${base(s.id)}/section-groups`)
        .set(reader.auth)
        .expect(200)
    ).body.items[0];
    expect(gNow.children.map((c: { id: string }) => c.id)).toEqual([y.id, z.id]);
    await t.http
      .post(`${base(s.id)}/section-groups/${g.id}/move`)
      .set(creator.auth)
      .send({ position: { before: { type: 'site-section', id: x.id } } })
      .expect(200);
    expect(await ids()).toEqual([g.id, x.id]);

    // Site spaces: within a section and into another one.
    const b = await space('Other');
    const ss1 = x.siteSpaces[0].id;
    const ss2 = (
      await t.http
        .post(`${base(s.id)}/site-spaces`)
        .set(creator.auth)
        .send({ spaceId: b, sectionId: x.id })
        .expect(201)
    ).body.id;
    await t.http
      .post(`${base(s.id)}/site-spaces/${ss2}/move`)
      .set(creator.auth)
      .send({ position: { before: { type: 'site-space', siteSpace: ss1 } } })
      .expect(200);
    let xs = (
      await t.http
        .get(`${base(s.id)}/sections`)
        .set(reader.auth)
        .expect(200)
    ).body.items.find((i: { id: string }) => i.id === x.id);
    expect(xs.siteSpaces.map((i: { id: string; default: boolean }) => [i.id, i.default])).toEqual([
      [ss2, false],
      [ss1, true],
    ]);
    const moved = (await sort({ type: 'site-space', id: ss2 }, { after: { type: 'site-space', id: y.siteSpaces[0].id } }).expect(200)).body;
    expect(moved.section).toBe(y.id);
    xs = (
      await t.http
        .get(`${base(s.id)}/sections`)
        .set(reader.auth)
        .expect(200)
    ).body.items.find((i: { id: string }) => i.id === x.id);
    expect(xs.siteSpaces.map((i: { id: string }) => i.id)).toEqual([ss1]);

    // Invalid positions
    expectError(await sort({ type: 'site-section', id: x.id }, { before: { type: 'site-section', id: 'nope' } }), 404);
    expectError(await sort({ type: 'site-section', id: x.id }, { before: { type: 'site-space', id: ss1 } }), 400);
    expectError(await sort({ type: 'site-section-group', id: g.id }, { before: { type: 'site-section', id: y.id } }), 400, /itself/);
    expectError(
      await sort(
        { type: 'site-section', id: x.id },
        { before: { type: 'site-section', id: y.id }, after: { type: 'site-section', id: z.id } },
      ),
      400,
    );
    expectError(await sort({ type: 'site-section', id: x.id }, { before: { type: 'site-section', id: x.id } }), 400);
    expectError(await sort({ type: 'widget', id: x.id }, {}), 400);
    expectError(
      await t.http
        .patch(`${base(s.id)}/structure/sort`)
        .set(creator.auth)
        .send({ item: { type: 'site-section', id: x.id } }),
      400,
      /position/,
    );
    expectError(await sort({ type: 'site-section', id: x.id }, {}).set(editor.auth), 403);
  });

  it('deleting a space removes it from every site (defaults move on); a renamed space shows its new title', async () => {
    const [a, b] = [await space('Doomed'), await space('Staying')];
    const s1 = await site({ spaces: [a, b] });
    const s2 = await site({ spaces: [b] });
    await t.http
      .post(`${base(s2.id)}/sections`)
      .set(creator.auth)
      .send({ spaceId: a, title: 'Doomed section' })
      .expect(201);
    await t.http.delete(`/v1/spaces/${a}`).set(admin.auth).expect(205);
    const st1 = await structure(s1.id);
    expect(st1.structure.map((x: { title: string; default: boolean }) => [x.title, x.default])).toEqual([['Staying', true]]);
    expect((await t.http.get(base(s1.id)).set(reader.auth).expect(200)).body.siteSpaces).toBe(1);
    const st2 = await structure(s2.id);
    expect(st2.structure.flatMap((x: { siteSpaces: { title: string }[] }) => x.siteSpaces.map((y) => y.title))).toEqual(['Staying']);
    expect((await t.http.get(`/v1/orgs/${orgId}/sites?space=${a}`).set(reader.auth).expect(200)).body.count).toBe(0);
    await t.http.patch(`/v1/spaces/${b}`).set(admin.auth).send({ title: 'Renamed' }).expect(200);
    expect((await structure(s1.id)).structure[0].title).toBe('Renamed');
  });

  it('two writers changing one site at once lose nothing (the site is written under its row lock)', async () => {
    const spaces = await Promise.all(Array.from({ length: 8 }, (_, i) => space(`Racer ${i}`)));
    const s = await site();
    const results = await Promise.all(
      spaces.map((spaceId) =>
        t.http
          .post(`${base(s.id)}/site-spaces`)
          .set(creator.auth)
          .send({ spaceId }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const st = await structure(s.id);
    expect(st.structure.map((x: { space: { id: string } }) => x.space.id).sort()).toEqual([...spaces].sort());
    expect(st.structure.filter((x: { default: boolean }) => x.default)).toHaveLength(1);
    // sections and renames racing
    const more = await Promise.all([
      t.http
        .post(`${base(s.id)}/sections`)
        .set(creator.auth)
        .send({ spaceId: spaces[0], title: 'One' }),
      t.http
        .post(`${base(s.id)}/sections`)
        .set(creator.auth)
        .send({ spaceId: spaces[1], title: 'Two' }),
      t.http.patch(base(s.id)).set(admin.auth).send({ title: 'Raced' }),
      t.http
        .post(`${base(s.id)}/share-links`)
        .set(admin.auth)
        .send({ name: 'During' }),
    ]);
    expect(more.map((r) => r.status)).toEqual([201, 201, 200, 201]);
    const after = (await t.http.get(base(s.id)).set(reader.auth).expect(200)).body;
    expect(after).toMatchObject({ title: 'Raced', siteSpaces: 10 });
    expect(
      (
        await t.http
          .get(`${base(s.id)}/sections`)
          .set(reader.auth)
          .expect(200)
      ).body.count,
    ).toBe(2);
  });

  it('a space transferred to another organization leaves the sites of the first', async () => {
    const moving = await space('Moving');
    const s = await site({ spaces: [moving] });
    await t.member(otherOrgId, admin, 'admin');
    await t.http.post(`/v1/spaces/${moving}/transfer`).set(admin.auth).send({ organization: otherOrgId }).expect(200);
    expect((await structure(s.id)).structure).toEqual([]);
    expect((await t.http.get(base(s.id)).set(reader.auth).expect(200)).body.siteSpaces).toBe(0);
  });

  it('hostnames are unique across sites; structure lists page in structure order', async () => {
    const a = await site();
    const b = await site();
    await t.http.patch(base(a.id)).set(admin.auth).send({ hostname: 'help.unique.example' }).expect(200);
    expectError(await t.http.patch(base(b.id)).set(admin.auth).send({ hostname: 'help.unique.example' }), 409, /hostname/);
    await t.http.patch(base(a.id)).set(admin.auth).send({ hostname: null }).expect(200);
    await t.http.patch(base(b.id)).set(admin.auth).send({ hostname: 'help.unique.example' }).expect(200);

    const sp = await space('Paged');
    for (const title of ['One', 'Two', 'Three'])
      await t.http
        .post(`${base(a.id)}/sections`)
        .set(creator.auth)
        .send({ spaceId: sp, title })
        .expect(201);
    const first = (
      await t.http
        .get(`${base(a.id)}/sections?limit=2`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(first.items.map((x: { title: string }) => x.title)).toEqual(['One', 'Two']);
    expect(first.count).toBe(3);
    const second = (
      await t.http
        .get(`${base(a.id)}/sections?limit=2&page=${first.next.page}`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(second.items.map((x: { title: string }) => x.title)).toEqual(['Three']);
    expect(second.next).toBeUndefined();
    expectError(await t.http.get(`${base(a.id)}/sections?limit=1001`).set(reader.auth), 400, /limit/);
  });
});
