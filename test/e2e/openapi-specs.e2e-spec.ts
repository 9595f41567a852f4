import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { HostResolver } from '@app/shared-kernel';
import { OpenApiProcessing } from '@app/openapi-specs';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

const fixture = (name: string) => readFileSync(join(process.cwd(), 'libs/openapi-specs/src/test/fixtures', name), 'utf8');
const GITBOOK = readFileSync(join(process.cwd(), 'node_modules/@gitbook/api/spec/openapi.json'), 'utf8');
const minimal = (title = 'Tiny', extra: object = {}) =>
  JSON.stringify({ openapi: '3.0.3', info: { title, version: '1' }, paths: {}, ...extra });

/** Serves documents on loopback: `/doc/{name}` from `docs`, `/slow` never answers, `/500`, `/redirect/{n}`, `/big`. */
function sourceServer(docs: Map<string, string>) {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    const url = req.url ?? '';
    if (url.startsWith('/doc/')) {
      const body = docs.get(url.slice(5));
      if (body === undefined) return void res.writeHead(404).end('no');
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
    if (url === '/slow') return; // never answers
    if (url === '/500') return void res.writeHead(500).end('boom');
    const redirect = /^\/redirect\/(\d+)$/.exec(url);
    if (redirect) {
      const n = Number(redirect[1]);
      return void res.writeHead(302, { location: n > 0 ? `/redirect/${n - 1}` : '/doc/tiny' }).end();
    }
    if (url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 32);
      for (let i = 0; i < 11; i++) res.write(chunk);
      return void res.end();
    }
    res.writeHead(404).end();
  });
  return {
    server,
    get hits() {
      return hits;
    },
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}

