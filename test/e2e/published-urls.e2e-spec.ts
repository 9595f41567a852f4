import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import { GitBookAPI } from '@gitbook/api';
import { VISITOR_READABLE } from '@app/http-kit';
import { SignJWT } from 'jose';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges, spaceWithPages } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';
import { createSite } from '../support/sites';

/**
 * Official resolvePublishedContentByUrl (`POST /urls/published`) and its deprecated GET: a URL of a published site
 * read back as its visitor reads it (site, section, site space, space, page path), with a short-lived `apiToken`
 * that reads that content as this visitor, and nothing else.
 */
describe('resolvePublishedContentByUrl', () => {
  let t: TestApp;
  let admin: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let spaceId: string;
  let siteId: string;
  let betaPageId: string;
  let notesPageId: string;
  let served: ReturnType<typeof servedValidator>;
  const official = officialValidator();
  const ORIGIN = 'https://quire.test';
  const HOST = 'docs.acme.test';

  const resolve = (body: object) => t.http.post('/v1/urls/published').send(body);
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const sign = (key: string, claims: Record<string, unknown> = {}) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(key));
  const site = (fields: object, space = spaceId) => createSite(t, admin, orgId, [space], { fields });

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: ORIGIN });
    admin = await t.user('admin');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.organization(outsider, 'Elsewhere');
    spaceId = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Handbook' }).expect(201)).body.id;
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const written = await t.http
      .post(`/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`)
      .set(admin.auth)
      .send({
        changes: [
          { operation: 'insert_page', title: 'Introduction', document: { markdown: 'Welcome.' } },
          { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
          { operation: 'insert_page', into: 'guide', title: 'Setup', document: { markdown: 'Install it.' } },
          {
            operation: 'insert_page',
            ref: 'beta',
            title: 'Beta features',
            condition: 'visitor.claims.unsigned.beta',
            document: { markdown: 'The quokka mode.' },
          },
          { operation: 'insert_page', into: 'beta', title: 'Beta details', document: { markdown: 'More quokka.' } },
          {
            operation: 'insert_page',
            title: 'Notes',
            document: {
              markdown:
                'Everyone reads this.\n\n{% if visitor.claims.unsigned.beta %}\nSecret beta notes.\n{% else %}\nAsk us for the beta.\n{% endif %}\n',
            },
          },
        ],
      })
      .expect(200);
    betaPageId = written.body.changes[3].page.id;
    notesPageId = written.body.changes[5].page.id;
    await t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    siteId = await createSite(t, admin, orgId, [spaceId], { fields: { visibility: 'public' }, adaptive: { unsigned: ['beta'] } });
    served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
  });
  afterAll(async () => t.close());

  it('resolves a page URL of a published site to its organization, site, site space, space and path, with no authentication; the answer matches both documents', async () => {
    const { port } = t.app.getHttpServer().address() as { port: number };
    const api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}` });
    const res = await api.urls.resolvePublishedContentByUrl({ url: `${ORIGIN}/sites/${siteId}/guide/setup?x=1#install` });
    expect(res.status).toBe(200);
    const body = res.data as unknown as Record<string, unknown>;
    expect(official.check('PublishedSiteContent', body)).toBe('');
    expect(served.check('POST', '/v1/urls/published', 200, body)).toEqual([]);
    const siteSpace = (await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`).set(admin.auth).expect(200)).body.items[0];
    expect(body).toMatchObject({
      organization: orgId,
      site: siteId,
      siteSpace: siteSpace.id,
      space: spaceId,
      pathname: 'guide/setup',
      basePath: `/sites/${siteId}/`,
      siteBasePath: `/sites/${siteId}/`,
      complete: true,
      canonicalUrl: `${ORIGIN}/sites/${siteId}/guide/setup`,
    });
    expect(body.apiToken).toEqual(expect.stringMatching(/^qv1\./));
    expect(body).not.toHaveProperty('preview');
    expect(body).not.toHaveProperty('shareKey');
    // The site's root is its first page; the deprecated GET answers the same; a `.md` URL is the page too.
    const root = (
      await t.http
        .get('/v1/urls/published')
        .query({ url: `${ORIGIN}/sites/${siteId}` })
        .expect(200)
    ).body;
    expect(served.check('GET', '/v1/urls/published', 200, root)).toEqual([]);
    expect(root).toMatchObject({ space: spaceId, pathname: '', canonicalUrl: `${ORIGIN}/sites/${siteId}/` });
    expect((await resolve({ url: `${ORIGIN}/sites/${siteId}/guide/setup.md` }).expect(200)).body.pathname).toBe('guide/setup');
    // Who asks does not matter: a member of another organization gets what any visitor gets.
    const asOutsider = (
      await resolve({ url: `${ORIGIN}/sites/${siteId}/guide/setup` })
        .set(outsider.auth)
        .expect(200)
    ).body;
    expect({ ...asOutsider, apiToken: '' }).toEqual({ ...body, apiToken: '' });
  });

  it('answers 404 for what the site would not show: no such page, a page the claims hide, an unpublished or unknown site, another origin', async () => {
    expectError(await resolve({ url: `${ORIGIN}/sites/${siteId}/no-such-page` }), 404);
    expectError(await resolve({ url: `${ORIGIN}/sites/${siteId}/beta-features` }), 404);
    expectError(await resolve({ url: `${ORIGIN}/sites/${siteId}/beta-features/beta-details` }), 404);
    expectError(await resolve({ url: `${ORIGIN}/sites/site_nope/` }), 404);
    expectError(await resolve({ url: `https://elsewhere.test/sites/${siteId}/` }), 404);
    expectError(await resolve({ url: `${ORIGIN}/v1/spaces/${spaceId}` }), 404);
    const draft = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Draft' }).expect(201)).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${draft}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    expectError(await resolve({ url: `${ORIGIN}/sites/${draft}/` }), 404);
    // With the claim the schema declares, the hidden page resolves.
    const beta = await resolve({
      url: `${ORIGIN}/sites/${siteId}/beta-features/beta-details`,
      visitor: { unsignedClaims: { beta: true } },
    });
    expect(beta.status).toBe(200);
    expect(beta.body).toMatchObject({ pathname: 'beta-features/beta-details', contextId: expect.any(String) });
    // Equal claims, equal context; other claims, another.
    const again = await resolve({ url: `${ORIGIN}/sites/${siteId}/`, visitor: { unsignedClaims: { beta: true } } }).expect(200);
    const other = await resolve({ url: `${ORIGIN}/sites/${siteId}/`, visitor: { unsignedClaims: { beta: false } } }).expect(200);
    expect(again.body.contextId).toBe(beta.body.contextId);
    expect(other.body.contextId).not.toBe(beta.body.contextId);
  });

  it('hostile or malformed input answers 400, never 500', async () => {
    for (const body of [
      {},
      { url: null },
      { url: 42 },
      { url: '' },
      { url: 'not a url' },
      { url: 'ftp://quire.test/sites/x/' },
      { url: `${ORIGIN}/sites/${'x'.repeat(2100)}` },
      { url: `${ORIGIN}/sites/${siteId}/`, redirectOnError: 'true' },
      { url: `${ORIGIN}/sites/${siteId}/`, visitor: 'human' },
      { url: `${ORIGIN}/sites/${siteId}/`, visitor: { type: 'robot' } },
      { url: `${ORIGIN}/sites/${siteId}/`, visitor: { unsignedClaims: [1, 2] } },
      { url: `${ORIGIN}/sites/${siteId}/`, visitor: { unsignedClaims: { beta: 'x'.repeat(5000) } } },
      { url: `${ORIGIN}/sites/${siteId}/`, visitor: { jwtToken: 7 } },
    ])
      expectError(await resolve(body), 400);
    expectError(await t.http.get('/v1/urls/published').query({ url: `${ORIGIN}/sites/${siteId}/`, redirectOnError: 'yes' }), 400);
    // Odd but well-formed URLs are simply not content.
    expectError(await resolve({ url: `${ORIGIN}/sites/${siteId}/%E0%A4%A` }), 404);
    expectError(await resolve({ url: `${ORIGIN}/sites/%00/` }), 404);
  });

  it('the apiToken reads the space as the site shows this visitor: the pages and blocks their claims leave, and nothing else', async () => {
    const plain = (await resolve({ url: `${ORIGIN}/sites/${siteId}/` }).expect(200)).body.apiToken as string;
    const withBeta = (await resolve({ url: `${ORIGIN}/sites/${siteId}/`, visitor: { unsignedClaims: { beta: true } } }).expect(200)).body
      .apiToken as string;

    const space = (await t.http.get(`/v1/spaces/${spaceId}`).set(as(plain)).expect(200)).body;
    expect(official.check('Space', space)).toBe('');
    expect(space.id).toBe(spaceId);
    // None of the team's work: the space's change requests and comments are not counted for a visitor.
    expect((await t.http.get(`/v1/spaces/${spaceId}`).set(admin.auth).expect(200)).body.changeRequests).toBeGreaterThan(0);
    expect(space).toMatchObject({
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      mergeRules: { type: 'inherit' },
    });
    expect(space.parent).toBeUndefined();
    const titles = (pages: { title: string; pages?: unknown[] }[]): string[] =>
      pages.flatMap((p) => [p.title, ...titles((p.pages ?? []) as { title: string }[])]);
    const shown = (await t.http.get(`/v1/spaces/${spaceId}/content/pages`).set(as(plain)).expect(200)).body.pages;
    expect(titles(shown)).toEqual(['Introduction', 'Guide', 'Setup', 'Notes']);
    const all = (await t.http.get(`/v1/spaces/${spaceId}/content/pages`).set(as(withBeta)).expect(200)).body.pages;
    expect(titles(all)).toEqual(['Introduction', 'Guide', 'Setup', 'Beta features', 'Beta details', 'Notes']);
    // A member still sees every page (the visitor's view is not cached for them, nor theirs for the visitor).
    expect(titles((await t.http.get(`/v1/spaces/${spaceId}/content/pages`).set(admin.auth).expect(200)).body.pages)).toHaveLength(6);

    expectError(await t.http.get(`/v1/spaces/${spaceId}/content/page/${betaPageId}`).set(as(plain)), 404);
    expectError(await t.http.get(`/v1/spaces/${spaceId}/content/path/beta-features`).set(as(plain)), 404);
    expect((await t.http.get(`/v1/spaces/${spaceId}/content/path/beta-features`).set(as(withBeta)).expect(200)).body.id).toBe(betaPageId);

    // Conditional blocks are decided by the visitor's claims, in the document and in markdown alike.
    const notes = (token: string, format = 'markdown') =>
      t.http.get(`/v1/spaces/${spaceId}/content/page/${notesPageId}`).query({ format }).set(as(token)).expect(200);
    const plainNotes = (await notes(plain)).body.markdown as string;
    expect(plainNotes).toContain('Ask us for the beta.');
    expect(plainNotes).not.toContain('Secret beta');
    expect(JSON.stringify((await notes(plain, 'document')).body.document)).not.toContain('Secret beta');
    const betaNotes = (await notes(withBeta)).body.markdown as string;
    expect(betaNotes).toContain('Secret beta notes.');
    expect(betaNotes).not.toContain('Ask us');
    expect(
      (await t.http.get(`/v1/spaces/${spaceId}/content/page/${notesPageId}`).query({ format: 'markdown' }).set(admin.auth)).body.markdown,
    ).toContain('{% if');

    // The revision the site shows, its pages, page documents, files and reusable contents; no other revision.
    const current = (await t.http.get(`/v1/spaces/${spaceId}/content`).set(as(plain)).expect(200)).body;
    expect(served.check('GET', '/v1/spaces/{spaceId}/content', 200, current)).toEqual([]);
    expect(current.id).toBe(space.revision);
    expect(titles(current.pages)).toEqual(['Introduction', 'Guide', 'Setup', 'Notes']);
    expect(JSON.stringify(current)).not.toContain('quokka');
    expect(
      titles((await t.http.get(`/v1/spaces/${spaceId}/revisions/${space.revision}`).set(as(plain)).expect(200)).body.pages),
    ).toHaveLength(4);
    expect(
      titles((await t.http.get(`/v1/spaces/${spaceId}/revisions/${space.revision}/pages`).set(as(plain)).expect(200)).body.pages),
    ).toHaveLength(4);
    expect(titles((await t.http.get(`/v1/spaces/${spaceId}/content`).set(as(withBeta)).expect(200)).body.pages)).toHaveLength(6);
    const inRevision = `/v1/spaces/${spaceId}/revisions/${space.revision}`;
    expectError(await t.http.get(`${inRevision}/page/${betaPageId}`).set(as(plain)), 404);
    expectError(await t.http.get(`${inRevision}/page/${betaPageId}/document`).set(as(plain)), 404);
    expectError(await t.http.get(`${inRevision}/path/beta-features/beta-details`).set(as(plain)), 404);
    const doc = JSON.stringify((await t.http.get(`${inRevision}/page/${notesPageId}/document`).set(as(plain)).expect(200)).body);
    expect(doc).toContain('Ask us for the beta.');
    expect(doc).not.toContain('Secret beta');
    expect(JSON.stringify((await t.http.get(`${inRevision}/page/${notesPageId}/document`).set(as(withBeta)).expect(200)).body)).toContain(
      'Secret beta',
    );
    // What the site never lists is not listed: the revision's files, its reusable contents, its Git commit, the
    // pages' conditions (they name the claims and the rules).
    expect(current.reusableContents).toEqual([]);
    expect(current).not.toHaveProperty('git');
    expect(JSON.stringify((await t.http.get(`/v1/spaces/${spaceId}/content`).set(as(withBeta)).expect(200)).body)).not.toContain(
      'visitor.claims',
    );
    expect((await t.http.get(`/v1/spaces/${spaceId}/content/path/beta-features`).set(as(withBeta)).expect(200)).body).not.toHaveProperty(
      'condition',
    );
    expectError(await t.http.get(`/v1/spaces/${spaceId}/content/files`).set(as(plain)), 403);
    expectError(await t.http.get(`${inRevision}/files`).set(as(plain)), 403);
    expectError(await t.http.get(`/v1/spaces/${spaceId}/content/reusable-contents/any`).set(as(plain)), 403);
    // A large write is refused before its body is read (anyone can get a visitor token): not even parsed.
    const cr = (await t.http.post(`/v1/spaces/${spaceId}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    const write = () => t.http.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`).set('Content-Type', 'application/json');
    expectError(
      await write()
        .set(as(plain))
        .send(`{"changes": [${'"x",'.repeat(50_000)}`),
      403,
    );
    expectError(
      await write()
        .set(admin.auth)
        .send(`{"changes": [${'"x",'.repeat(50_000)}`),
      400,
    );
    const earlier = current.parents[0] as string;
    expectError(await t.http.get(`/v1/spaces/${spaceId}/revisions/${earlier}`).set(as(plain)), 404);
    expectError(await t.http.get(`/v1/spaces/${spaceId}/revisions/${earlier}/pages`).set(as(plain)), 404);
    await t.http.get(`/v1/spaces/${spaceId}/revisions/${earlier}`).set(admin.auth).expect(200);

    // Nothing else: not the organization, not its other spaces, not a write, not the user, not other revisions.
    const other = await spaceWithPages(t, admin, orgId, [{ title: 'Private', markdown: 'Internal.' }]);
    expectError(await t.http.get(`/v1/spaces/${other}`).set(as(plain)), 404);
    expectError(await t.http.get(`/v1/spaces/${other}/content/pages`).set(as(plain)), 404);
    expectError(await t.http.get(`/v1/orgs/${orgId}/spaces`).set(as(plain)), 403);
    expectError(await t.http.get(`/v1/orgs/${orgId}`).set(as(plain)), 403);
    expectError(await t.http.get('/v1/user').set(as(plain)), 403);
    expectError(await t.http.patch(`/v1/spaces/${spaceId}`).set(as(plain)).send({ title: 'Mine' }), 403);
    expectError(await t.http.get(`/v1/spaces/${spaceId}/revisions`).set(as(plain)), 403);
    expectError(await t.http.get(`/v1/spaces/${spaceId}/change-requests`).set(as(plain)), 403);
    expectError(await t.http.get(`/v1/spaces/${spaceId}/documents/${space.revision}`).set(as(plain)), 403);
    expectError(await t.http.get(`/v1/orgs/${orgId}/sites/${siteId}`).set(as(plain)), 403);
  });

  it('the reads a visitor token reaches are exactly the documented ones, every one a GET of a space’s content', () => {
    const reached: string[] = [];
    for (const wrapper of t.app.get(DiscoveryService).getControllers()) {
      const proto = (wrapper.metatype as { prototype?: Record<string, unknown> } | undefined)?.prototype;
      if (!proto) continue;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (typeof handler !== 'function' || !Reflect.getMetadata(VISITOR_READABLE, handler)) continue;
        expect([name, Reflect.getMetadata('method', handler)]).toEqual([name, RequestMethod.GET]);
        const path = `${Reflect.getMetadata('path', wrapper.metatype!)}/${Reflect.getMetadata('path', handler)}`.replace(/^\/+/, '');
        expect([name, path.startsWith('spaces/:spaceId')]).toEqual([name, true]);
        reached.push((Reflect.getMetadata(DECORATORS.API_OPERATION, handler) as { operationId: string }).operationId);
      }
    }
    const documented = readFileSync(join(process.cwd(), 'docs/published-sites.md'), 'utf8');
    for (const op of reached) expect([op, documented.includes(`\`${op}\``)]).toEqual([op, true]);
    expect(reached.sort()).toEqual(
      [
        'getCurrentRevision',
        'getFileById',
        'getFileInRevisionById',
        'getPageById',
        'getPageByPath',
        'getPageDocumentInRevisionById',
        'getPageInRevisionById',
        'getPageInRevisionByPath',
        'getRevisionById',
        'getSpaceById',
        'listPages',
        'listPagesInRevisionById',
      ].sort(),
    );
  });

  it('a forged, expired or outlived token reads nothing (401): the site decides anew on every call', async () => {
    const token = (await resolve({ url: `${ORIGIN}/sites/${siteId}/` }).expect(200)).body.apiToken as string;
    // Sealed: a character changed anywhere is a token that opens nothing.
    const at = Math.floor(token.length / 2);
    const changed = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    expectError(await t.http.get(`/v1/spaces/${spaceId}`).set(as(changed)), 401);
    expectError(await t.http.get(`/v1/spaces/${spaceId}`).set(as(`${token}A`)), 401);
    expectError(await t.http.get(`/v1/spaces/${spaceId}`).set(as(`qv1.${'a'.repeat(13_000)}`)), 401);
    // Another site's token reads that site's spaces only.
    const otherSpace = await spaceWithPages(t, admin, orgId, [{ title: 'Elsewhere', markdown: 'Other site.' }]);
    const otherSite = await site({ visibility: 'public' }, otherSpace);
    const otherToken = (await resolve({ url: `${ORIGIN}/sites/${otherSite}/` }).expect(200)).body.apiToken as string;
    await t.http.get(`/v1/spaces/${otherSpace}`).set(as(otherToken)).expect(200);
    expectError(await t.http.get(`/v1/spaces/${spaceId}`).set(as(otherToken)), 404);
    // Unpublished: the token reads nothing at once.
    await t.http.post(`/v1/orgs/${orgId}/sites/${otherSite}/unpublish`).set(admin.auth).expect(200);
    expectError(await t.http.get(`/v1/spaces/${otherSpace}`).set(as(otherToken)), 401);
    // After an hour, nothing.
    await t.http.get(`/v1/spaces/${spaceId}`).set(as(token)).expect(200);
    t.clock.advance(60 * 60_000 + 1000);
    expectError(await t.http.get(`/v1/spaces/${spaceId}`).set(as(token)), 401);
  });

  it('visitors’ tokens cost nothing to get, so their calls count against the address, as anonymous calls do', async () => {
    // Its own app (and so its own database): the rate limit is counted in the database, per token or address.
    const limited = await createTestApp({ PUBLIC_URL: ORIGIN, QUIRE_RATE_LIMIT_PER_MINUTE: '12' });
    try {
      const owner = await limited.user('owner');
      const org = await limited.organization(owner);
      const space = await spaceWithPages(limited, owner, org, [{ title: 'Home', markdown: 'Hello.' }]);
      const id = await createSite(limited, owner, org, [space], { fields: { visibility: 'public' } });
      const token = async () =>
        (
          await limited.http
            .post('/v1/urls/published')
            .send({ url: `${ORIGIN}/sites/${id}/` })
            .expect(200)
        ).body.apiToken;
      const [a, b] = [await token(), await token()];
      // Calls with one token until the address is out of its count (setting up spent some of it anonymously)…
      let calls = 0;
      while ((await limited.http.get(`/v1/spaces/${space}`).set(as(a))).status === 200) calls++;
      expect(calls).toBeGreaterThan(0);
      expect(calls).toBeLessThan(12);
      // …and another token does not start a new count, nor does asking for one.
      expectError(await limited.http.get(`/v1/spaces/${space}`).set(as(b)), 429);
      expectError(await limited.http.post('/v1/urls/published').send({ url: `${ORIGIN}/sites/${id}/` }), 429);
      // The member's own token has its own count.
      await limited.http.get(`/v1/spaces/${space}`).set(owner.auth).expect(200);
    } finally {
      await limited.close();
    }
  });

  it('share-link sites need the key in the URL; the token lives as long as the link', async () => {
    const shared = await site({ visibility: 'share-link' });
    const link = (await t.http.post(`/v1/orgs/${orgId}/sites/${shared}/share-links`).set(admin.auth).send({ name: 'Partners' }).expect(201))
      .body;
    expectError(await resolve({ url: `${ORIGIN}/sites/${shared}/guide` }), 404);
    expectError(await resolve({ url: `${ORIGIN}/sites/${shared}/guide?shareKey=wrong` }), 404);
    const found = (await resolve({ url: `${ORIGIN}/sites/${shared}/guide?shareKey=${link.key}` }).expect(200)).body;
    expect(found).toMatchObject({ site: shared, pathname: 'guide', shareKey: link.key });
    await t.http.get(`/v1/spaces/${spaceId}/content/pages`).set(as(found.apiToken)).expect(200);
    await t.http.patch(`/v1/orgs/${orgId}/sites/${shared}/share-links/${link.id}`).set(admin.auth).send({ active: false }).expect(200);
    expectError(await t.http.get(`/v1/spaces/${spaceId}/content/pages`).set(as(found.apiToken)), 401);
    expectError(await resolve({ url: `${ORIGIN}/sites/${shared}/guide?shareKey=${link.key}` }), 404);
  });

  it('visitor-auth sites: the visitor token (in the body, the query or the URL) opens them; without it, 404 or the sign-in with redirectOnError', async () => {
    const guarded = await site({ visibility: 'visitor-auth' });
    const base = `/v1/orgs/${orgId}/sites/${guarded}`;
    const key = (await t.http.get(`${base}/publishing/auth`).set(admin.auth).expect(200)).body.privateKey;
    const url = `${ORIGIN}/sites/${guarded}/guide/setup`;
    expectError(await resolve({ url }), 404);
    expectError(await resolve({ url, redirectOnError: true }), 404); // no fallback URL: nowhere to send them
    expectError(await resolve({ url, visitor: { jwtToken: await sign('not-the-key') } }), 404);
    const token = await sign(key);
    const inBody = (await resolve({ url, visitor: { jwtToken: token } }).expect(200)).body;
    expect(inBody).toMatchObject({ site: guarded, pathname: 'guide/setup', contextId: expect.any(String) });
    expect(official.check('PublishedSiteContent', inBody)).toBe('');
    expect((await t.http.get('/v1/urls/published').query({ url, visitorAuthToken: token }).expect(200)).body.pathname).toBe('guide/setup');
    expect((await resolve({ url: `${url}?jwt_token=${token}` }).expect(200)).body.site).toBe(guarded);
    await t.http.get(`/v1/spaces/${spaceId}`).set(as(inBody.apiToken)).expect(200);
    // A regenerated key ends the visitor's token, and the API token made of it.
    await t.http
      .patch(`${base}/publishing/auth`)
      .set(admin.auth)
      .send({ backend: 'custom', fallbackURL: 'https://login.acme.example/start?app=docs' })
      .expect(200);
    const redirect = (await resolve({ url, redirectOnError: true }).expect(200)).body;
    expect(official.check('PublishedContentRedirect', redirect)).toBe('');
    expect(redirect).toEqual({
      target: 'external',
      site: guarded,
      redirect: `https://login.acme.example/start?app=docs&location=%2Fsites%2F${guarded}%2Fguide%2Fsetup`,
    });
    expectError(await resolve({ url }), 404);
    await t.http.post(`${base}/publishing/auth/regenerate`).set(admin.auth).expect(200);
    expectError(await t.http.get(`/v1/spaces/${spaceId}`).set(as(inBody.apiToken)), 401);
  });

  it('sections, site spaces with paths and conditions, and a basename: each part of the URL in its place', async () => {
    const reference = await spaceWithPages(t, admin, orgId, [
      { title: 'API', markdown: 'The API.' },
      { title: 'Errors', markdown: 'Error codes.' },
    ]);
    const beta = await spaceWithPages(t, admin, orgId, [{ title: 'Preview', markdown: 'Beta only.' }]);
    const id = await createSite(t, admin, orgId, [spaceId], {
      fields: { visibility: 'public' },
      adaptive: { unsigned: ['beta'] },
      publish: false,
    });
    const base = `/v1/orgs/${orgId}/sites/${id}`;
    // The first section adopts the site space at the root (the handbook, its default) beside the beta space.
    const start = (await t.http.post(`${base}/sections`).set(admin.auth).send({ spaceId: beta, title: 'Start' }).expect(201)).body;
    const betaSiteSpace = start.siteSpaces.find((x: { space: { id: string } }) => x.space.id === beta);
    await t.http
      .patch(`${base}/site-spaces/${betaSiteSpace.id}`)
      .set(admin.auth)
      .send({ path: 'beta', condition: 'visitor.claims.unsigned.beta' })
      .expect(200);
    const section = (await t.http.post(`${base}/sections`).set(admin.auth).send({ spaceId: reference, title: 'Reference' }).expect(201))
      .body;
    await t.http.patch(base).set(admin.auth).send({ hostname: 'help.acme.test', basename: 'help' }).expect(200);
    await t.http.post(`${base}/publish`).set(admin.auth).expect(200);
    const refSiteSpace = section.siteSpaces[0];

    const api = (await resolve({ url: `https://help.acme.test/help/${section.path}/errors` }).expect(200)).body;
    expect(official.check('PublishedSiteContent', api)).toBe('');
    expect(api).toMatchObject({
      site: id,
      siteSection: section.id,
      siteSpace: refSiteSpace.id,
      space: reference,
      pathname: 'errors',
      basePath: `/help/${section.path}/`,
      siteBasePath: '/help/',
      canonicalUrl: `https://help.acme.test/help/${section.path}/errors`,
    });
    // The default section, on Quire's own URL of the site (its basename too).
    expect((await resolve({ url: `${ORIGIN}/sites/${id}/help/guide/setup` }).expect(200)).body).toMatchObject({
      siteSection: start.id,
      space: spaceId,
      pathname: 'guide/setup',
      basePath: `/sites/${id}/help/`,
      canonicalUrl: 'https://help.acme.test/help/guide/setup',
    });
    expectError(await resolve({ url: `https://help.acme.test/guide/setup` }), 404); // below the basename only
    // A site space whose condition fails is not there for this visitor; with the claim it is.
    expectError(await resolve({ url: `https://help.acme.test/help/beta/preview` }), 404);
    const shown = (
      await resolve({ url: `https://help.acme.test/help/beta/preview`, visitor: { unsignedClaims: { beta: true } } }).expect(200)
    ).body;
    expect(shown).toMatchObject({ siteSpace: betaSiteSpace.id, space: beta, basePath: '/help/beta/', pathname: 'preview' });
    // And its token reads that space only with the claim it was given.
    const plainToken = (await resolve({ url: `https://help.acme.test/help/guide` }).expect(200)).body.apiToken;
    expectError(await t.http.get(`/v1/spaces/${beta}`).set(as(plainToken)), 404);
    await t.http.get(`/v1/spaces/${beta}`).set(as(shown.apiToken)).expect(200);
    await t.http.get(`/v1/spaces/${reference}/content/pages`).set(as(plainToken)).expect(200);
  });

  it('custom hostnames, site redirects, moved pages and preview links', async () => {
    const hosted = await site({ visibility: 'public' });
    const base = `/v1/orgs/${orgId}/sites/${hosted}`;
    await t.http.patch(base).set(admin.auth).send({ hostname: HOST }).expect(200);
    const onHost = (await resolve({ url: `https://${HOST}/guide/setup` }).expect(200)).body;
    expect(onHost).toMatchObject({
      site: hosted,
      pathname: 'guide/setup',
      basePath: '/',
      siteBasePath: '/',
      canonicalUrl: `https://${HOST}/guide/setup`,
    });
    // Quire's own URL of a site with a hostname names it too; its canonical URL is the hostname's.
    expect((await resolve({ url: `${ORIGIN}/sites/${hosted}/guide` }).expect(200)).body.canonicalUrl).toBe(`https://${HOST}/guide`);
    expectError(await resolve({ url: `https://other.${HOST}/guide/setup` }), 404);

    const siteSpaceId = (await t.http.get(`${base}/site-spaces`).set(admin.auth).expect(200)).body.items[0].id;
    const pages = (await t.http.get(`/v1/spaces/${spaceId}/content`).set(admin.auth).expect(200)).body.pages;
    const setupId = pages[1].pages[0].id;
    await t.http
      .post(`${base}/redirects`)
      .set(admin.auth)
      .send({ source: '/old-setup', destination: { kind: 'site-page', siteSpaceId, pageId: setupId }, permanent: true })
      .expect(201);
    const redirected = (await resolve({ url: `https://${HOST}/old-setup` }).expect(200)).body;
    expect(official.check('PublishedContentRedirect', redirected)).toBe('');
    expect(redirected).toEqual({ target: 'content', redirect: `https://${HOST}/guide/setup` });
    await t.http
      .post(`${base}/redirects`)
      .set(admin.auth)
      .send({ source: '/status', destination: { kind: 'external', url: 'https://status.acme.example/' }, permanent: false })
      .expect(201);
    expect((await resolve({ url: `https://${HOST}/status` }).expect(200)).body).toEqual({
      target: 'external',
      site: hosted,
      redirect: 'https://status.acme.example/',
    });

    // A page renamed keeps answering at its old path: a redirect to its new one.
    const moving = await spaceWithPages(t, admin, orgId, [
      { title: 'Home', markdown: 'Home.' },
      { title: 'Old name', markdown: 'Renamed soon.' },
    ]);
    const movingSite = await site({ visibility: 'public' }, moving);
    const movingPage = (await t.http.get(`/v1/spaces/${moving}/content`).set(admin.auth).expect(200)).body.pages[1].id;
    await mergeChanges(t, admin, moving, [{ operation: 'update_page', page: movingPage, title: 'New name', slug: 'new-name' }]);
    expect((await resolve({ url: `${ORIGIN}/sites/${movingSite}/old-name` }).expect(200)).body).toEqual({
      target: 'content',
      redirect: `${ORIGIN}/sites/${movingSite}/new-name`,
    });

    // A preview link of a site not yet published resolves, as a preview.
    const draft = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Draft' }).expect(201)).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${draft}/site-spaces`).set(admin.auth).send({ spaceId }).expect(201);
    const previewUrl = (await t.http.get(`/v1/orgs/${orgId}/sites/${draft}/publishing/preview`).set(admin.auth).expect(200)).body.url;
    const previewed = (await resolve({ url: `${previewUrl}guide/setup` }).expect(200)).body;
    const previewToken = new URL(previewUrl).pathname.split('/')[4];
    expect(previewed).toMatchObject({
      site: draft,
      pathname: 'guide/setup',
      preview: true,
      siteBasePath: `/sites/${draft}/~preview/${previewToken}/`,
      basePath: `/sites/${draft}/~preview/${previewToken}/`,
    });
    await t.http.get(`/v1/spaces/${spaceId}`).set(as(previewed.apiToken)).expect(200);
    expectError(await resolve({ url: `${ORIGIN}/sites/${draft}/~preview/123.forged/guide/setup` }), 404);
    // A forged preview of a published site is no way in either: the plain 404, as the site answers it.
    expectError(await resolve({ url: `${ORIGIN}/sites/${siteId}/~preview/123.forged/guide/setup` }), 404);
    // A port on a site's hostname is not the site (its hostname is served on the default port).
    expectError(await resolve({ url: `https://${HOST}:8443/guide/setup` }), 404);
  });
});
