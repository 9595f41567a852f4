import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { Db } from '@app/persistence';
import { SearchIndex } from '@app/spaces-and-content';
import { SearchStateConfig1764460800000 } from '../../apps/api/src/database/migrations/1764460800000-search-state-config';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

describe('full-text search', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => t.close());

  /** A space whose main content holds the given pages (written through a merged change request). */
  const spaceWith = async (pages: { title: string; markdown: string; into?: string; ref?: string }[], language?: string) => {
    const space = (
      await t.http
        .post(`/v1/orgs/${orgId}/spaces`)
        .set(admin.auth)
        .send({ title: 'Searchable', ...(language ? { language } : {}) })
        .expect(201)
    ).body;
    const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(admin.auth).send({}).expect(201)).body;
    await t.http
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`)
      .set(admin.auth)
      .send({
        changes: pages.map((p) => ({
          operation: 'insert_page',
          title: p.title,
          ref: p.ref,
          into: p.into,
          document: { markdown: p.markdown },
        })),
      })
      .expect(200);
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);
    return space;
  };
  const search = (spaceId: string, query: string, extra = '') =>
    t.http.get(`/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`).set(admin.auth);

  it("excerpts are text: markup in a page is escaped, and only Quire's own <mark> delimiters are markup", async () => {
    const space = await spaceWith([
      {
        title: 'Markup',
        markdown:
          'Beware `<script>alert(1)</script>` and `<img src=x onerror=alert(2)>` and <img src=x onerror=alert(3)> in the gadget text, \\<b\\>bold\\</b\\> & "quotes" \uE000gadget\uE001 too.',
      },
    ]);
    const res = await search(space.id, 'gadget').expect(200);
    const excerpt: string = res.body.items[0].sections[0].body;
    expect(excerpt).toContain('<mark>gadget</mark>');
    // PostgreSQL's parser drops what it reads as tags from the text; what is left of markup is escaped.
    expect(excerpt).toContain('&lt;img src=x onerror=alert(2)&gt;');
    // Raw HTML in a page is not text: it never reaches an excerpt (and is stored sanitized).
    expect(excerpt).not.toContain('alert(3)');
    expect(excerpt).toContain('alert(1)');
    expect(excerpt).not.toMatch(/<script|<b>|<img/);
    expect(excerpt).toContain('&amp; &quot;quotes&quot;');
    // Nothing else is a tag: every "<" left is the start of Quire's <mark> or </mark>.
    expect(excerpt.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    expect(excerpt).not.toMatch(/[\uE000\uE001]/);
  });

  it('finds pages by stemmed words, with section-level hits and highlighted excerpts, ranked', async () => {
    const space = await spaceWith([
      {
        title: 'Installation',
        ref: 'install',
        markdown:
          'Intro text.\n\n## Running the server\n\nThe server runs on port 3000 after installing dependencies.\n\n## Other\n\nNothing here.',
      },
      { title: 'Servers', markdown: 'Servers, servers everywhere: this page talks about running servers a lot. Run the server.' },
      { title: 'Unrelated', into: 'install', markdown: 'Bananas.' },
    ]);
    const res = await search(space.id, 'run servers').expect(200);
    expect(res.body.count).toBe(2);
    // A match in a heading (weight A) ranks above matches in body text (weight B).
    expect(res.body.items.map((h: { title: string }) => h.title)).toEqual(['Installation', 'Servers']);
    const install = res.body.items[0];
    expect(install).toMatchObject({ path: 'installation', rank: 1, ancestors: [] });
    expect(res.body.items[1].rank).toBe(2);
    expect(install.sections).toEqual([
      expect.objectContaining({
        title: 'Running the server',
        path: 'installation#running-the-server',
        body: expect.stringContaining('<mark>server</mark>'),
      }),
    ]);
    expect(res.body.items.map((h: unknown) => schemas.check('SearchPageResult', h)).join('')).toBe('');
    const nested = await search(space.id, 'bananas').expect(200);
    expect(nested.body.items[0]).toMatchObject({
      title: 'Unrelated',
      path: 'installation/unrelated',
      ancestors: [{ id: expect.any(String), title: 'Installation' }],
    });
  });

  it('pages through results with a cursor and keeps the global rank', async () => {
    const space = await spaceWith(Array.from({ length: 5 }, (_, i) => ({ title: `Doc ${i}`, markdown: `widget ${'widget '.repeat(i)}` })));
    const first = await search(space.id, 'widget', '&limit=2').expect(200);
    expect(first.body.count).toBe(5);
    const second = await search(space.id, 'widget', `&limit=2&page=${first.body.next.page}`).expect(200);
    const third = await search(space.id, 'widget', `&limit=2&page=${second.body.next.page}`).expect(200);
    const all = [...first.body.items, ...second.body.items, ...third.body.items];
    expect(all.map((h: { rank: number }) => h.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(all.map((h: { id: string }) => h.id)).size).toBe(5);
    expect(third.body.next).toBeUndefined();
    expect(third.body.count).toBe(5);
  });

  it('pages through pages of equal score without losing or repeating one', async () => {
    const space = await spaceWith(Array.from({ length: 7 }, (_, i) => ({ title: `Twin ${i}`, markdown: 'gadget and more text' })));
    const seen: { id: string; score: number; rank: number }[] = [];
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const res = await search(space.id, 'gadget', `&limit=3${cursor}`).expect(200);
      expect(res.body.count).toBe(7);
      seen.push(...res.body.items);
      if (!res.body.next) break;
      cursor = `&page=${res.body.next.page}`;
    }
    expect(new Set(seen.map((h) => h.score)).size).toBe(1);
    expect(new Set(seen.map((h) => h.id)).size).toBe(7);
    expect(seen.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('follows the space language for stemming, and finds Japanese and Chinese text', async () => {
    const french = await spaceWith([{ title: 'Chevaux', markdown: 'Les chevaux mangent du foin.' }], 'fr');
    expect((await search(french.id, 'cheval').expect(200)).body.count).toBe(1);
    const ja = await spaceWith(
      [
        { title: '日本語ガイド', markdown: 'これは日本語のドキュメントです。検索できます。' },
        { title: '中文', markdown: '这是一个中文文档，可以搜索。' },
      ],
      'ja',
    );
    expect((await search(ja.id, '日本語').expect(200)).body.items.map((h: { title: string }) => h.title)).toEqual(['日本語ガイド']);
    expect((await search(ja.id, '中文文档').expect(200)).body.items.map((h: { title: string }) => h.title)).toEqual(['中文']);
    expect((await search(ja.id, '検索').expect(200)).body.count).toBe(1);
  });

  it('keeps the index in step with merges: new words are found, removed pages are not', async () => {
    const space = await spaceWith([{ title: 'Alpha', markdown: 'original words' }]);
    expect((await search(space.id, 'original').expect(200)).body.count).toBe(1);
    const pageId = (await search(space.id, 'original').expect(200)).body.items[0].id;
    const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(admin.auth).send({}).expect(201)).body;
    await t.http
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'update_page', page: pageId, document: { markdown: 'replacement vocabulary' } },
          { operation: 'insert_page', title: 'Beta', document: { markdown: 'brand new page' } },
        ],
      })
      .expect(200);
    expect((await search(space.id, 'replacement').expect(200)).body.count).toBe(0); // not merged yet
    await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);
    expect((await search(space.id, 'replacement').expect(200)).body.count).toBe(1);
    expect((await search(space.id, 'original').expect(200)).body.count).toBe(0);
    expect((await search(space.id, 'brand').expect(200)).body.count).toBe(1);
  });

  it('re-indexes a space when its language changes (stemming follows it)', async () => {
    const space = await spaceWith([{ title: 'Écurie', markdown: 'Les chevaux mangent du foin.' }]);
    expect((await search(space.id, 'cheval').expect(200)).body.count).toBe(0); // English stemming
    await t.http.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ language: 'fr' }).expect(200);
    expect((await search(space.id, 'cheval').expect(200)).body.count).toBe(1);
    await t.http.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ language: 'en' }).expect(200);
    expect((await search(space.id, 'cheval').expect(200)).body.count).toBe(0);
  });

  it('ranks a repeated query once per index version, and never serves results of an older version', async () => {
    const space = await spaceWith([{ title: 'Cached', markdown: 'lantern oil' }]);
    const ranking = jest.spyOn(t.app.get(SearchIndex), 'searchSpace');
    try {
      const first = await search(space.id, 'lantern').expect(200);
      const again = await search(space.id, 'lantern').expect(200);
      expect(again.body).toEqual(first.body);
      expect(ranking).toHaveBeenCalledTimes(1);
      await search(space.id, 'lantern', '&limit=1').expect(200); // another page size: its own entry
      expect(ranking).toHaveBeenCalledTimes(2);
      const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(admin.auth).send({}).expect(201)).body;
      await t.http
        .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`)
        .set(admin.auth)
        .send({ changes: [{ operation: 'insert_page', title: 'Second lantern', document: { markdown: 'another lantern' } }] })
        .expect(200);
      await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(admin.auth).expect(200);
      const after = await search(space.id, 'lantern').expect(200);
      expect(after.body.count).toBe(2);
      expect(ranking).toHaveBeenCalledTimes(3);

      // An index found behind the space (here: as if a process had stopped between the merge and its
      // re-indexing) is brought up to date before answering, and the fresh result is kept.
      const ds = t.app.get(DataSource);
      const [state] = await ds.query('SELECT revision FROM search_state WHERE space_id = $1', [space.id]);
      await ds.query(`UPDATE search_state SET revision = 'an-older-revision', config = 'simple' WHERE space_id = $1`, [space.id]);
      const healed = await search(space.id, 'lanterns').expect(200);
      expect(healed.body.count).toBe(2);
      expect(ranking).toHaveBeenCalledTimes(5); // ranked, found the index behind, re-indexed, ranked again
      expect(await ds.query('SELECT revision, config FROM search_state WHERE space_id = $1', [space.id])).toEqual([
        { revision: state.revision, config: 'english' },
      ]);
      await search(space.id, 'lanterns').expect(200);
      expect(ranking).toHaveBeenCalledTimes(5);
    } finally {
      ranking.mockRestore();
    }
  });

  it('searches the whole organization, grouped by space; strangers get 404', async () => {
    const u = await t.user('org-searcher');
    const org = await t.organization(u);
    const mk = async (title: string, markdown: string) => {
      const space = (await t.http.post(`/v1/orgs/${org}/spaces`).set(u.auth).send({ title }).expect(201)).body;
      const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(u.auth).send({}).expect(201)).body;
      await t.http
        .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`)
        .set(u.auth)
        .send({ changes: [{ operation: 'insert_page', title: 'P', document: { markdown } }] })
        .expect(200);
      await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(u.auth).expect(200);
      return space;
    };
    const a = await mk('Space A', 'kubernetes cluster');
    await mk('Space B', 'gardening tips');
    const res = await t.http.get(`/v1/orgs/${org}/search?query=kubernetes`).set(u.auth).expect(200);
    expect(res.body.count).toBe(1);
    expect(res.body.items[0]).toMatchObject({
      type: 'space',
      id: a.id,
      title: 'Space A',
      pages: [expect.objectContaining({ title: 'P' })],
    });
    expect(schemas.check('SearchSpaceResult', res.body.items[0])).toBe('');
    expectError(await t.http.get(`/v1/orgs/${org}/search?query=kubernetes`).set(admin.auth), 404);
    expectError(await t.http.get(`/v1/orgs/${org}/search?query=${'q'.repeat(513)}`).set(u.auth), 400, /query/);
    expectError(await t.http.get(`/v1/orgs/${org}/search`).set(u.auth), 400, /query/);
    await t.http
      .get(`/v1/orgs/${org}/search?query=${'q'.repeat(512)}`)
      .set(u.auth)
      .expect(200);
  });
  it('organization search shows only spaces the organization holds now, in a bounded number of queries', async () => {
    const u = await t.user('org-mover');
    const org = await t.organization(u, 'Mover org');
    const away = await t.organization(u, 'Away org');
    const mk = async (title: string) => {
      const space = (await t.http.post(`/v1/orgs/${org}/spaces`).set(u.auth).send({ title }).expect(201)).body;
      const cr = (await t.http.post(`/v1/spaces/${space.id}/change-requests`).set(u.auth).send({}).expect(201)).body;
      const changes = [1, 2, 3].map((i) => ({
        operation: 'insert_page',
        title: `Page ${i}`,
        document: { markdown: `zeppelin notes ${i}` },
      }));
      await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/content`).set(u.auth).send({ changes }).expect(200);
      await t.http.post(`/v1/spaces/${space.id}/change-requests/${cr.id}/merge`).set(u.auth).expect(200);
      return space;
    };
    const spaces = [];
    for (let i = 0; i < 6; i++) spaces.push(await mk(`Zeppelins ${i}`));
    const db = t.app.get(Db);
    const statements = async (limit: number) => {
      const query = jest.spyOn(db, 'query');
      const named = jest.spyOn(db, 'namedQuery');
      const res = await t.http.get(`/v1/orgs/${org}/search?query=zeppelin&limit=${limit}`).set(u.auth).expect(200);
      const n = query.mock.calls.length + named.mock.calls.length;
      query.mockRestore();
      named.mockRestore();
      return { n, res };
    };
    const one = await statements(1);
    const all = await statements(10);
    expect(all.res.body.items).toHaveLength(6);
    expect(all.res.body.items.every((i: { pages: unknown[] }) => i.pages.length === 3)).toBe(true);
    expect(all.n).toBe(one.n);
    expect(all.n).toBeLessThanOrEqual(4);

    // Transferred away, with its index rows still naming the old organization (as while being rewritten).
    await t.http.post(`/v1/spaces/${spaces[0].id}/transfer`).set(u.auth).send({ organization: away }).expect(200);
    await t.app.get(DataSource).query('UPDATE search_sections SET organization_id = $2 WHERE space_id = $1', [spaces[0].id, org]);
    const after = await t.http.get(`/v1/orgs/${org}/search?query=zeppelin`).set(u.auth).expect(200);
    expect(after.body.count).toBe(5);
    expect(after.body.items.map((i: { id: string }) => i.id)).not.toContain(spaces[0].id);
    expect(JSON.stringify(after.body)).not.toContain('Zeppelins 0');
  });

  it('the migration that records the index configuration keeps existing indexes current', async () => {
    const french = await spaceWith([{ title: 'Chevaux', markdown: 'Les chevaux mangent du foin.' }], 'fr');
    const empty = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Empty' }).expect(201)).body;
    const ds = t.app.get(DataSource);
    const runner = ds.createQueryRunner();
    try {
      const migration = new SearchStateConfig1764460800000();
      await migration.down(runner);
      await runner.query('INSERT INTO search_state (space_id, revision) VALUES ($1, $2)', [empty.id, empty.revision]);
      await migration.up(runner);
      const states = await runner.query('SELECT space_id, config FROM search_state WHERE space_id = ANY($1) ORDER BY config', [
        [french.id, empty.id],
      ]);
      expect(states).toEqual([
        { space_id: empty.id, config: '' }, // no rows: re-indexed (at no cost) by its first search
        { space_id: french.id, config: 'french' },
      ]);
    } finally {
      await runner.release();
    }
    const ranking = jest.spyOn(t.app.get(SearchIndex), 'searchSpace');
    try {
      expect((await search(french.id, 'cheval').expect(200)).body.count).toBe(1);
      expect(ranking).toHaveBeenCalledTimes(1); // the index was current: no re-indexing, no second ranking
      expect((await search(empty.id, 'anything').expect(200)).body.count).toBe(0);
      expect(ranking).toHaveBeenCalledTimes(3);
    } finally {
      ranking.mockRestore();
    }
  });
});
