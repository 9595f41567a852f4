import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { createSite, putAdaptiveSchema } from '../support/sites';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { CodeHighlighter } from '@app/site-renderer';
import { mergeChanges } from '../support/content';

/**
 * The published site as a visitor reads it, at urls.published (`/sites/{id}/…`): server-rendered HTML
 * with navigation, pages linked to each other, `.md` for machines, strict headers, ETags; unpublished,
 * share-link and visitor-auth sites as the spec says; hostile content escaped.
 */
describe('published sites for visitors', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let spaceId: string;
  let setupId: string;

  const html = (res: { text: string }) => res.text;

  beforeAll(async () => {
    t = await createTestApp({ QUIRE_JOBS: 'on' }); // OpenAPI specs are processed by jobs
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body.id;
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({ subject: 'Pages' }).expect(201)).body.id;
    const written = await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          {
            operation: 'insert_page',
            ref: 'intro',
            document: {
              markdown:
                '---\ntitle: Introduction\ndescription: Where to start\n---\n\nWelcome. See [setup](./guide/setup.md).\n\n## First steps\n\nRead **this** first.\n\n## Next steps\n\n| Tool | Use |\n| --- | --- |\n| `npm` | install |\n',
            },
          },
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
          {
            operation: 'insert_page',
            ref: 'setup',
            into: 'guide',
            document: { markdown: '# Setup\n\n1. Install\n2. Run\n\n- [x] done\n\n```js\nconsole.log("<hi>")\n```\n' },
          },
          {
            operation: 'insert_page',
            ref: 'hostile',
            title: 'Evil <b>title</b>',
            document: {
              markdown:
                'Text <script>alert(1)</script> and <img src="x" onerror="alert(2)"> and [js](javascript:alert(3)).\n\n<div onclick="alert(4)">kept <em>inline</em></div>\n',
            },
          },
        ],
      })
      .expect(200);
    setupId = written.body.changes[2].page.id;
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
  });
  afterAll(async () => t.close());

  const site = (body: object = {}, publish = true) =>
    createSite(t, admin, orgId, [spaceId], { fields: { title: 'Handbook site', ...body }, publish });

  it('serves the first page at the root, rendered on the server, with navigation, strict headers and no token needed', async () => {
    const id = await site();
    const bare = await t.http.get(`/sites/${id}`).expect(301);
    expect(bare.headers.location).toMatch(new RegExp(`/sites/${id}/$`));
    const res = await t.http.get(`/sites/${id}/`).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-robots-tag']).toBeUndefined();
    const page = html(res);
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<h1>Introduction</h1>');
    expect(page).toContain('<title>Introduction | Handbook site</title>');
    expect(page).toContain('<meta name="description" content="Where to start"/>');
    // Headings get anchors and an on-page table of contents; tables and marks render.
    // The page title is the h1: a `##` heading of the page is an h3.
    expect(page).toMatch(/<h3 id="first-steps">First steps<a class="anchor" href="#first-steps"/);
    expect(page).toContain('<a href="#next-steps">Next steps</a>');
    expect(page).toContain('<strong>this</strong>');
    expect(page).toMatch(/<th scope="col" class="align-left">Tool<\/th>/);
    expect(page).toContain('<code>npm</code>');
    // A link to another page resolves to that page's site URL.
    expect(page).toMatch(new RegExp(`<a href="[^"]*/sites/${id}/guide/setup">setup</a>`));
    // The sidebar: every page, the current one marked.
    expect(page).toMatch(new RegExp(`<a href="[^"]*/sites/${id}/introduction" aria-current="page" class="current">Introduction</a>`));
    expect(page).toMatch(new RegExp(`href="[^"]*/sites/${id}/guide/setup">Setup</a>`));
    // An API token is not needed, and one sent is neither used nor set.
    const withToken = await t.http.get(`/sites/${id}/`).set(admin.auth).expect(200);
    expect(withToken.headers['set-cookie']).toBeUndefined();
  });

  it('serves a nested page with breadcrumbs, previous and next, code and task lists; `.md` gives its markdown', async () => {
    const id = await site();
    const page = html(await t.http.get(`/sites/${id}/guide/setup`).expect(200));
    expect(page).toContain('<h1>Setup</h1>');
    expect(page).toMatch(/<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol><li><a href="[^"]*\/guide">Guide<\/a><\/li><\/ol><\/nav>/);
    expect(page).toMatch(/<a class="previous" href="[^"]*\/guide" rel="prev"><span>Previous<\/span>Guide<\/a>/);
    expect(page).toContain('<ol><li><p>Install</p></li><li><p>Run</p></li></ol>');
    expect(page).toContain('<input type="checkbox" disabled checked aria-label="done"/>');
    // Highlighted on the server (shiki), in classes the site's stylesheet defines; the text stays escaped.
    expect(page).toContain(
      '<code class="language-js"><span class="line"><span class="hl-constant">console</span><span class="hl-function">.log</span>(<span class="hl-string-expression">&quot;&lt;hi>&quot;</span>)',
    );
    // The parent of the current page is open in the sidebar.
    expect(page).toMatch(
      /<li class="has-children"><a href="[^"]*\/guide">Guide<\/a><details open><summary><span class="visually-hidden">Pages in Guide<\/span><\/summary>/,
    );
    const md = await t.http.get(`/sites/${id}/guide/setup.md`).expect(200);
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.text).toBe('# Setup\n\n1. Install\n2. Run\n\n- [x] done\n\n```js\nconsole.log("<hi>")\n```\n');
    expect(setupId).toEqual(expect.any(String));
  });

  it('escapes hostile content by construction and sanitizes kept HTML', async () => {
    const id = await site();
    const page = html(await t.http.get(`/sites/${id}/evil-b-title-b`).expect(200));
    expect(page).toContain('<h1>Evil &lt;b>title&lt;/b></h1>');
    expect(page).not.toMatch(/<script>alert/);
    expect(page).not.toMatch(/onerror|onclick/i);
    expect(page).not.toContain('javascript:');
    expect(page).toContain('kept <em>inline</em>');
  });

  it('answers the site’s own 404 for an unknown page, and one plain 404 for any site it cannot show', async () => {
    const id = await site();
    const missing = await t.http.get(`/sites/${id}/no/such/page`).expect(404);
    expect(missing.text).toContain('<h1>Page not found</h1>');
    expect(missing.text).toContain('Handbook site');
    const unknown = await t.http.get('/sites/site_does_not_exist/').expect(404);
    const unpublished = await t.http.get(`/sites/${await site({}, false)}/`).expect(404);
    expect(unpublished.text).toBe(unknown.text);
    expect(unknown.text).not.toContain('Handbook');
  });

  it('answers 304 to a strong ETag, and a merge is visible on the next request', async () => {
    const id = await site();
    const first = await t.http.get(`/sites/${id}/guide/setup`).expect(200);
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    await t.http.get(`/sites/${id}/guide/setup`).set('If-None-Match', first.headers.etag).expect(304);
    await mergeChanges(t, admin, spaceId, [{ operation: 'update_page', page: setupId, document: { markdown: 'Now simpler.' } }]);
    const after = await t.http.get(`/sites/${id}/guide/setup`).set('If-None-Match', first.headers.etag).expect(200);
    expect(after.text).toContain('Now simpler.');
  });

  it('a warm page is answered from memory under the site state it was built with, until that state changes (issue #48)', async () => {
    const id = await site();
    const ds = t.app.get(DataSource);
    const first = await t.http.get(`/sites/${id}/guide/setup`).expect(200);
    const warm = await t.http.get(`/sites/${id}/guide/setup`).expect(200);
    // The same bytes and headers, but its own request id.
    expect(warm.text).toBe(first.text);
    const own = (h: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'x-request-id'].includes(k)));
    expect(own(warm.headers)).toEqual(own(first.headers));
    expect(warm.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    await t.http.get(`/sites/${id}/guide/setup`).set('If-None-Match', first.headers.etag).expect(304);
    const head = await t.http.head(`/sites/${id}/guide/setup`).expect(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(first.text)));
    // Unpublished behind Quire's back, with nothing said: the page is still answered from memory…
    await ds.query('ALTER TABLE sites DISABLE TRIGGER sites_state_notify');
    try {
      await ds.query('UPDATE sites SET published = false WHERE id = $1', [id]);
    } finally {
      await ds.query('ALTER TABLE sites ENABLE TRIGGER sites_state_notify');
    }
    expect((await t.http.get(`/sites/${id}/guide/setup`).expect(200)).text).toBe(first.text);
    // …until the site's notification arrives.
    await ds.query(`SELECT pg_notify('quire_site_states', $1)`, [id]);
    for (let i = 0; i < 100 && (await t.http.get(`/sites/${id}/guide/setup`)).status !== 404; i++)
      await new Promise((r) => setTimeout(r, 10));
    await t.http.get(`/sites/${id}/guide/setup`).expect(404);
  });

  it('a warm page answers only the visitor it was built for: another share key, no key, an expired visitor token get their own answer', async () => {
    const shared = await site({ visibility: 'share-link' });
    const link = (await t.http.post(`/v1/orgs/${orgId}/sites/${shared}/share-links`).set(admin.auth).send({ name: 'W' }).expect(201)).body;
    const cookie = `quire_share_${shared}=${link.key}`;
    await t.http.get(`/sites/${shared}/guide/setup`).set('Cookie', cookie).expect(200);
    await t.http.get(`/sites/${shared}/guide/setup`).set('Cookie', cookie).expect(200); // warm
    await t.http.get(`/sites/${shared}/guide/setup`).expect(404);
    await t.http.get(`/sites/${shared}/guide/setup`).set('Cookie', `quire_share_${shared}=not-${link.key}`).expect(404);
    await t.http.get(`/sites/${shared}/guide/setup`).set('Cookie', `${cookie}; other=1`).expect(200);

    const guarded = await site({ visibility: 'visitor-auth' });
    const key = (await t.http.get(`/v1/orgs/${orgId}/sites/${guarded}/publishing/auth`).set(admin.auth).expect(200)).body.privateKey;
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + 20)
      .sign(new TextEncoder().encode(key));
    const visitor = `quire_visitor_${guarded}=${token}`;
    await t.http.get(`/sites/${guarded}/guide/setup`).set('Cookie', visitor).expect(200);
    await t.http.get(`/sites/${guarded}/guide/setup`).set('Cookie', visitor).expect(200);
    t.clock.advance(30_000); // less than a kept state lives
    try {
      await t.http.get(`/sites/${guarded}/guide/setup`).set('Cookie', visitor).expect(404); // the token expired: never served warm
    } finally {
      t.clock.advance(-30_000);
    }
  });

  it('share-link sites: 404 without a key, open with it (kept in an HttpOnly cookie), closed again once the link is deactivated', async () => {
    const id = await site({ visibility: 'share-link' });
    await t.http.get(`/sites/${id}/`).expect(404);
    const link = (await t.http.post(`/v1/orgs/${orgId}/sites/${id}/share-links`).set(admin.auth).send({ name: 'Partners' }).expect(201))
      .body;
    const opened = await t.http.get(`/sites/${id}/?shareKey=${link.key}`).expect(200);
    expect(opened.headers['x-robots-tag']).toBe('noindex');
    expect(opened.text).toContain('<meta name="robots" content="noindex"/>');
    const cookie = opened.headers['set-cookie'] as unknown as string[];
    expect(cookie[0]).toMatch(new RegExp(`^quire_share_${id}=.+; Path=/sites/${id}/; HttpOnly; SameSite=Lax$`));
    const next = await t.http.get(`/sites/${id}/guide/setup`).set('Cookie', cookie[0].split(';')[0]).expect(200);
    expect(next.headers['cache-control']).toBe('private, no-cache');
    await t.http.get(`/sites/${id}/guide/setup?shareKey=wrong`).expect(404);
    await t.http.patch(`/v1/orgs/${orgId}/sites/${id}/share-links/${link.id}`).set(admin.auth).send({ active: false }).expect(200);
    await t.http.get(`/sites/${id}/guide/setup`).set('Cookie', cookie[0].split(';')[0]).expect(404);
  });

  it('visitor-auth sites: 404 without a valid visitor token, or the site’s fallback URL when it has one; a token signed with the site’s key opens it', async () => {
    const id = await site({ visibility: 'visitor-auth' });
    const auth = (await t.http.get(`/v1/orgs/${orgId}/sites/${id}/publishing/auth`).set(admin.auth).expect(200)).body;
    const sign = (key: string) =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(key));
    await t.http.get(`/sites/${id}/`).expect(404);
    await t.http.get(`/sites/${id}/?jwt_token=${await sign('not-the-key')}`).expect(404);
    const res = await t.http.get(`/sites/${id}/?jwt_token=${await sign(auth.privateKey)}`).expect(200);
    expect(res.text).toContain('<h1>Introduction</h1>');
    // With a fallback URL (the site's sign-in), a visitor without a valid token is sent there, with the page they asked for.
    await t.http
      .patch(`/v1/orgs/${orgId}/sites/${id}/publishing/auth`)
      .set(admin.auth)
      .send({ backend: 'custom', fallbackURL: 'https://login.acme.example/start?app=docs' })
      .expect(200);
    const redirected = await t.http.get(`/sites/${id}/guide/setup?jwt_token=expired.or.forged`).expect(302);
    expect(redirected.headers.location).toBe(`https://login.acme.example/start?app=docs&location=%2Fsites%2F${id}%2Fguide%2Fsetup`);
    expect(redirected.headers['set-cookie']).toBeUndefined();
    // Other sites still answer the plain 404: nothing says they exist.
    await t.http.get('/sites/site_does_not_exist/guide/setup').expect(404);
  });

  it('serves the site’s stylesheet and script from its own origin, and never a file of a space the site does not show', async () => {
    const id = await site();
    const css = await t.http.get(`/sites/${id}/~site.css`).expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.text).toMatch(/^:root\{--primary:#346DDB;--on-primary:#fff\}/);
    expect(css.text).toContain('.hl-function{color:#8250df}');
    expect(css.text).toContain(':root.theme-dark .hl-function{color:#d2a8ff}');
    await t.http.get(`/sites/${id}/~site.js`).expect(200);
    const other = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Private' }).expect(201)).body.id;
    await t.http.get(`/sites/${id}/~files/${other}/anything`).expect(404);
    await t.http.get(`/sites/${id}/~files/${spaceId}/no-such-file`).expect(404);
  });

  it('gives crawlers and agents robots.txt, sitemap.xml, llms.txt and llms-full.txt, without hidden pages', async () => {
    const id = await site();
    const robots = await t.http.get(`/sites/${id}/robots.txt`).expect(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.text).toMatch(new RegExp(`^User-agent: \\*\nAllow: /\n\nSitemap: http://[^/]+/sites/${id}/sitemap.xml\n$`));
    const sitemap = await t.http.get(`/sites/${id}/sitemap.xml`).expect(200);
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(/^.*\/sites\/[^/]+\//, ''));
    expect(locs).toEqual(['introduction', 'guide', 'guide/setup', 'evil-b-title-b']);
    expect(sitemap.text).toMatch(/<lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z<\/lastmod>/);
    const llms = (await t.http.get(`/sites/${id}/llms.txt`).expect(200)).text;
    expect(llms.startsWith('# Handbook site\n\n## Handbook\n\n')).toBe(true);
    expect(llms).toMatch(new RegExp(`- \\[Introduction\\]\\(http://[^)]+/sites/${id}/introduction\\.md\\): Where to start\n`));
    expect(llms).toContain('[Evil <b>title</b>](');
    const full = (await t.http.get(`/sites/${id}/llms-full.txt`).expect(200)).text;
    expect(full).toContain('# Setup\n\nSource: ');
    expect(full).toMatch(new RegExp(`Welcome\\. See \\[setup\\]\\(http://[^)]+/sites/${id}/guide/setup\\)\\.`));
    // A hidden page leaves every list, and stays reachable by its URL.
    await mergeChanges(t, admin, spaceId, [{ operation: 'update_page', page: setupId, hidden: true }]);
    const after = (await t.http.get(`/sites/${id}/sitemap.xml`).expect(200)).text;
    expect(after).not.toContain('guide/setup');
    expect((await t.http.get(`/sites/${id}/llms.txt`).expect(200)).text).not.toContain('Setup');
    expect((await t.http.get(`/sites/${id}/guide`).expect(200)).text).not.toMatch(/>Setup<\/a>/);
    await t.http.get(`/sites/${id}/guide/setup`).expect(200);
    await mergeChanges(t, admin, spaceId, [{ operation: 'update_page', page: setupId, hidden: false }]);
    // A site that is not public asks crawlers to stay out.
    const unlisted = await site({ visibility: 'unlisted' });
    expect((await t.http.get(`/sites/${unlisted}/robots.txt`).expect(200)).text).toBe('User-agent: *\nDisallow: /\n');
  });

  it('searches the pages a visitor may see, links each hit to its page, escapes what it shows', async () => {
    const id = await site();
    // This test's own words (an earlier test rewrites the page): only the setup page speaks of descaling.
    await mergeChanges(t, admin, spaceId, [
      { operation: 'update_page', page: setupId, document: { markdown: '## Descaling\n\nDescale the kettle with citric acid.' } },
    ]);
    const empty = await t.http.get(`/sites/${id}/~search`).expect(200);
    expect(empty.text).toContain('<h1>Search</h1>');
    const res = await t.http.get(`/sites/${id}/~search?q=descaling`).expect(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    // Each hit carries its page's space and id (a click on it is counted in the site's insights).
    const links = [...res.text.matchAll(/<li><a href="([^"]+)" data-space="[^"]+" data-page="[^"]+">([^<]+)<\/a>/g)].map((m) => [
      m[1].replace(/^.*\/sites\/[^/]+\//, ''),
      m[2],
    ]);
    expect(links).toEqual([['guide/setup#descaling', 'Setup › Descaling']]);
    expect(res.text).toMatch(/<mark>[Dd]escal(e|ing)<\/mark>/);
    // The same hits as JSON, for search as you type: the excerpt sanitized to <mark> only.
    const json = await t.http.get(`/sites/${id}/~search.json?q=descaling`).expect(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body).toEqual({
      query: 'descaling',
      count: 1,
      items: [
        {
          title: 'Setup',
          section: 'Descaling',
          spaceId: expect.any(String),
          pageId: expect.any(String),
          url: expect.stringMatching(new RegExp(`/sites/${id}/guide/setup#descaling$`)),
          where: 'Handbook › Guide',
          excerpt: expect.stringMatching(/<mark>[Dd]escal(e|ing)<\/mark>/),
        },
      ],
    });
    expect((await t.http.get(`/sites/${id}/~search.json?q=`).expect(200)).body).toEqual({ query: '', count: 0, items: [] });
    expect(
      (await t.http.get(`/sites/${id}/~search.json?q=${encodeURIComponent('<img src=x onerror=alert(1)>')}`).expect(200)).body.items,
    ).toEqual([]);
    const tooLong = await t.http.get(`/sites/${id}/~search.json?q=${'a'.repeat(600)}`).expect(400);
    expect(tooLong.body).toEqual({ error: { code: 400, message: expect.any(String) } });
    // Hostile queries come back as text.
    const hostile = await t.http.get(`/sites/${id}/~search?q=${encodeURIComponent('<script>alert(1)</script>')}`).expect(200);
    expect(hostile.text).not.toContain('<script>alert');
    expect(hostile.text).toContain('value="&lt;script>alert(1)&lt;/script>"');
    // A hidden page is not found by search.
    await mergeChanges(t, admin, spaceId, [{ operation: 'update_page', page: setupId, hidden: true }]);
    const hidden = await t.http.get(`/sites/${id}/~search?q=descaling`).expect(200);
    expect(hidden.text).not.toMatch(/guide\/setup/);
    expect(hidden.text).toContain('No results for “descaling”.');
    await mergeChanges(t, admin, spaceId, [{ operation: 'update_page', page: setupId, hidden: false }]);
    // Too long a query is the visitor's mistake, said on the page.
    const long = await t.http.get(`/sites/${id}/~search?q=${'a'.repeat(600)}`).expect(400);
    expect(long.text).toContain('role="alert"');
  });

  it('renders OpenAPI operation blocks from the organization’s spec, follows a new version of it, and never another organization’s', async () => {
    const petstore = readFileSync('libs/openapi-specs/src/test/fixtures/swagger-2.0-petstore.yaml', 'utf8');
    const specUrl = (org: string, slug: string) => `/v1/orgs/${org}/openapi/${slug}`;
    const processed = async (org: string, slug: string, who: TestUser) => {
      for (const deadline = Date.now() + 20_000; ;) {
        const spec = (await t.http.get(specUrl(org, slug)).set(who.auth).expect(200)).body;
        if (spec.processingState === 'complete' && spec.lastProcessedAt) return;
        if (Date.now() > deadline) throw new Error(`${slug} still ${spec.processingState}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await t.http
      .put(specUrl(orgId, 'pets'))
      .set(admin.auth)
      .send({ source: { text: petstore } })
      .expect(201);
    // Another organization's spec, with a slug this organization's pages name: never shown here.
    const stranger = await t.user('openapi-stranger');
    const strangerOrg = await t.organization(stranger);
    await t.http
      .put(specUrl(strangerOrg, 'theirs'))
      .set(stranger.auth)
      .send({ source: { text: petstore } })
      .expect(201);
    await processed(orgId, 'pets', admin);
    await processed(strangerOrg, 'theirs', stranger);
    const op = (spec: string, method: string, path: string) => ({
      object: 'block',
      type: 'openapi-operation',
      isVoid: true,
      data: { ref: { kind: 'openapi', spec }, method, path },
    });
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'API' }).expect(201)).body.id;
    await mergeChanges(t, admin, space, [
      {
        operation: 'insert_page',
        title: 'Pets API',
        document: {
          document: {
            object: 'document',
            data: {},
            nodes: [op('pets', 'get', '/pet/{petId}'), op('pets', 'delete', '/nope'), op('theirs', 'get', '/pet/{petId}')],
          },
        },
      },
    ]);
    const id = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'API site' }).expect(201)).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${id}/site-spaces`).set(admin.auth).send({ spaceId: space }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${id}/publish`).set(admin.auth).expect(200);

    const page = html(await t.http.get(`/sites/${id}/pets-api`).expect(200));
    expect(page).toContain('<h2 id="find-pet-by-id">Find pet by ID');
    expect(page).toContain('<span class="api-method api-get">GET</span> <code>http://petstore.swagger.io/v2/pet/{petId}</code>');
    expect(page).toContain('<td><code>petId</code><span class="api-required"> required</span></td><td>path</td>');
    expect(page).toContain('<code>application/json</code>');
    expect(page).toMatch(/<code class="language-json">.*doggie/s);
    expect(page).toContain('DELETE /nope (pets) is not available.');
    expect(page).toContain('GET /pet/{petId} (theirs) is not available.');

    // A new version of the spec shows on the next request (the page's cache depends on the spec's version).
    await t.http
      .put(specUrl(orgId, 'pets'))
      .set(admin.auth)
      .send({ source: { text: petstore.replace('summary: Find pet by ID', 'summary: Fetch one pet') } })
      .expect(200);
    await processed(orgId, 'pets', admin);
    for (const deadline = Date.now() + 10_000; ;) {
      const again = html(await t.http.get(`/sites/${id}/pets-api`).expect(200));
      if (again.includes('Fetch one pet')) break;
      if (Date.now() > deadline) throw new Error('the page still shows the old version of the spec');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('adaptive content from unsigned claims (the gitbook-visitor-public cookie, visitor.x query parameters): only the schema’s unsigned ones count', async () => {
    const base = (id: string) => `/v1/orgs/${orgId}/sites/${id}`;
    const beta = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Beta docs' }).expect(201)).body.id;
    await mergeChanges(t, admin, beta, [{ operation: 'insert_page', title: 'Early access', document: { markdown: 'Secret roadmap.' } }]);
    const paid = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Paid docs' }).expect(201)).body.id;
    await mergeChanges(t, admin, paid, [{ operation: 'insert_page', title: 'Premium', document: { markdown: 'Paid only.' } }]);
    const id = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Adaptive site' }).expect(201)).body.id;
    await t.http
      .post(`${base(id)}/sections`)
      .set(admin.auth)
      .send({ spaceId, title: 'Handbook' })
      .expect(201);
    const betaSection = (
      await t.http
        .post(`${base(id)}/sections`)
        .set(admin.auth)
        .send({ spaceId: beta, title: 'Beta' })
        .expect(201)
    ).body;
    const paidSection = (
      await t.http
        .post(`${base(id)}/sections`)
        .set(admin.auth)
        .send({ spaceId: paid, title: 'Paid' })
        .expect(201)
    ).body;
    await t.http
      .patch(`${base(id)}/sections/${betaSection.id}`)
      .set(admin.auth)
      .send({ condition: 'visitor.claims.unsigned.beta' })
      .expect(200);
    await t.http
      .patch(`${base(id)}/sections/${paidSection.id}`)
      .set(admin.auth)
      .send({ condition: 'visitor.claims.isPaid' })
      .expect(200);
    await putAdaptiveSchema(t, admin, base(id), { signed: ['isPaid'], unsigned: ['beta'] });
    await t.http
      .patch(base(id))
      .set(admin.auth)
      .send({ adaptiveContent: { enabled: true } })
      .expect(200);
    await t.http
      .post(`${base(id)}/publish`)
      .set(admin.auth)
      .expect(200);
    const betaPath = betaSection.path as string;
    const visit = (path: string, cookie?: string) => {
      const req = t.http.get(`/sites/${id}/${path}`);
      return cookie ? req.set('Cookie', cookie) : req;
    };
    const publicClaims = (claims: unknown) => `gitbook-visitor-public=${encodeURIComponent(JSON.stringify(claims))}`;

    // No claims: the beta section is gone from the tabs, its pages, the sitemap and llms.txt.
    const home = html(await visit('').expect(200));
    expect(home).not.toContain('Beta');
    await visit(`${betaPath}/early-access`).expect(404);
    expect((await visit('sitemap.xml').expect(200)).text).not.toContain('early-access');
    expect((await visit('llms.txt').expect(200)).text).not.toContain('Early access');
    // The cookie's unsigned claim shows it everywhere; so does a visitor.beta query parameter.
    const withCookie = html(await visit('', publicClaims({ beta: true })).expect(200));
    expect(withCookie).toContain(`/${betaPath}/">Beta</a>`);
    expect(html(await visit(`${betaPath}/early-access`, publicClaims({ beta: true })).expect(200))).toContain('Secret roadmap.');
    expect((await visit('sitemap.xml', publicClaims({ beta: true })).expect(200)).text).toContain('early-access');
    await visit(`${betaPath}/early-access?visitor.beta=true`).expect(200);
    // A visitor cannot give themselves a claim the schema keeps for signed tokens, nor break the page.
    await visit(`${paidSection.path}/premium`, publicClaims({ isPaid: true })).expect(404);
    await visit(`${paidSection.path}/premium?visitor.isPaid=true`).expect(404);
    await visit(`${betaPath}/early-access`, publicClaims({ beta: 'yes' })).expect(404);
    await visit('', 'gitbook-visitor-public=%7Bnot-json').expect(200);
    await visit('', publicClaims([1, 2])).expect(200);
    await visit('?visitor.__proto__=x&visitor.a.b=c').expect(200);
  });

  it('urls.preview: a member’s signed, short-lived link shows the site as it is now, published or not; forged, foreign or expired links show nothing', async () => {
    const id = await site({}, false);
    const other = await site({}, false);
    const preview = (await t.http.get(`/v1/orgs/${orgId}/sites/${id}`).set(admin.auth).expect(200)).body.urls.preview as string;
    expect(preview).toMatch(new RegExp(`^http://quire.test/sites/${id}/~preview/\\d+\\.[\\w-]{43}/$`));
    const path = new URL(preview).pathname;
    const token = path.split('/')[4];
    await t.http.get(`/sites/${id}/`).expect(404); // not published
    const start = await t.http.get(path).expect(302);
    expect(start.headers.location).toBe(`http://quire.test/sites/${id}/`);
    const set = String(start.headers['set-cookie']);
    expect(set).toMatch(
      new RegExp(`^quire_preview_${id}=${token.replace('.', '\\.')}; Path=/sites/${id}/; Expires=[^;]+; HttpOnly; SameSite=Lax`),
    );
    const cookie = `quire_preview_${id}=${token}`;
    const page = await t.http.get(`/sites/${id}/guide/setup`).set('Cookie', cookie).expect(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.text).toContain('<meta name="robots" content="noindex"/>');
    // A path after the token is kept.
    expect((await t.http.get(`${path}guide/setup`).expect(302)).headers.location).toBe(`http://quire.test/sites/${id}/guide/setup`);
    // Forged, another site's, or garbage: the plain 404, no cookie.
    const forged = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const bad of [
      `/sites/${id}/~preview/${forged}/`,
      `/sites/${other}/~preview/${token}/`,
      `/sites/${id}/~preview/x/`,
      `/sites/${id}/~preview`,
    ]) {
      const res = await t.http.get(bad).expect(404);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    await t.http.get(`/sites/${other}/`).set('Cookie', `quire_preview_${other}=${token}`).expect(404);
    // A forged expiry breaks the signature; once the link has expired, its cookie opens nothing.
    const [expires, sig] = token.split('.');
    await t.http.get(`/sites/${id}/~preview/${Number(expires) + 3600}.${sig}/`).expect(404);
    t.clock.advance(2 * 60 * 60_000);
    try {
      await t.http.get(`/sites/${id}/`).set('Cookie', cookie).expect(404);
      await t.http.get(path).expect(404);
    } finally {
      t.clock.advance(-2 * 60 * 60_000);
    }
  });

  it('a large space’s sidebar holds the top level and the current branch only, so pages stay light', async () => {
    const big = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Big' }).expect(201)).body.id;
    // A change request takes 50 changes at a time: one chapter of 40 topics each.
    for (let k = 0; k < 10; k++) {
      const changes: object[] = [
        { operation: 'insert_page', ref: 'c', title: `Chapter ${k + 1}`, document: { markdown: `Chapter ${k + 1}.` } },
      ];
      for (let p = 0; p < 40; p++)
        changes.push({ operation: 'insert_page', into: 'c', title: `Topic ${k + 1}.${p + 1}`, document: { markdown: 'A page.' } });
      await mergeChanges(t, admin, big, changes);
    }
    const id = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Big site' }).expect(201)).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${id}/site-spaces`).set(admin.auth).send({ spaceId: big }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${id}/publish`).set(admin.auth).expect(200);
    const page = html(await t.http.get(`/sites/${id}/chapter-3/topic-3-5`).expect(200));
    const sidebar = page.slice(page.indexOf('<nav class="sidebar"'), page.indexOf('</nav>', page.indexOf('<nav class="sidebar"')));
    // Every chapter, the current chapter's 40 topics, no other chapter's topics.
    for (let k = 1; k <= 10; k++) expect(sidebar).toContain(`>Chapter ${k}</a>`);
    expect(sidebar.match(/>Topic 3\.\d+</g)).toHaveLength(40);
    expect(sidebar).not.toContain('Topic 4.1<');
    expect(sidebar).toContain('aria-current="page" class="current">Topic 3.5</a>');
    // The other chapters say they have sub-pages; their own page lists them.
    expect(sidebar.match(/class="has-more"/g)).toHaveLength(9);
    expect(html(await t.http.get(`/sites/${id}/chapter-4`).expect(200))).toContain('>Topic 4.40</a>');
    expect(Buffer.byteLength(page)).toBeLessThan(20_000);
  });

  it('shows the customization: its title, logo and favicon per theme, an emoji favicon, footer, corners and font; unsafe URLs left out', async () => {
    const id = await site();
    const base = `/v1/orgs/${orgId}/sites/${id}`;
    const current = (await t.http.get(`${base}/customization`).set(admin.auth).expect(200)).body;
    const { updatedAt: _u, ...settings } = current;
    const url = (to: string) => ({ kind: 'url', url: to });
    await t.http
      .put(`${base}/customization`)
      .set(admin.auth)
      .send({
        ...settings,
        title: 'Example <Docs>',
        styling: { ...settings.styling, corners: 'straight', font: 'RobotoSlab' },
        header: { ...settings.header, logo: { light: 'https://cdn.example/logo.svg', dark: 'https://cdn.example/logo-dark.svg' } },
        favicon: { icon: { light: 'https://cdn.example/fav.png', dark: 'https://cdn.example/fav-dark.png' } },
        footer: {
          groups: [
            {
              title: 'Company',
              links: [
                { title: 'About <us>', to: url('https://example.com/about') },
                { title: 'Bad', to: url('javascript:alert(1)') },
              ],
            },
          ],
          copyright: '© 2026 Example <Inc>',
        },
        socialPreview: { url: 'https://cdn.example/preview.png' },
      })
      .expect(200);
    const page = html(await t.http.get(`/sites/${id}/`).expect(200));
    // Link unfurls: the site's preview image (a page without a cover), as a large card.
    expect(page).toContain('<meta property="og:image" content="https://cdn.example/preview.png"/>');
    expect(page).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(page).toContain('<html lang="en" class="corners-straight">');
    // The customization's title names the site (escaped), in place of the site's own.
    expect(page).toContain('Example &lt;Docs>');
    expect(page).toContain('<img class="logo-light" src="https://cdn.example/logo.svg" alt/>');
    expect(page).toContain('<img class="logo-dark" src="https://cdn.example/logo-dark.svg" alt/>');
    expect(page).toContain('<link rel="icon" href="https://cdn.example/fav.png" media="(prefers-color-scheme: light)"/>');
    expect(page).toContain('<link rel="icon" href="https://cdn.example/fav-dark.png" media="(prefers-color-scheme: dark)"/>');
    expect(page).toContain('<p class="footer-title">Company</p><ul><li><a href="https://example.com/about">About &lt;us></a></li></ul>');
    expect(page).not.toContain('javascript:');
    expect(page).toContain('<p class="copyright">© 2026 Example &lt;Inc></p>');
    const css = (await t.http.get(`/sites/${id}/~site.css`).expect(200)).text;
    expect(css).toContain('html{font-family:"Roboto Slab",system-ui');
    // An emoji favicon is drawn in an SVG data URL; an http (not https) logo is not loaded.
    await t.http
      .put(`${base}/customization`)
      .set(admin.auth)
      .send({
        ...settings,
        favicon: { emoji: '📘' },
        header: { ...settings.header, logo: { light: 'http://cdn.example/l.svg', dark: 'http://cdn.example/d.svg' } },
      })
      .expect(200);
    const again = html(await t.http.get(`/sites/${id}/`).expect(200));
    expect(again).toMatch(/<link rel="icon" href="data:image\/svg\+xml,[^"]*%F0%9F%93%98/);
    expect(again).not.toContain('class="logo-light"');
    expect(again).not.toContain('class="site-footer"');
    expect(again).not.toContain('og:image');
    expect(again).toContain('<meta name="twitter:card" content="summary"/>');
  });

  it("declares its icon and answers favicon.ico: the site's favicon, else Quire's icon in its primary colour; the API's host too", async () => {
    const id = await site();
    const base = `/v1/orgs/${orgId}/sites/${id}`;
    // No favicon set: the page declares the site's favicon.ico, which is Quire's icon (an SVG).
    const page = html(await t.http.get(`/sites/${id}/`).expect(200));
    expect(page).toContain(`<link rel="icon" href="http://quire.test/sites/${id}/favicon.ico" type="image/svg+xml"/>`);
    const icon = await t.http.get(`/sites/${id}/favicon.ico`).expect(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers.etag).toBeTruthy();
    expect(String(icon.body)).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*><rect [^>]*fill="#346ddb"/i);
    await t.http.get(`/sites/${id}/favicon.ico`).set('If-None-Match', icon.headers.etag).expect(304);
    // The site's primary colour tints it.
    const { updatedAt: _u, ...settings } = (await t.http.get(`${base}/customization`).set(admin.auth).expect(200)).body;
    const put = (more: object) =>
      t.http
        .put(`${base}/customization`)
        .set(admin.auth)
        .send({ ...settings, ...more })
        .expect(200);
    await put({ styling: { ...settings.styling, primaryColor: { light: '#aa3300', dark: '#ff6633' } } });
    expect(String((await t.http.get(`/sites/${id}/favicon.ico`).expect(200)).body)).toContain('fill="#aa3300"');
    // An emoji: the same emoji at favicon.ico; images: favicon.ico sends the browser to the light one.
    await put({ favicon: { emoji: '📘' } });
    expect(Buffer.from((await t.http.get(`/sites/${id}/favicon.ico`).expect(200)).body).toString('utf8')).toContain('📘');
    await put({ favicon: { icon: { light: 'https://cdn.example/fav.png', dark: 'https://cdn.example/fav-dark.png' } } });
    expect((await t.http.get(`/sites/${id}/favicon.ico`).expect(302)).headers.location).toBe('https://cdn.example/fav.png');
    // Below a basename the icon stays at the root of the site.
    await t.http.patch(base).set(admin.auth).send({ basename: 'docs' }).expect(200);
    await t.http.get(`/sites/${id}/favicon.ico`).expect(302);
    // The 404 page declares it too; a site that cannot be shown answers Quire's icon, not a 404.
    expect(html(await t.http.get(`/sites/${id}/docs/no-such-page`).expect(404))).toContain('<link rel="icon"');
    const hidden = await site({}, false);
    expect((await t.http.get(`/sites/${hidden}/favicon.ico`).expect(200)).headers['content-type']).toMatch(/^image\/svg\+xml/);
    // A visitor-auth site sends a visitor without a token to its sign-in, but not for its icon.
    const guarded = await site({ visibility: 'visitor-auth' });
    await t.http
      .patch(`/v1/orgs/${orgId}/sites/${guarded}/publishing/auth`)
      .set(admin.auth)
      .send({ fallbackURL: 'https://login.example.com/' })
      .expect(200);
    expect((await t.http.get(`/sites/${guarded}/`).expect(302)).headers.location).toMatch(/^https:\/\/login\.example\.com\//);
    expect((await t.http.get(`/sites/${guarded}/favicon.ico`).expect(200)).headers['content-type']).toMatch(/^image\/svg\+xml/);
    // The API's own origin answers one as well (browsers ask every origin for it).
    const api = await t.http.get('/favicon.ico').expect(200);
    expect(api.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(api.body)).toContain('<svg');
    expect((await t.http.post('/favicon.ico')).status).not.toBe(200);
  });

  it('page conditions (adaptive content): a page whose condition fails is gone from navigation, its URL, search, sitemap and llms.txt', async () => {
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Adaptive pages' }).expect(201)).body.id;
    const cr = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const written = await t.http
      .post(`/v1/spaces/${space}/change-requests/${cr}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } },
          {
            operation: 'insert_page',
            ref: 'beta',
            title: 'Beta features',
            condition: 'visitor.claims.unsigned.beta',
            document: { markdown: 'The quokka mode.' },
          },
          { operation: 'insert_page', into: 'beta', title: 'Beta details', document: { markdown: 'More quokka.' } },
          { operation: 'insert_page', title: 'Broken', condition: 'visitor.claims.(', document: { markdown: 'Never shown.' } },
        ],
      })
      .expect(200);
    await t.http.post(`/v1/spaces/${space}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    const pages = (await t.http.get(`/v1/spaces/${space}/content`).set(admin.auth).expect(200)).body.pages;
    expect(pages.find((p: { title: string }) => p.title === 'Beta features').condition).toBe('visitor.claims.unsigned.beta');
    expect(pages.find((p: { title: string }) => p.title === 'Welcome').condition).toBeUndefined();

    const id = (
      await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Adaptive pages', visibility: 'public' }).expect(201)
    ).body.id;
    const base = `/v1/orgs/${orgId}/sites/${id}`;
    await t.http.post(`${base}/site-spaces`).set(admin.auth).send({ spaceId: space }).expect(201);
    await putAdaptiveSchema(t, admin, base, { unsigned: ['beta'] });
    await t.http.post(`${base}/publish`).set(admin.auth).expect(200);
    // Adaptive content off: conditions do not apply.
    expect(html(await t.http.get(`/sites/${id}/beta-features`).expect(200))).toContain('The quokka mode.');
    await t.http
      .patch(base)
      .set(admin.auth)
      .send({ adaptiveContent: { enabled: true } })
      .expect(200);

    const beta = `gitbook-visitor-public=${encodeURIComponent(JSON.stringify({ beta: true }))}`;
    const as = (path: string, cookie?: string) =>
      cookie ? t.http.get(`/sites/${id}/${path}`).set('Cookie', cookie) : t.http.get(`/sites/${id}/${path}`);
    const home = html(await as('').expect(200));
    expect(home).not.toContain('Beta features');
    expect(home).not.toContain('Broken');
    await as('beta-features').expect(404);
    await as('beta-features/beta-details').expect(404);
    await as('broken').expect(404);
    expect(html(await as('~search?q=quokka').expect(200))).toContain('No results');
    expect((await as('sitemap.xml').expect(200)).text).not.toContain('beta-features');
    expect((await as('llms-full.txt').expect(200)).text).not.toContain('quokka');
    // With the claim: everywhere again (the broken condition still hides its page).
    expect(html(await as('', beta).expect(200))).toContain('>Beta features</a>');
    expect(html(await as('beta-features/beta-details', beta).expect(200))).toContain('More quokka.');
    expect(html(await as('~search?q=quokka', beta).expect(200))).toContain('Beta features');
    expect((await as('sitemap.xml', beta).expect(200)).text).toContain('beta-features');
    await as('broken', beta).expect(404);
    // A condition removed (null) shows the page to everyone; a wrong type is refused.
    const betaId = written.body.changes[1].page.id;
    await mergeChanges(t, admin, space, [{ operation: 'update_page', page: betaId, condition: null }]);
    await as('beta-features').expect(200);
    const cr2 = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${space}/change-requests/${cr2}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'update_page', page: betaId, condition: 42 }] })
      .expect(400);
  });

  it('answers hostile visitor URLs with a 4xx, never a 500: NUL bytes, lone surrogates, arrays for strings, forged tokens', async () => {
    const id = await site();
    const paths = [
      `/sites/${id}/%00`,
      `/sites/${id}/guide/%ED%A0%80`,
      `/sites/${id}/~search?q=%00`,
      `/sites/${id}/~search.json?q[]=a&q[]=b`,
      `/sites/${id}/?shareKey[]=x&jwt_token[]=y&visitor.beta[]=1`,
      `/sites/${id}/~site.css?s[]=x`,
      `/sites/${id}/~preview/${'9'.repeat(40)}.${'A'.repeat(43)}/`,
      `/sites/${id}/~files/%00/%00`,
      `/sites/%00/`,
      `/sites/${id}/${'a/'.repeat(500)}`,
    ];
    for (const path of paths) {
      const res = await t.http.get(path);
      expect([200, 301, 302, 400, 404]).toContain(res.status);
    }
    await t.http.get(`/sites/${id}/`).set('Cookie', 'gitbook-visitor-public=%ZZ; quire_share_x=%00').expect(200);
  });

  it('tokenizes the code of a site’s other pages in the background after a render, so their first view finds it ready', async () => {
    const sid = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Code' }).expect(201)).body.id;
    const crystal = 'def greet(name : String)\n  puts "Hello #{name}"\nend';
    await mergeChanges(t, admin, sid, [
      { operation: 'insert_page', title: 'Start', document: { markdown: 'No code here.' } },
      { operation: 'insert_page', title: 'Crystal', document: { markdown: `\`\`\`crystal\n${crystal}\n\`\`\`\n` } },
    ]);
    const id = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Code site' }).expect(201)).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${id}/site-spaces`).set(admin.auth).send({ spaceId: sid }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${id}/publish`).set(admin.auth).expect(200);
    const highlighter = t.app.get(CodeHighlighter);
    expect(highlighter.tokens(crystal, 'crystal')).toBeNull(); // nothing loaded crystal's grammar yet
    await t.http.get(`/sites/${id}/`).expect(200); // renders Start only
    for (let i = 0; i < 100 && !highlighter.tokens(crystal, 'crystal'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(highlighter.tokens(crystal, 'crystal')).not.toBeNull();
    expect(html(await t.http.get(`/sites/${id}/crystal`).expect(200))).toContain('<span class="hl-keyword">def</span>');
  });
});