describe('OpenAPI specifications: sources, processing, versions', () => {
  let t: TestApp;
  let admin: TestUser;
  let creator: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let origin: string;
  const docs = new Map<string, string>([['tiny', minimal()]]);
  const source = sourceServer(docs);
  const official = officialValidator();

  beforeAll(async () => {
    origin = await source.start();
    t = await createTestApp({ QUIRE_JOBS: 'on', QUIRE_OPENAPI_URL_ALLOWLIST: '127.0.0.1', QUIRE_OPENAPI_FETCH_TIMEOUT_MS: '1500' });
    admin = await t.user('admin');
    creator = await t.user('creator');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, creator, 'create');
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => {
    await t.close();
    source.server.close();
  });

  const base = `/v1/orgs/${'{org}'}/openapi`;
  const url = (path = '') => base.replace('{org}', orgId) + path;
  const create = (slug: string, src: object, who: TestUser = creator) => t.http.post(url()).set(who.auth).send({ slug, source: src });
  /** Waits for the background run: the spec is complete again for its current source. */
  const processed = async (slug: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const spec = (
        await t.http
          .get(url(`/${slug}`))
          .set(reader.auth)
          .expect(200)
      ).body;
      if (spec.processingState === 'complete') return spec;
      if (Date.now() > deadline) throw new Error(`${slug} still ${spec.processingState}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const versions = async (slug: string) =>
    (
      await t.http
        .get(url(`/${slug}/versions`))
        .set(reader.auth)
        .expect(200)
    ).body;

  it('registers a spec from text, processes it in the background into one version, and serves it back', async () => {
    const res = await create('petstore', { text: fixture('swagger-2.0-petstore.yaml') }).expect(201);
    expect(res.body).toMatchObject({ object: 'openapi-spec', slug: 'petstore', visibility: 'private', processingState: 'pending' });
    expect(official.check('OpenAPISpec', res.body)).toBe('');
    expect(res.headers.location).toBe(res.body.urls.location);
    const spec = await processed('petstore');
    expect(spec).toMatchObject({
      processingState: 'complete',
      lastProcessedErrors: [],
      lastVersion: expect.any(String),
      lastProcessedAt: expect.any(String),
    });
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(official.check('OpenAPISpec', spec)).toBe('');
    const list = await versions('petstore');
    expect(list.items).toHaveLength(1);
    expect(official.checkList('OpenAPISpecVersion', list)).toBe('');
    const latest = (await t.http.get(url('/petstore/versions/latest')).set(reader.auth).expect(200)).body;
    expect(latest.id).toBe(spec.lastVersion);
    expect(official.check('OpenAPISpecVersion', latest)).toBe('');
    const content = (await t.http.get(url('/petstore/versions/latest/content')).set(reader.auth).expect(200)).body;
    expect(content.filesystem).toEqual({
      entry: 'openapi.yaml',
      files: [{ path: 'openapi.yaml', format: 'yaml', content: fixture('swagger-2.0-petstore.yaml') }],
    });
    expect(content.url).toBe(latest.url);
    expect(content.urls.public).toBeNull();
    expect(official.check('OpenAPISpecContent', content)).toBe('');
    const byId = (
      await t.http
        .get(url(`/petstore/versions/${latest.id}/content`))
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(byId).toEqual(content);
    expect(
      (
        await t.http
          .get(url(`/petstore/versions/${latest.id}`))
          .set(reader.auth)
          .expect(200)
      ).body,
    ).toEqual(latest);
    const raw = (await t.http.get(url('/petstore/versions/latest/content/raw')).set(reader.auth).expect(200)).body;
    expect(raw).toEqual({ text: fixture('swagger-2.0-petstore.yaml'), format: 'yaml' });
    expectError(await t.http.get(url('/petstore/versions/nope')).set(reader.auth), 404);
    expect((await t.http.get(url()).set(reader.auth).expect(200)).body.items.map((s: { slug: string }) => s.slug)).toContain('petstore');
  });

  it.each([
    ['uspto', 'openapi-3.0-uspto.yaml'],
    ['github', 'openapi-3.0-github-issues-pulls-releases.json'],
    ['circular', 'openapi-3.0-circular.json'],
  ])('processes the real document %s', async (slug, name) => {
    await create(slug, { text: fixture(name) }).expect(201);
    const spec = await processed(slug);
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect((await versions(slug)).count).toBe(1);
  });

  it('the official GitBook document (3.1, 1.7 MB) as text and from a URL: one version each, unchanged content makes none, a change makes one', async () => {
    docs.set('gitbook', GITBOOK);
    await create('gitbook-text', { text: GITBOOK }).expect(201);
    await create('gitbook-url', { url: `${origin}/doc/gitbook` }).expect(201);
    const [a, b] = [await processed('gitbook-text'), await processed('gitbook-url')];
    expect([a.lastProcessErrorCode, b.lastProcessErrorCode]).toEqual([undefined, undefined]);
    expect(b.sourceURL).toBe(`${origin}/doc/gitbook`);
    expect([(await versions('gitbook-text')).count, (await versions('gitbook-url')).count]).toEqual([1, 1]);
    const urlVersion = (await t.http.get(url('/gitbook-url/versions/latest')).set(reader.auth).expect(200)).body;
    expect(urlVersion.url).toBe(`${origin}/doc/gitbook`);

    // The same source again (PUT): processed again, no new version.
    const again = await t.http
      .put(url('/gitbook-url'))
      .set(creator.auth)
      .send({ source: { url: `${origin}/doc/gitbook` } })
      .expect(200);
    expect(again.body.processingState).toBe('pending');
    await processed('gitbook-url');
    expect((await versions('gitbook-url')).count).toBe(1);
    // The document behind the URL changes: exactly one new version.
    const changed = JSON.parse(GITBOOK);
    changed.info.title = 'GitBook API (changed)';
    docs.set('gitbook', JSON.stringify(changed));
    await t.http
      .put(url('/gitbook-url'))
      .set(creator.auth)
      .send({ source: { url: `${origin}/doc/gitbook` } })
      .expect(200);
    const after = await processed('gitbook-url');
    const list = await versions('gitbook-url');
    expect(list.count).toBe(2);
    expect(list.items[0].id).toBe(after.lastVersion);
    // Text source replaced by the same text: no new version.
    await t.http
      .put(url('/gitbook-text'))
      .set(creator.auth)
      .send({ source: { text: GITBOOK } })
      .expect(200);
    await processed('gitbook-text');
    expect((await versions('gitbook-text')).count).toBe(1);
  });

  it.each([
    ['bad-yaml', { text: 'openapi: 3.0.0\ninfo:\n  title: x\n  version: [1\npaths: {}\n' }, 'PARSE_ERROR', 'YAML_SYNTAX', /line/],
    ['not-openapi', { text: '{"name": "package.json", "version": "1.0.0"}' }, 'PARSE_ERROR', 'NOT_OPENAPI', /Not an OpenAPI/],
    [
      'bad-schema',
      { text: minimal('x', { paths: { '/a': { get: { responses: { 200: { descriptionx: 'd' } } } } } }) },
      'PARSE_ERROR',
      'SCHEMA',
      /#\/paths\/~1a\/get\/responses\/200/,
    ],
    [
      'missing-ref',
      { text: minimal('x', { paths: { '/a': { get: { responses: { 200: { $ref: '#/components/responses/X' } } } } } }) },
      'PARSE_ERROR',
      'REF_NOT_FOUND',
      /components/,
    ],
    [
      'external-ref',
      { text: minimal('x', { paths: { '/a': { get: { responses: { 200: { $ref: 'http://169.254.169.254/latest/meta-data#/x' } } } } } }) },
      'PARSE_ERROR',
      'EXTERNAL_REF',
      /not followed/,
    ],
  ])('a broken document (%s) completes with a precise error and no version', async (slug, src, code, errorCode, message) => {
    await create(slug, src).expect(201);
    const spec = await processed(slug);
    expect(spec.lastProcessErrorCode).toBe(code);
    expect(spec.lastProcessedErrors[0]).toMatchObject({ code: errorCode, message: expect.stringMatching(message) });
    expect(spec.lastVersion).toBeUndefined();
    expect(official.check('OpenAPISpec', spec)).toBe('');
    expect((await versions(slug)).count).toBe(0);
    expectError(await t.http.get(url(`/${slug}/versions/latest`)).set(reader.auth), 404);
  });

  it('URL sources: timeouts, 500s, oversized answers and endless redirects are processing errors; five redirects are followed', async () => {
    const cases: [string, string, string, string][] = [
      ['slow', `${origin}/slow`, 'FETCH_TIMEOUT', 'TIMEOUT'],
      ['five-hundred', `${origin}/500`, 'FETCH_ERROR', 'HTTP_STATUS'],
      ['big', `${origin}/big`, 'FETCH_ERROR', 'TOO_LARGE'],
      ['loops', `${origin}/redirect/9`, 'FETCH_ERROR', 'TOO_MANY_REDIRECTS'],
      ['gone', `${origin}/doc/none`, 'FETCH_ERROR', 'HTTP_STATUS'],
    ];
    for (const [slug, src] of cases) await create(slug, { url: src }).expect(201);
    for (const [slug, , code, errorCode] of cases) {
      const spec = await processed(slug);
      expect([slug, spec.lastProcessErrorCode, spec.lastProcessedErrors[0].code]).toEqual([slug, code, errorCode]);
      expect((await versions(slug)).count).toBe(0);
    }
    await create('redirected', { url: `${origin}/redirect/4` }).expect(201);
    const ok = await processed('redirected');
    expect(ok.lastProcessErrorCode).toBeUndefined();
    expect((await t.http.get(url('/redirected/versions/latest')).set(reader.auth).expect(200)).body.url).toBe(`${origin}/doc/tiny`);
  });

  it('slugs, sources and visibility are validated; duplicates are 409; nothing is stored for a refused request', async () => {
    await create('dup', { text: minimal() }).expect(201);
    expectError(await create('dup', { text: minimal() }), 409, /slug/);
    for (const slug of ['', 'UPPER', 'a--b', '-a', 'a_b', 'a'.repeat(101)])
      expectError(await create(slug, { text: minimal() }), 400, /slug/);
    await create('a'.repeat(100), { text: minimal() }).expect(201);
    expectError(await create('both', { text: minimal(), url: `${origin}/doc/tiny` }), 400, /exactly one/);
    expectError(await create('neither', {}), 400, /exactly one/);
    expectError(await create('ftp', { url: 'ftp://example.com/spec.yaml' }), 400, /http/);
    expectError(await create('notaurl', { url: 'not a url' }), 400, /URL/);
    expectError(await create('empty', { text: '' }), 400, /text/);
    expectError(await create('nulltext', { text: null }), 400, /text/);
    expectError(await create('huge', { text: 'x'.repeat(20 * 1024 * 1024) }), 400, /larger than/);
    expectError(await t.http.post(url()).set(creator.auth).send({ slug: 'nosource' }), 400, /source/);
    expectError(await t.http.patch(url('/dup')).set(creator.auth).send({ visibility: 'secret' }), 400, /visibility/);
    expectError(await t.http.patch(url('/dup')).set(creator.auth).send({}), 400, /visibility/);
    expectError(await t.http.patch(url('/nope')).set(creator.auth).send({ visibility: 'public' }), 404);
    const slugs = (await t.http.get(`${url()}?limit=1000`).set(reader.auth).expect(200)).body.items.map((s: { slug: string }) => s.slug);
    for (const refused of ['both', 'neither', 'ftp', 'notaurl', 'empty', 'nulltext', 'huge', 'nosource'])
      expect(slugs).not.toContain(refused);
    // roles
    expectError(await create('by-reader', { text: minimal() }, reader), 403);
    expectError(await t.http.get(url()).set(outsider.auth), 404);
    expectError(await t.http.get(url('/dup')).set(outsider.auth), 404);
    await t.http.delete(url('/dup')).set(outsider.auth).expect(204);
    expectError(await t.http.delete(url('/dup')).set(reader.auth), 403);
    await t.http.delete(url('/dup')).set(creator.auth).expect(205);
    await t.http.delete(url('/dup')).set(creator.auth).expect(204);
    expectError(await t.http.get(url('/dup')).set(reader.auth), 404);
  });

  it('PUT creates (201) or updates (200); a public spec has a public link to its latest version', async () => {
    const created = await t.http
      .put(url('/put-spec'))
      .set(creator.auth)
      .send({ source: { text: minimal('First') } })
      .expect(201);
    expect(created.headers.location).toBe(created.body.urls.location);
    await processed('put-spec');
    const pub = await t.http.patch(url('/put-spec')).set(creator.auth).send({ visibility: 'public' }).expect(200);
    expect(pub.body.visibility).toBe('public');
    const link = pub.body.urls.published as string;
    const path = new URL(link).pathname;
    const anonymous = await t.http.get(path).expect(200);
    expect(JSON.parse(anonymous.text).info.title).toBe('First');
    expect((await t.http.get(url('/put-spec/versions/latest/content')).set(reader.auth).expect(200)).body.urls.public).toBe(link);
    await t.http
      .put(url('/put-spec'))
      .set(creator.auth)
      .send({ source: { text: minimal('Second') } })
      .expect(200);
    await processed('put-spec');
    expect(JSON.parse((await t.http.get(path).expect(200)).text).info.title).toBe('Second');
    await t.http.patch(url('/put-spec')).set(creator.auth).send({ visibility: 'private' }).expect(200);
    expectError(await t.http.get(path), 404);
    expectError(
      await t.http
        .put(url('/put-spec'))
        .set(reader.auth)
        .send({ source: { text: minimal() } }),
      403,
    );
  });

  it('a source changed while it is processed: the older run is dropped, the newer one counts', async () => {
    await create('racing', { text: minimal('One') }).expect(201);
    await t.http
      .put(url('/racing'))
      .set(creator.auth)
      .send({ source: { text: minimal('Two') } })
      .expect(200);
    await t.http
      .put(url('/racing'))
      .set(creator.auth)
      .send({ source: { text: minimal('Three') } })
      .expect(200);
    await processed('racing');
    const raw = (await t.http.get(url('/racing/versions/latest/content/raw')).set(reader.auth).expect(200)).body;
    expect(JSON.parse(raw.text).info.title).toBe('Three');
  });

  it('work a lost job left behind is swept up: pending specs are sent again, runs stuck in progress are retried', async () => {
    const ds = t.app.get(DataSource);
    await create('lost', { text: minimal('Lost') }).expect(201);
    await processed('lost');
    // Simulate a run that died in progress long ago (its process was killed), and a job that was never sent.
    t.clock.advance(2 * 60 * 60_000);
    const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);
    await ds.query(
      `UPDATE openapi_specs SET processing_state = 'progress', claimed_at = $1, updated_at = $2, source_revision = source_revision + 1 WHERE slug = 'lost'`,
      [ago(60 * 60_000), ago(5 * 60_000)],
    );
    const processing = t.app.get(OpenApiProcessing);
    expect(await processing.sweep()).toBeGreaterThanOrEqual(1);
    const spec = await processed('lost');
    expect(spec.lastProcessErrorCode).toBeUndefined();
  });

  it('external references are never fetched', async () => {
    const before = source.hits;
    await create('ext-loopback', {
      text: minimal('x', { paths: { '/a': { get: { responses: { 200: { $ref: `${origin}/doc/tiny#/x` } } } } } }),
    }).expect(201);
    expect((await processed('ext-loopback')).lastProcessedErrors[0].code).toBe('EXTERNAL_REF');
    expect(source.hits).toBe(before);
  });
});

