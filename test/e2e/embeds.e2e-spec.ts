import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * Official getEmbedByUrl and getEmbedByUrlInSpace against a site on loopback (allowed by QUIRE_EMBED_URL_ALLOWLIST):
 * an oEmbed answer (its HTML sanitized), Open Graph tags, a plain title, files and failures as links, the cache;
 * and the outbound client's rules: a host that resolves to a private address is a 400.
 */
describe('embeds', () => {
  let server: Server;
  let origin: string;
  const hits: string[] = [];
  let t: TestApp;
  let admin: TestUser;
  let outsider: TestUser;
  let api: GitBookAPI;
  const official = officialValidator();

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      const path = (req.url ?? '').split('?')[0];
      if (path === '/article') {
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end(
          `<!doctype html><html><head><title>Ignored</title><meta property="og:title" content="A &amp; B: the talk">` +
            `<meta property="og:site_name" content="Example Videos"><link rel="icon" href="/icon.png">` +
            `<link rel="alternate" type="application/json+oembed" href="/oembed?url=article"></head><body>Hi</body></html>`,
        );
      } else if (path === '/oembed') {
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            type: 'video',
            title: 'The talk',
            provider_name: 'Example Videos',
            html: '<iframe src="https://player.example.com/v/1" width="560" onload="alert(1)"></iframe><script>alert(2)</script>',
          }),
        );
      } else if (path === '/plain') {
        res.setHeader('Content-Type', 'text/html');
        res.end('<html><head><title>  Plain\n page </title></head><body></body></html>');
      } else if (path === '/image.png') {
        res.setHeader('Content-Type', 'image/png');
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      } else {
        res.statusCode = 404;
        res.end('no');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp({ QUIRE_EMBED_URL_ALLOWLIST: '127.0.0.1' });
    admin = await t.user('admin');
    outsider = await t.user('outsider');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reads an oEmbed answer (its HTML sanitized), Open Graph tags and titles; files and failures are links; answers are cached', async () => {
    const res = await api.urls.getEmbedByUrl({ url: `${origin}/article` });
    expect(res.status).toBe(200);
    expect(official.check('Embed', res.data)).toBe('');
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('GET', '/v1/urls/embed', 200, res.data)).toEqual([]);
    expect(res.data).toMatchObject({ type: 'rich', title: 'The talk', site: 'Example Videos', icon: `${origin}/icon.png` });
    const html = (res.data as { html: string }).html;
    expect(html).toContain('<iframe src="https://player.example.com/v/1" width="560"></iframe>');
    expect(html).not.toMatch(/script|onload|alert/);

    expect(
      (
        await t.http
          .get('/v1/urls/embed')
          .query({ url: `${origin}/plain` })
          .set(admin.auth)
          .expect(200)
      ).body,
    ).toEqual({
      type: 'link',
      title: 'Plain page',
      site: '127.0.0.1',
      icon: `${origin}/favicon.ico`,
    });
    expect(
      (
        await t.http
          .get('/v1/urls/embed')
          .query({ url: `${origin}/image.png` })
          .set(admin.auth)
          .expect(200)
      ).body,
    ).toMatchObject({
      type: 'link',
      title: '127.0.0.1',
    });
    expect(
      (
        await t.http
          .get('/v1/urls/embed')
          .query({ url: `${origin}/missing` })
          .set(admin.auth)
          .expect(200)
      ).body.type,
    ).toBe('link');
    // Cached: asking again does not reach the site.
    const before = hits.length;
    await api.urls.getEmbedByUrl({ url: `${origin}/article` });
    expect(hits.length).toBe(before);
  });

  it('in a space: for whom may read the space; refuses private addresses, other schemes and hostile input with 400', async () => {
    const org = await t.organization(admin);
    const space = (await t.http.post(`/v1/orgs/${org}/spaces`).set(admin.auth).send({ title: 'S' }).expect(201)).body.id;
    const inSpace = await api.spaces.getEmbedByUrlInSpace(space, { url: `${origin}/plain` });
    expect(inSpace.data).toMatchObject({ type: 'link', title: 'Plain page' });
    expectError(
      await t.http
        .get(`/v1/spaces/${space}/embed`)
        .query({ url: `${origin}/plain` })
        .set(outsider.auth),
      404,
    );
    expectError(
      await t.http
        .get(`/v1/spaces/nope/embed`)
        .query({ url: `${origin}/plain` })
        .set(admin.auth),
      404,
    );
    const port = new URL(origin).port;
    for (const url of [
      `http://localhost:${port}/plain`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://10.0.0.1/',
      'ftp://example.com/file',
      'javascript:alert(1)',
      'not a url',
      `https://example.com/${'a'.repeat(2048)}`,
    ])
      expectError(await t.http.get('/v1/urls/embed').query({ url }).set(admin.auth), 400);
    expectError(await t.http.get('/v1/urls/embed').set(admin.auth), 400);
    expectError(await t.http.get('/v1/urls/embed').query({ url: `${origin}/plain` }), 401);
  });

  it('a caller may have 30 new URLs fetched a minute (429 beyond); cached answers and other callers are not held back', async () => {
    const busy = await t.user('busy');
    const other = await t.user('other');
    const ask = (who: TestUser, path: string) =>
      t.http
        .get('/v1/urls/embed')
        .query({ url: `${origin}${path}` })
        .set(who.auth);
    const before = hits.length;
    for (let i = 0; i < 30; i++) await ask(busy, `/page-${i}`).expect(200);
    expect(hits.length - before).toBe(30);
    expectError(await ask(busy, '/page-30'), 429, /30 new URLs a minute/);
    expect(hits.length - before).toBe(30);
    // An answer from the cache costs nothing; another caller has their own count.
    await ask(busy, '/page-0').expect(200);
    await ask(other, '/page-30').expect(200);
    t.clock.advance(60_000);
    await ask(busy, '/page-31').expect(200);
  });
});
