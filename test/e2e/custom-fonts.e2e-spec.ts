import { GitBookAPI } from '@gitbook/api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { mergeChanges } from '../support/content';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/**
 * Custom fonts (#52, the official listCustomFonts, createCustomFont, getCustomFont, updateCustomFont,
 * deleteCustomFont): a family whose faces are font files the organization uploaded (kind customization_font), and
 * a published site that shows it when its customization names it.
 */
describe('custom fonts', () => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrg: string;
  let api: GitBookAPI;
  const official = officialValidator();
  // Real font files (KaTeX's sans-serif, SIL Open Font License), not made-up bytes.
  const fonts = join(process.cwd(), 'node_modules/katex/dist/fonts');
  const regular = readFileSync(join(fonts, 'KaTeX_SansSerif-Regular.woff2'));
  const bold = readFileSync(join(fonts, 'KaTeX_SansSerif-Bold.woff'));
  const italic = readFileSync(join(fonts, 'KaTeX_SansSerif-Italic.woff2'));
  const pathOf = (url: string) => new URL(url).pathname;

  /** Uploads a file as the official client would (signed URL, then PUT the bytes); its storage key and URL. */
  const upload = async (bytes: Buffer, type: string, name: string, who = admin, org = orgId, kind = 'customization_font') => {
    const signed = (
      await t.http
        .post(`/v1/orgs/${org}/storage/upload`)
        .set(who.auth)
        .send({ file: { name, type, size: bytes.length }, kind })
        .expect(201)
    ).body as { url: string; key: string };
    const put = await t.http.put(pathOf(signed.url)).set('Content-Type', type).send(bytes).expect(200);
    return { key: signed.key, url: put.body.url as string };
  };

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://quire.test' });
    admin = await t.user('admin');
    editor = await t.user('editor');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, editor, 'edit');
    otherOrg = await t.organization(outsider, 'Elsewhere');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  it('creates, lists, reads, updates and deletes a font through the official client; answers match both schemas', async () => {
    const r = await upload(regular, 'font/woff2', 'Sans-Regular.woff2');
    const b = await upload(bold, 'font/woff', 'Sans-Bold.woff');
    const created = await api.orgs.createCustomFont(orgId, {
      fontFamily: 'KaTeX Sans',
      fontFaces: [
        { weight: 700, storageKey: b.key },
        { weight: 400, storageKey: r.key },
      ],
    });
    expect(created.status).toBe(201);
    expect(official.check('CustomizationFontDefinition', created.data)).toBe('');
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('PUT', '/v1/orgs/{organizationId}/fonts', 201, created.data)).toEqual([]);
    // By weight; each face's file where it is served, with its format.
    expect(created.data).toEqual({
      id: expect.any(String),
      custom: true,
      fontFamily: 'KaTeX Sans',
      fontFaces: [
        { weight: 400, sources: [{ url: r.url, format: 'woff2' }] },
        { weight: 700, sources: [{ url: b.url, format: 'woff' }] },
      ],
      permissions: { edit: true },
    });
    const id = created.data.id;

    const listed = (await api.orgs.listCustomFonts(orgId)).data;
    expect(served.check('GET', '/v1/orgs/{organizationId}/fonts', 200, listed)).toEqual([]);
    expect(listed.items.map((f) => f.id)).toEqual([id]);
    expect(listed.count).toBe(1);
    // A member below create reads them and is told they may not edit.
    const asEditor = await t.http.get(`/v1/orgs/${orgId}/fonts/${id}`).set(editor.auth).expect(200);
    expect(asEditor.body.permissions).toEqual({ edit: false });
    expect(official.check('CustomizationFontDefinition', asEditor.body)).toBe('');

    // Update: rename, add a weight, remove one (null); the others stay.
    const i = await upload(italic, 'font/woff2', 'Sans-Italic.woff2');
    const updated = await api.orgs.updateCustomFont(orgId, id, {
      fontFamily: 'KaTeX Sans Pro',
      fontFaces: [
        { weight: 700, storageKey: null },
        { weight: 300, storageKey: i.key },
      ],
    });
    expect(updated.status).toBe(201);
    expect(served.check('POST', '/v1/orgs/{organizationId}/fonts/{fontId}', 201, updated.data)).toEqual([]);
    expect(updated.data.fontFamily).toBe('KaTeX Sans Pro');
    expect(updated.data.fontFaces.map((f) => [f.weight, f.sources[0].url])).toEqual([
      [300, i.url],
      [400, r.url],
    ]);
    expect((await api.orgs.getCustomFont(orgId, id)).data).toEqual(updated.data);

    // Removing weight 400 is a 412, and changes nothing.
    expectError(
      await t.http
        .post(`/v1/orgs/${orgId}/fonts/${id}`)
        .set(admin.auth)
        .send({ fontFamily: 'Lost', fontFaces: [{ weight: 400, storageKey: null }] }),
      412,
      /weight 400/,
    );
    expect((await api.orgs.getCustomFont(orgId, id)).data).toEqual(updated.data);

    // Delete: 205, then 204 (nothing there), then the font is gone.
    await t.http.delete(`/v1/orgs/${orgId}/fonts/${id}`).set(admin.auth).expect(205);
    await t.http.delete(`/v1/orgs/${orgId}/fonts/${id}`).set(admin.auth).expect(204);
    expectError(await t.http.get(`/v1/orgs/${orgId}/fonts/${id}`).set(admin.auth), 404);
    expect((await api.orgs.listCustomFonts(orgId)).data.items).toEqual([]);
  });

  it('a font needs weight 400 and files the organization uploaded as fonts (412); bad input is a 400 and writes nothing', async () => {
    const r = await upload(regular, 'font/woff2', 'Check-Regular.woff2');
    const b = await upload(bold, 'font/woff', 'Check-Bold.woff');
    const create = (body: unknown) =>
      t.http
        .put(`/v1/orgs/${orgId}/fonts`)
        .set(admin.auth)
        .send(body as object);
    expectError(await create({ fontFamily: 'Bold only', fontFaces: [{ weight: 700, storageKey: b.key }] }), 412, /weight 400/);
    // Another organization's font file, a logo (not a font), a URL still waiting for its bytes, a key that never was.
    const theirs = await upload(regular, 'font/woff2', 'Theirs.woff2', outsider, otherOrg);
    const png = readFileSync(join(process.cwd(), 'docs/screenshots/app-space.png'));
    const logo = await upload(png, 'image/png', 'logo.png', admin, orgId, 'organization_file');
    const waiting = (
      await t.http
        .post(`/v1/orgs/${orgId}/storage/upload`)
        .set(admin.auth)
        .send({ file: { name: 'later.woff2', type: 'font/woff2', size: regular.length }, kind: 'customization_font' })
        .expect(201)
    ).body.key as string;
    for (const key of [theirs.key, logo.key, waiting, `${orgId}/none/x.woff2`])
      expectError(await create({ fontFamily: 'Sans', fontFaces: [{ weight: 400, storageKey: key }] }), 412, /no uploaded font file/);
    for (const body of [
      {},
      { fontFamily: 'Sans' },
      { fontFamily: 'Sans', fontFaces: [] },
      {
        fontFamily: 'Sans',
        fontFaces: [
          { weight: 400, storageKey: r.key },
          { weight: 400, storageKey: b.key },
        ],
      },
      { fontFamily: 'Sans', fontFaces: [{ weight: '0x10', storageKey: r.key }] },
      { fontFamily: 'Sans', fontFaces: [{ weight: 0, storageKey: r.key }] },
      { fontFamily: 'Sans', fontFaces: [{ weight: 1001, storageKey: r.key }] },
      { fontFamily: 'Sans', fontFaces: [{ weight: 400.5, storageKey: r.key }] },
      { fontFamily: 'Sans', fontFaces: [{ weight: 400, storageKey: null }] },
      { fontFamily: 'Sans', fontFaces: [{ weight: 400 }] },
      { fontFamily: 'Sans', fontFaces: [r.key] },
      { fontFamily: null, fontFaces: [{ weight: 400, storageKey: r.key }] },
      { fontFamily: '', fontFaces: [{ weight: 400, storageKey: r.key }] },
      { fontFamily: 'x'.repeat(51), fontFaces: [{ weight: 400, storageKey: r.key }] },
      // Nothing that could leave a CSS string: quotes, braces, semicolons, backslashes, controls.
      { fontFamily: 'Sans"}body{color:red', fontFaces: [{ weight: 400, storageKey: r.key }] },
      { fontFamily: 'Sans;', fontFaces: [{ weight: 400, storageKey: r.key }] },
      { fontFamily: 'Sans\\', fontFaces: [{ weight: 400, storageKey: r.key }] },
      { fontFamily: 'Sans\u0000', fontFaces: [{ weight: 400, storageKey: r.key }] },
      { fontFamily: 'Sans', fontFaces: Array.from({ length: 19 }, (_, k) => ({ weight: 100 + k, storageKey: r.key })) },
    ])
      expectError(await create(body), 400);
    expect((await api.orgs.listCustomFonts(orgId)).data.items).toEqual([]);
    // A family of letters of any script, with spaces and ' - _ . inside, is kept (its spaces tidied).
    const ok = await create({ fontFamily: "  Noto  Sans JP d'Été ", fontFaces: [{ weight: 400, storageKey: r.key }] }).expect(201);
    expect(ok.body.fontFamily).toBe("Noto Sans JP d'Été");
    expectError(await t.http.post(`/v1/orgs/${orgId}/fonts/${ok.body.id}`).set(admin.auth).send({}), 400, /fontFamily or fontFaces/);
    await t.http.delete(`/v1/orgs/${orgId}/fonts/${ok.body.id}`).set(admin.auth).expect(205);
  });

  it('a file that is not the font it claims is refused at upload (400), and its URL still takes the right bytes', async () => {
    const signed = (
      await t.http
        .post(`/v1/orgs/${orgId}/storage/upload`)
        .set(admin.auth)
        .send({ file: { name: 'fake.woff2', type: 'font/woff2', size: bold.length }, kind: 'customization_font' })
        .expect(201)
    ).body as { url: string };
    // A woff file sent as woff2: the signature says otherwise.
    expectError(await t.http.put(pathOf(signed.url)).set('Content-Type', 'font/woff2').send(bold), 400, /wOF2/);
    const real = Buffer.concat([regular, Buffer.alloc(bold.length - regular.length)]);
    await t.http.put(pathOf(signed.url)).set('Content-Type', 'font/woff2').send(real).expect(200);
  });

  it('members read, those who may create sites write (403), other organizations see nothing (404)', async () => {
    const r = await upload(regular, 'font/woff2', 'Roles.woff2');
    const id = (await api.orgs.createCustomFont(orgId, { fontFamily: 'Roles', fontFaces: [{ weight: 400, storageKey: r.key }] })).data.id;
    expectError(
      await t.http
        .put(`/v1/orgs/${orgId}/fonts`)
        .set(editor.auth)
        .send({ fontFamily: 'No', fontFaces: [{ weight: 400, storageKey: r.key }] }),
      403,
    );
    expectError(await t.http.post(`/v1/orgs/${orgId}/fonts/${id}`).set(editor.auth).send({ fontFamily: 'No' }), 403);
    expectError(await t.http.delete(`/v1/orgs/${orgId}/fonts/${id}`).set(editor.auth), 403);
    await t.http.get(`/v1/orgs/${orgId}/fonts`).set(editor.auth).expect(200);
    // Another organization: not its fonts, not through its own organization's path either.
    expectError(await t.http.get(`/v1/orgs/${orgId}/fonts`).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/orgs/${orgId}/fonts/${id}`).set(outsider.auth), 404);
    expectError(await t.http.get(`/v1/orgs/${otherOrg}/fonts/${id}`).set(outsider.auth), 404);
    expectError(await t.http.post(`/v1/orgs/${otherOrg}/fonts/${id}`).set(outsider.auth).send({ fontFamily: 'Mine' }), 404);
    await t.http.delete(`/v1/orgs/${otherOrg}/fonts/${id}`).set(outsider.auth).expect(204);
    await t.http.delete(`/v1/orgs/${orgId}/fonts/${id}`).set(outsider.auth).expect(204);
    expect((await api.orgs.getCustomFont(orgId, id)).data.fontFamily).toBe('Roles');
    await t.http.delete(`/v1/orgs/${orgId}/fonts/${id}`).set(admin.auth).expect(205);
  });

  it('an organization keeps at most 100 fonts, even when two requests race for the last place', async () => {
    const owner = await t.user('font-quota');
    const org = await t.organization(owner, 'Fonts');
    const r = await upload(regular, 'font/woff2', 'Quota.woff2', owner, org);
    const body = { fontFamily: 'Many', fontFaces: [{ weight: 400, storageKey: r.key }] };
    for (let k = 0; k < 99; k++) await t.http.put(`/v1/orgs/${org}/fonts`).set(owner.auth).send(body).expect(201);
    const both = await Promise.all([1, 2].map(() => t.http.put(`/v1/orgs/${org}/fonts`).set(owner.auth).send(body)));
    expect(both.map((res) => res.status).sort()).toEqual([201, 409]);
    // Pages of the list follow each other without a gap or a repeat.
    const first = (await t.http.get(`/v1/orgs/${org}/fonts?limit=60`).set(owner.auth).expect(200)).body;
    const second = (await t.http.get(`/v1/orgs/${org}/fonts?limit=60&page=${first.next.page}`).set(owner.auth).expect(200)).body;
    const ids = [...first.items, ...second.items].map((f: { id: string }) => f.id);
    expect(new Set(ids).size).toBe(100);
    expect(second.next).toBeUndefined();
    expectError(await t.http.get(`/v1/orgs/${org}/fonts?page=forged`).set(owner.auth), 400);
  });

  it('a site whose customization names the font declares its faces; sources that are not the organization’s files are left out', async () => {
    const r = await upload(regular, 'font/woff2', 'Site-Regular.woff2');
    const b = await upload(bold, 'font/woff', 'Site-Bold.woff');
    const font = (
      await api.orgs.createCustomFont(orgId, {
        fontFamily: 'Site Sans',
        fontFaces: [
          { weight: 400, storageKey: r.key },
          { weight: 700, storageKey: b.key },
        ],
      })
    ).data;
    const space = (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title: 'Docs' }).expect(201)).body.id as string;
    await mergeChanges(t, admin, space, [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello.' } }]);
    const site = (await api.orgs.createSite(orgId, { title: 'Fonts' })).data.id;
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/site-spaces`).set(admin.auth).send({ spaceId: space }).expect(201);
    await t.http.post(`/v1/orgs/${orgId}/sites/${site}/publish`).set(admin.auth).expect(200);
    const custom = (await t.http.get(`/v1/orgs/${orgId}/sites/${site}/customization`).set(admin.auth).expect(200)).body;
    // The definition as getCustomFont answers it (without its permissions), plus hostile sources.
    const theirs = await upload(regular, 'font/woff2', 'Theirs-Site.woff2', outsider, otherOrg);
    const definition = {
      id: font.id,
      custom: true,
      fontFamily: font.fontFamily,
      fontFaces: [
        ...font.fontFaces,
        { weight: 300, sources: [{ url: 'https://fonts.example.com/evil.woff2', format: 'woff2' }] },
        { weight: 500, sources: [{ url: theirs.url, format: 'woff2' }] },
      ],
    };
    await t.http
      .put(`/v1/orgs/${orgId}/sites/${site}/customization`)
      .set(admin.auth)
      .send({ ...custom, styling: { ...custom.styling, font: definition } })
      .expect(200);
    const page = await t.http.get(`/sites/${site}/`).redirects(1).expect(200);
    expect(page.headers['content-security-policy']).toContain('font-src http://quire.test;');
    const css = (await t.http.get(`/sites/${site}/~site.css`).expect(200)).text;
    expect(css).toContain(
      `@font-face{font-family:"Site Sans";src:url("${r.url}") format("woff2");font-weight:400;font-style:normal;font-display:swap}`,
    );
    expect(css).toContain(`@font-face{font-family:"Site Sans";src:url("${b.url}") format("woff");font-weight:700;`);
    expect(css).toContain('html{font-family:"Site Sans",system-ui');
    expect(css).not.toContain('fonts.example.com');
    expect(css).not.toContain(theirs.url);
    expect(css.match(/@font-face/g)).toHaveLength(2);
    // The files load from another origin (a site's own hostname): public, in CORS mode.
    const file = await t.http.get(pathOf(r.url)).set('Origin', 'https://docs.example.com').buffer(true).expect(200);
    expect(file.headers['access-control-allow-origin']).toBe('*');
    expect(file.headers['content-type']).toBe('font/woff2');
    expect(Buffer.compare(file.body as Buffer, regular)).toBe(0);
    // An official font name still works as before.
    await t.http
      .put(`/v1/orgs/${orgId}/sites/${site}/customization`)
      .set(admin.auth)
      .send({ ...custom, styling: { ...custom.styling, font: 'OpenSans' } })
      .expect(200);
    const plain = (await t.http.get(`/sites/${site}/~site.css`).expect(200)).text;
    expect(plain).not.toContain('@font-face');
    expect(plain).toContain('html{font-family:"Open Sans",system-ui');
  });
});