describe('OpenAPI source URLs without an allowlist (SSRF)', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  const source = sourceServer(new Map([['tiny', minimal()]]));
  let origin: string;

  beforeAll(async () => {
    origin = await source.start();
    t = await createTestApp({ QUIRE_JOBS: 'on' });
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => {
    await t.close();
    source.server.close();
  });

  const processed = async (slug: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const spec = (await t.http.get(`/v1/orgs/${orgId}/openapi/${slug}`).set(admin.auth).expect(200)).body;
      if (spec.processingState === 'complete') return spec;
      if (Date.now() > deadline) throw new Error(`${slug} still ${spec.processingState}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('refuses loopback, private, link-local (metadata) and mapped addresses, by address or by name, without connecting', async () => {
    const resolver = t.app.get(HostResolver);
    const lookup = jest
      .spyOn(resolver, 'lookup')
      .mockImplementation(async (host: string) =>
        host === 'metadata.quire.test'
          ? ['169.254.169.254']
          : host === 'inside.quire.test'
            ? ['10.1.2.3']
            : host === 'mapped.quire.test'
              ? ['::ffff:127.0.0.1']
              : [],
      );
    const port = new URL(origin).port;
    const cases = [
      ['loopback', `${origin}/doc/tiny`],
      ['ipv6-loopback', `http://[::1]:${port}/doc/tiny`],
      ['metadata', 'http://metadata.quire.test/latest/meta-data/'],
      ['metadata-ip', 'http://169.254.169.254/latest/meta-data/'],
      ['private', 'http://inside.quire.test/spec.json'],
      ['mapped', `http://mapped.quire.test:${port}/doc/tiny`],
      // IPv4-mapped, IPv4-compatible and NAT64 literals of loopback and of the metadata service
      ['mapped-literal', `http://[::ffff:127.0.0.1]:${port}/doc/tiny`],
      ['mapped-expanded', `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/doc/tiny`],
      ['mapped-metadata', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/'],
      ['compatible', `http://[::127.0.0.1]:${port}/doc/tiny`],
      ['nat64', `http://[64:ff9b::7f00:1]:${port}/doc/tiny`],
      ['unresolvable', 'http://nowhere.quire.test/spec.json'],
    ];
    for (const [slug, url] of cases)
      await t.http.post(`/v1/orgs/${orgId}/openapi`).set(admin.auth).send({ slug, source: { url } }).expect(201);
    for (const [slug] of cases) {
      const spec = await processed(slug);
      expect([slug, spec.lastProcessErrorCode, spec.lastProcessedErrors[0].code]).toEqual([
        slug,
        'FETCH_ERROR',
        slug === 'unresolvable' ? 'UNRESOLVABLE' : 'ADDRESS_REFUSED',
      ]);
    }
    expect(source.hits).toBe(0);
    lookup.mockRestore();
  });
});
