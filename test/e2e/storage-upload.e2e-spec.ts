import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

/**
 * Files for sites (#50): the official generateStorageUploadURL, the signed URL it answers (PUT the bytes once,
 * with the type and size asked for, within an hour), and the file served at its key, to anyone, never as a page
 * of Quire's origin. A site's customization then points at it (its logo).
 */
describe('storage: upload URLs and the files they take', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  // A real PNG (the repository's own screenshot of the app), not made-up bytes.
  const png = readFileSync(join(process.cwd(), 'docs/screenshots/app-space.png'));
  const ask = (body: unknown, who: TestUser = admin, org = orgId) =>
    t.http
      .post(`/v1/orgs/${org}/storage/upload`)
      .set(who.auth)
      .send(body as object);
  const pathOf = (url: string) => new URL(url).pathname;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
  });
  afterAll(async () => t.close());

  it('an upload URL (the official shape), the bytes PUT there once, the file served with its type to anyone', async () => {
    const res = await ask({ file: { name: 'Logo (dark).png', type: 'image/png', size: png.length }, kind: 'organization_file' }).expect(
      201,
    );
    expect(res.body).toEqual({
      object: 'storage-signed-url',
      url: expect.stringMatching(/^http:\/\/quire\.test\/v1\/storage\/uploads\/[\w-]{43}$/),
      key: expect.any(String),
    });
    expect(res.body.key).toMatch(new RegExp(`^${orgId}/[\\w-]+/Logo-dark-.png$`));
    const put = await t.http.put(pathOf(res.body.url)).set('Content-Type', 'image/png').send(png).expect(200);
    expect(put.body).toEqual({
      object: 'storage-file',
      key: res.body.key,
      url: `http://quire.test/v1/storage/files/${res.body.key}`,
      contentType: 'image/png',
      size: png.length,
    });
    const got = await t.http.get(pathOf(put.body.url)).buffer(true).expect(200);
    expect(Buffer.compare(got.body as Buffer, png)).toBe(0);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toContain('sandbox');
    expect(got.headers['cache-control']).toContain('immutable');
    // Once: the URL is spent.
    expectError(await t.http.put(pathOf(res.body.url)).set('Content-Type', 'image/png').send(png), 404);
    // A site's logo points at it, and the published site shows it.
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body.id;
    const cr = (await t.http.post(`/v1/spaces/${space}/change-requests`).set(admin.auth).send({}).expect(201)).body.id;
    await t.http
      .post(`/v1/spaces/${space}/change-requests/${cr}/content`)
      .set(admin.auth)
      .send({ changes: [{ operation: 'insert_page', ref: 'intro', slug: 'intro', document: { markdown: '# Intro\n\nHello.\n' } }] })
      .expect(200);
    await t.http.post(`/v1/spaces/${space}/change-requests/${cr}/merge`).set(admin.auth).expect(200);
    const site = (await t.http.post(`/v1/orgs/${orgId}/sites`).set(admin.auth).send({ title: 'Logo site' }).expect(201)).body.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId: space }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(admin.auth).expect(200);
    const custom = (await t.http.get(`/v1/orgs/${orgId}/sites/${site}/customization`).set(admin.auth).expect(200)).body;
    await t.http
      .put(`/v1/orgs/${orgId}/sites/${site}/customization`)
      .set(admin.auth)
      .send({ ...custom, header: { ...custom.header, logo: { light: put.body.url, dark: put.body.url } } })
      .expect(200);
    const page = await t.http.get(`/sites/${site}/intro`).expect(200);
    expect(page.text).toContain(`<img class="logo-light" src="${put.body.url}" alt/>`);
    // Another instance's plain-http address is not an image the page loads (https, or this instance's files).
    await t.http
      .put(`/v1/orgs/${orgId}/sites/${site}/customization`)
      .set(admin.auth)
      .send({
        ...custom,
        header: { ...custom.header, logo: { light: 'http://elsewhere.test/v1/storage/files/x.png', dark: 'http://elsewhere.test/x.png' } },
      })
      .expect(200);
    expect((await t.http.get(`/sites/${site}/intro`).expect(200)).text).not.toContain('logo-light');
  });

  it('an SVG is served so that it cannot run as a page of Quire (sandboxed, not sniffed)', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><circle r="4"/></svg>');
    const { url } = (
      await ask({ file: { name: 'icon.svg', type: 'image/svg+xml', size: svg.length }, kind: 'organization_file' }).expect(201)
    ).body;
    const put = (await t.http.put(pathOf(url)).set('Content-Type', 'image/svg+xml').send(svg).expect(200)).body;
    const got = await t.http.get(pathOf(put.url)).expect(200);
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });

  it('the bytes must be what was asked for: the type, exactly the size; a forged or expired URL: 404', async () => {
    const { url } = (await ask({ file: { name: 'a.png', type: 'image/png', size: png.length }, kind: 'organization_file' }).expect(201))
      .body;
    expectError(await t.http.put(pathOf(url)).set('Content-Type', 'image/jpeg').send(png), 400, /image\/png/);
    expectError(await t.http.put(pathOf(url)).set('Content-Type', 'image/png').send(png.subarray(1)), 400, /exactly/);
    expectError(
      await t.http
        .put(pathOf(url))
        .set('Content-Type', 'image/png')
        .send(Buffer.concat([png, Buffer.from('x')])),
      400,
      /exactly/,
    );
    // Still unused after refusals: the right bytes go in.
    await t.http.put(pathOf(url)).set('Content-Type', 'image/png').send(png).expect(200);
    expectError(await t.http.put('/v1/storage/uploads/forged-token').set('Content-Type', 'image/png').send(png), 404);
    expectError(
      await t.http
        .put(`/v1/storage/uploads/${'x'.repeat(500)}`)
        .set('Content-Type', 'image/png')
        .send(png),
      404,
    );
    const late = (await ask({ file: { name: 'late.png', type: 'image/png', size: png.length }, kind: 'organization_file' }).expect(201))
      .body;
    t.clock.advance(60 * 60_000);
    expectError(await t.http.put(pathOf(late.url)).set('Content-Type', 'image/png').send(png), 404);
    expectError(await t.http.get(`/v1/storage/files/${late.key}`), 404);
    expectError(await t.http.get(`/v1/storage/files/${orgId}/nope/a.png`), 404);
  });

  it('refuses what it does not keep and hostile input (400), before anything is stored', async () => {
    for (const body of [
      {},
      { file: { name: 'a.png', type: 'image/png', size: 10 } },
      { file: { name: 'a.png', type: 'image/png', size: 10 }, kind: 'elsewhere' },
      { file: { name: 'a.zip', type: 'application/zip', size: 10 }, kind: 'import_file' },
      { file: { name: 'a.html', type: 'text/html', size: 10 }, kind: 'organization_file' },
      { file: { name: 'a.png', type: 'image/png', size: 2 * 1024 * 1024 + 1 }, kind: 'organization_file' },
      { file: { name: 'a.png', type: 'image/png', size: 0 }, kind: 'organization_file' },
      { file: { name: 'a.png', type: 'image/png', size: 1.5 }, kind: 'organization_file' },
      { file: { name: 'a.png', type: 'image/png', size: '0x10' }, kind: 'organization_file' },
      { file: { name: null, type: 'image/png', size: 10 }, kind: 'organization_file' },
      { file: { name: 'a\u0000.png', type: 'image/png', size: 10 }, kind: 'organization_file' },
      { file: { name: '...', type: 'image/png', size: 10 }, kind: 'organization_file' },
      { file: { name: 'a.woff2', type: 'font/woff2', size: 5 * 1024 * 1024 + 1 }, kind: 'customization_font' },
      { file: 'a.png', kind: 'organization_file' },
    ])
      expectError(await ask(body), 400);
    // Fonts: woff2 and woff only (the official FontSource formats); TrueType and OpenType files are refused.
    for (const type of ['font/ttf', 'font/otf', 'image/png'])
      expectError(await ask({ file: { name: 'Inter.ttf', type, size: 1000 }, kind: 'customization_font' }), 400, /font\/woff2, font\/woff/);
  });

  it('two uploads to one URL at once: one is kept, the other told the URL is spent; JSON is no upload', async () => {
    const { url } = (await ask({ file: { name: 'race.png', type: 'image/png', size: png.length }, kind: 'organization_file' }).expect(201))
      .body;
    const both = await Promise.all([1, 2].map(() => t.http.put(pathOf(url)).set('Content-Type', 'image/png').send(png)));
    expect(both.map((r) => r.status).sort()).toEqual([200, 404]);
    const json = (await ask({ file: { name: 'j.png', type: 'image/png', size: 2 }, kind: 'organization_file' }).expect(201)).body;
    expectError(await t.http.put(pathOf(json.url)).set('Content-Type', 'application/json').send('{}'), 400);
  });

  it('an organization keeps at most 100 MB of uploads (waiting URLs count); URLs that expired unused free theirs', async () => {
    const owner = await t.user('storage-quota');
    const org = await t.organization(owner, 'Quota');
    const big = { file: { name: 'big.png', type: 'image/png', size: 2 * 1024 * 1024 }, kind: 'organization_file' };
    for (let i = 0; i < 50; i++) await ask(big, owner, org).expect(201);
    expectError(await ask(big, owner, org), 409, /100 MB/);
    // Another organization is not counted with it.
    await ask(big).expect(201);
    t.clock.advance(60 * 60_000 + 1);
    await ask(big, owner, org).expect(201);
  });

  it('members who may create sites may upload; a reader: 403; another organization’s admin or a stranger: 404', async () => {
    const file = { file: { name: 'a.png', type: 'image/png', size: 10 }, kind: 'organization_file' };
    const creator = await t.user('storage-creator');
    await t.member(orgId, creator, 'create');
    await ask(file, creator).expect(201);
    const reader = await t.user('storage-reader');
    await t.member(orgId, reader, 'read');
    expectError(await ask(file, reader), 403);
    const outsider = await t.user('storage-outsider');
    const otherOrg = await t.organization(outsider, 'Elsewhere');
    expectError(await ask(file, outsider), 404);
    await ask(file, outsider, otherOrg).expect(201);
    expectError(await ask(file, admin, otherOrg), 404);
    expectError(await t.http.post(`/v1/orgs/${orgId}/storage/upload`).send(file), 401);
  });
});
