import { SignJWT } from 'jose';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';

describe('sites: share links, adaptive schema and conditions, customization, the published site', () => {
  let t: TestApp;
  let admin: TestUser;
  let creator: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  const official = officialValidator();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    creator = await t.user('creator');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin);
    await t.member(orgId, creator, 'create');
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
  });
  afterAll(async () => t.close());

  const space = async (title: string) =>
    (await t.http.post(`/v1/orgs/${orgId}/spaces`).set(admin.auth).send({ title }).expect(201)).body.id as string;
  const site = async (body: object = {}) =>
    (
      await t.http
        .post(`/v1/orgs/${orgId}/sites`)
        .set(admin.auth)
        .send({ title: 'Docs site', ...body })
        .expect(201)
    ).body.id as string;
  const base = (siteId: string) => `/v1/orgs/${orgId}/sites/${siteId}`;
  const published = (siteId: string, q = '', who: TestUser = reader) => t.http.get(`${base(siteId)}/published${q}`).set(who.auth);

  it('share links: admins create, rename, deactivate and delete them and see their keys; members see no key', async () => {
    const s = await site({ visibility: 'share-link' });
    const created = await t.http
      .post(`${base(s)}/share-links`)
      .set(admin.auth)
      .send({ name: 'Partners' })
      .expect(201);
    expect(created.body).toMatchObject({ object: 'share-link', name: 'Partners', active: true, key: expect.any(String) });
    expect(official.check('ShareLink', created.body)).toBe('');
    expect(created.headers.location).toMatch(new RegExp(`/sites/${s}/share-links/${created.body.id}$`));
    const id = created.body.id as string;
    const asReader = (
      await t.http
        .get(`${base(s)}/share-links`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(asReader.items).toHaveLength(1);
    expect(asReader.items[0].key).toBeUndefined();
    expect(asReader.items[0].urls.published).toBeUndefined();
    const asAdmin = (
      await t.http
        .get(`${base(s)}/share-links`)
        .set(admin.auth)
        .expect(200)
    ).body;
    expect(asAdmin.items[0].key).toBe(created.body.key);
    expect(official.checkList('ShareLink', asAdmin)).toBe('');

    expectError(
      await t.http
        .post(`${base(s)}/share-links`)
        .set(creator.auth)
        .send({ name: 'Mine' }),
      403,
    );
    expectError(
      await t.http
        .post(`${base(s)}/share-links`)
        .set(admin.auth)
        .send({}),
      400,
      /name/,
    );
    expectError(
      await t.http
        .post(`${base(s)}/share-links`)
        .set(admin.auth)
        .send({ name: 'n'.repeat(51) }),
      400,
      /name/,
    );
    await t.http
      .post(`${base(s)}/share-links`)
      .set(admin.auth)
      .send({ name: 'n'.repeat(50) })
      .expect(201);
    expectError(
      await t.http
        .patch(`${base(s)}/share-links/${id}`)
        .set(admin.auth)
        .send({}),
      400,
    );
    expectError(
      await t.http
        .patch(`${base(s)}/share-links/${id}`)
        .set(admin.auth)
        .send({ active: 'no' }),
      400,
      /active/,
    );
    expectError(
      await t.http
        .patch(`${base(s)}/share-links/nope`)
        .set(admin.auth)
        .send({ active: false }),
      404,
    );
    expect(
      (
        await t.http
          .patch(`${base(s)}/share-links/${id}`)
          .set(admin.auth)
          .send({ name: 'Resellers', active: false })
          .expect(200)
      ).body,
    ).toMatchObject({
      name: 'Resellers',
      active: false,
    });
    // search: names containing it (any case); a key only for those who may see keys, so a reader cannot probe for one.
    const other = (
      await t.http
        .post(`${base(s)}/share-links`)
        .set(admin.auth)
        .send({ name: 'Press kit' })
        .expect(201)
    ).body;
    const names = async (who: TestUser, q: string) =>
      (
        await t.http
          .get(`${base(s)}/share-links?search=${encodeURIComponent(q)}`)
          .set(who.auth)
          .expect(200)
      ).body.items
        .map((l: { name: string }) => l.name)
        .sort();
    expect(await names(admin, 'RESELL')).toEqual(['Resellers']);
    expect(await names(reader, 'press')).toEqual(['Press kit']);
    expect(await names(admin, other.key)).toEqual(['Press kit']);
    expect(await names(reader, other.key)).toEqual([]);
    expect(await names(admin, other.key.slice(0, 6))).toEqual([]);
    expect(await names(admin, '%')).toEqual([]);
    expectError(await t.http.get(`${base(s)}/share-links?search=`).set(admin.auth), 400, /search/);
    expectError(await t.http.delete(`${base(s)}/share-links/${id}`).set(creator.auth), 403);
    await t.http
      .delete(`${base(s)}/share-links/${id}`)
      .set(admin.auth)
      .expect(205);
    await t.http
      .delete(`${base(s)}/share-links/${id}`)
      .set(admin.auth)
      .expect(204);
    await t.http
      .delete(`${base(s)}/share-links/${id}`)
      .set(outsider.auth)
      .expect(204);
    expectError(await t.http.get(`${base(s)}/share-links`).set(outsider.auth), 404);
  });

  it('the published site: 404 until published, shape of the official document, share-link sites need the key of an active link', async () => {
    const [a, b] = [await space('Getting started'), await space('API')];
    const s = await site({ spaces: [a], visibility: 'public' });
    await t.http
      .post(`${base(s)}/sections`)
      .set(admin.auth)
      .send({ spaceId: b, title: 'API reference' })
      .expect(201);
    expectError(await published(s), 404);
    await t.http
      .post(`${base(s)}/publish`)
      .set(admin.auth)
      .expect(200);
    const res = await published(s).expect(200);
    expect(official.check('PublishedContentSite', res.body)).toBe('');
    expect(res.body).toMatchObject({
      object: 'published-content-site',
      site: { id: s, published: true },
      structure: { type: 'sections' },
      customizations: { site: { title: 'Docs site', styling: { theme: 'clean' } }, siteSpaces: {} },
      scripts: [],
    });
    // The first section adopted the site space held at the root.
    const [only] = res.body.structure.structure;
    expect(only.siteSpaces.map((x: { title: string; space: { id: string } }) => [x.title, x.space.id])).toEqual([
      ['Getting started', a],
      ['API', b],
    ]);
    const root = res.body.site.urls.published as string;
    expect(root).toMatch(new RegExp(`^https?://[^/]+/sites/${s}/$`));
    expect(only.urls.published).toBe(root);
    expect(only.siteSpaces.map((x: { urls: { published: string } }) => x.urls.published)).toEqual([root, `${root}api/`]);
    await t.http
      .post(`${base(s)}/sections`)
      .set(admin.auth)
      .send({ spaceId: b, title: 'Reference' })
      .expect(201);
    const two = (await published(s).expect(200)).body.structure.structure;
    expect(two[1].urls.published).toBe(`${root}reference/`);

    // A space renamed: the published structure follows at once.
    await t.http.patch(`/v1/spaces/${a}`).set(admin.auth).send({ title: 'Start here' }).expect(200);
    expect((await published(s).expect(200)).body.structure.structure[0].siteSpaces[0].title).toBe('Start here');

    // share-link visibility
    await t.http.patch(base(s)).set(admin.auth).send({ visibility: 'share-link' }).expect(200);
    expectError(await published(s), 404);
    const link = (
      await t.http
        .post(`${base(s)}/share-links`)
        .set(admin.auth)
        .send({ name: 'Partners' })
        .expect(201)
    ).body;
    expect(link.urls.published).toContain(`shareKey=${link.key}`);
    expectError(await published(s, '?shareKey=wrong'), 404);
    await published(s, `?shareKey=${link.key}`).expect(200);
    // the structure reads take the key too (a wrong one is a 404)
    await t.http
      .get(`${base(s)}/structure?shareKey=${link.key}`)
      .set(reader.auth)
      .expect(200);
    expectError(await t.http.get(`${base(s)}/sections?shareKey=wrong`).set(reader.auth), 404);
    // another site's key does not open this one
    const other = await site({ visibility: 'share-link' });
    const otherLink = (
      await t.http
        .post(`${base(other)}/share-links`)
        .set(admin.auth)
        .send({ name: 'X' })
        .expect(201)
    ).body;
    expectError(await published(s, `?shareKey=${otherLink.key}`), 404);
    // deactivated: stops working at once
    await t.http
      .patch(`${base(s)}/share-links/${link.id}`)
      .set(admin.auth)
      .send({ active: false })
      .expect(200);
    expectError(await published(s, `?shareKey=${link.key}`), 404);
    await t.http
      .patch(`${base(s)}/share-links/${link.id}`)
      .set(admin.auth)
      .send({ active: true })
      .expect(200);
    await published(s, `?shareKey=${link.key}`).expect(200);
    await t.http
      .delete(`${base(s)}/share-links/${link.id}`)
      .set(admin.auth)
      .expect(205);
    expectError(await published(s, `?shareKey=${link.key}`), 404);

    // visitor-auth: not readable without a visitor token
    await t.http.patch(base(s)).set(admin.auth).send({ visibility: 'visitor-auth' }).expect(200);
    expectError(await published(s), 404);
    await t.http.patch(base(s)).set(admin.auth).send({ visibility: 'unlisted' }).expect(200);
    await published(s).expect(200);
    await t.http
      .post(`${base(s)}/unpublish`)
      .set(admin.auth)
      .expect(200);
    expectError(await published(s), 404);
    // non-members get nothing
    expectError(await published(s, '', outsider), 404);
  });

  it('the published site answers each caller for themselves: the site as visitors see it, narrowed to the spaces the caller reads, with their own permissions, whatever the order of callers', async () => {
    // Two identical sites, each with an open space and a space closed to the organization (defaultLevel null).
    const setup = async () => {
      const open = await space('Open');
      const closed = await space('Closed');
      await t.http.patch(`/v1/spaces/${closed}`).set(admin.auth).send({ defaultLevel: null }).expect(200);
      const s = await site({ spaces: [open, closed], visibility: 'public' });
      await t.http
        .post(`${base(s)}/publish`)
        .set(admin.auth)
        .expect(200);
      return { s, open, closed };
    };
    const x = await setup();
    const y = await setup();
    /** The answer with the ids of one setup put in neutral names, to compare the two sites. */
    const neutral = (body: unknown, ids: { s: string; open: string; closed: string }) =>
      JSON.parse(
        JSON.stringify(body)
          .replaceAll(ids.s, 'SITE')
          .replaceAll(ids.open, 'OPEN')
          .replaceAll(ids.closed, 'CLOSED')
          .replace(/"id":"[^"]+"/g, '"id":"…"')
          .replace(/~preview\/[^/"]+/g, '~preview/…')
          .replace(/"(createdAt|updatedAt|revision)":"[^"]+"/g, '"$1":"…"'),
      );
    // x: the admin asks first, then the reader; y: the other way round.
    const adminX = (await published(x.s, '', admin).expect(200)).body;
    const readerX = (await published(x.s, '', reader).expect(200)).body;
    const readerY = (await published(y.s, '', reader).expect(200)).body;
    const adminY = (await published(y.s, '', admin).expect(200)).body;
    expect(neutral(adminX, x)).toEqual(neutral(adminY, y));
    expect(neutral(readerX, x)).toEqual(neutral(readerY, y));
    // And again, in the other order on the same site, now that both are cached.
    expect((await published(x.s, '', reader).expect(200)).body).toEqual(readerX);
    expect((await published(x.s, '', admin).expect(200)).body).toEqual(adminX);

    for (const [who, body] of [
      ['admin', adminX],
      ['reader', readerX],
    ] as const) {
      expect(official.check('PublishedContentSite', body)).toBe('');
      const siteSpaces = body.structure.structure as { title: string; space: { id: string; permissions: Record<string, boolean> } }[];
      if (who === 'admin') {
        // Both spaces, as a visitor sees the site; the admin's own permissions.
        expect(siteSpaces.map((ss) => [ss.title, ss.space.id])).toEqual([
          ['Open', x.open],
          ['Closed', x.closed],
        ]);
        expect(body.site.permissions).toMatchObject({ view: true, edit: true, admin: true });
        for (const ss of siteSpaces) expect(ss.space.permissions).toMatchObject({ view: true, edit: true, admin: true });
      } else {
        // The space closed to the reader is left out (its space object says more than a visitor sees).
        expect(siteSpaces.map((ss) => [ss.title, ss.space.id])).toEqual([['Open', x.open]]);
        expect(JSON.stringify(body)).not.toContain(x.closed);
        expect(body.site.permissions).toMatchObject({ view: true, edit: false, admin: false });
        expect(siteSpaces[0].space.permissions).toMatchObject({ view: true, edit: false, admin: false });
      }
    }
  });

  it('adaptive schema: validated with Ajv, 404 when absent, template conditions from its claims', async () => {
    const s = await site();
    expectError(await t.http.get(`${base(s)}/adaptive-schema`).set(reader.auth), 404, /schema/i);
    expect(
      (
        await t.http
          .get(`${base(s)}/adaptive-schema/template-conditions`)
          .set(reader.auth)
          .expect(200)
      ).body,
    ).toEqual({ items: [] });
    const jsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        isBeta: { type: 'boolean', description: 'Beta tester' },
        isPaid: { type: 'boolean', description: 'Paying customer' },
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { fromApp: { type: 'boolean', description: 'Came from the app' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    const put = await t.http
      .put(`${base(s)}/adaptive-schema`)
      .set(admin.auth)
      .send({ jsonSchema })
      .expect(200);
    expect(put.body).toMatchObject({ object: 'site-adaptive-schema', jsonSchema, updatedAt: expect.any(String) });
    expect(official.check('SiteAdaptiveSchema', put.body)).toBe('');
    expect(
      (
        await t.http
          .get(`${base(s)}/adaptive-schema`)
          .set(reader.auth)
          .expect(200)
      ).body.jsonSchema,
    ).toEqual(jsonSchema);
    expect(
      (
        await t.http
          .get(`${base(s)}/adaptive-schema/template-conditions`)
          .set(reader.auth)
          .expect(200)
      ).body.items,
    ).toEqual([
      { description: 'Beta tester', condition: 'visitor.claims.isBeta' },
      { description: 'Paying customer', condition: 'visitor.claims.isPaid' },
      { description: 'Came from the app', condition: 'visitor.claims.unsigned.fromApp' },
    ]);

    const bad = (schema: unknown, message: RegExp) =>
      t.http
        .put(`${base(s)}/adaptive-schema`)
        .set(admin.auth)
        .send({ jsonSchema: schema })
        .then((r) => expectError(r, 400, message));
    await bad({ ...jsonSchema, type: 'array' }, /jsonSchema\/type must be "object"/);
    await bad({ ...jsonSchema, additionalProperties: true }, /additionalProperties must be false/);
    await bad(
      { ...jsonSchema, properties: { age: { type: 'number', description: 'Age' } } },
      /jsonSchema\/properties\/age\/type must be "boolean"/,
    );
    await bad({ ...jsonSchema, properties: { isBeta: { type: 'boolean' } } }, /description/);
    await bad({ ...jsonSchema, properties: { 'bad name': { type: 'boolean', description: 'x' } } }, /property name/);
    await bad({ ...jsonSchema, required: ['isBeta'] }, /unknown property "required"/);
    await bad({ ...jsonSchema, $schema: 'https://json-schema.org/draft/2020-12/schema' }, /\$schema/);
    await bad('a string', /jsonSchema/);
    await bad(null, /jsonSchema/);
    expectError(
      await t.http
        .put(`${base(s)}/adaptive-schema`)
        .set(admin.auth)
        .send({}),
      400,
      /jsonSchema/,
    );
    expectError(
      await t.http
        .put(`${base(s)}/adaptive-schema`)
        .set(creator.auth)
        .send({ jsonSchema }),
      403,
    );
    // nothing of the refused ones was kept
    expect(
      (
        await t.http
          .get(`${base(s)}/adaptive-schema`)
          .set(reader.auth)
          .expect(200)
      ).body.jsonSchema,
    ).toEqual(jsonSchema);
  });

  it('conditions of sections and site spaces are evaluated against the visitor claims on the published site', async () => {
    const [a, b, c] = [await space('Everyone'), await space('Beta'), await space('Paid')];
    const s = await site();
    const everyone = (
      await t.http
        .post(`${base(s)}/sections`)
        .set(admin.auth)
        .send({ spaceId: a, title: 'Everyone' })
        .expect(201)
    ).body;
    const beta = (
      await t.http
        .post(`${base(s)}/sections`)
        .set(admin.auth)
        .send({ spaceId: b, title: 'Beta' })
        .expect(201)
    ).body;
    const paid = (
      await t.http
        .post(`${base(s)}/site-spaces`)
        .set(admin.auth)
        .send({ spaceId: c, sectionId: everyone.id })
        .expect(201)
    ).body;
    await t.http
      .patch(`${base(s)}/sections/${beta.id}`)
      .set(admin.auth)
      .send({ condition: 'visitor.claims.isBeta' })
      .expect(200);
    await t.http
      .patch(`${base(s)}/site-spaces/${paid.id}`)
      .set(admin.auth)
      .send({ condition: 'visitor.claims.isPaid && !visitor.claims.unsigned.fromApp' })
      .expect(200);
    await t.http
      .put(`${base(s)}/adaptive-schema`)
      .set(admin.auth)
      .send({
        jsonSchema: {
          type: 'object',
          properties: {
            isBeta: { type: 'boolean', description: 'Beta' },
            isPaid: { type: 'boolean', description: 'Paid' },
            unsigned: {
              type: 'object',
              description: 'Unsigned claims of the site visitor.',
              properties: { fromApp: { type: 'boolean', description: 'App' } },
              additionalProperties: false,
            },
          },
          additionalProperties: false,
        },
      })
      .expect(200);
    await t.http
      .post(`${base(s)}/publish`)
      .set(admin.auth)
      .expect(200);
    const seen = async (claims?: object) => {
      const q = claims ? `?visitorClaims=${encodeURIComponent(JSON.stringify(claims))}` : '';
      const body = (await published(s, q).expect(200)).body;
      return body.structure.structure.map((x: { title: string; siteSpaces: { title: string }[] }) => [
        x.title,
        x.siteSpaces.map((y) => y.title),
      ]);
    };
    // Adaptive content off: conditions are not applied.
    expect(await seen()).toEqual([
      ['Everyone', ['Everyone', 'Paid']],
      ['Beta', ['Beta']],
    ]);
    await t.http
      .patch(base(s))
      .set(admin.auth)
      .send({ adaptiveContent: { enabled: true } })
      .expect(200);
    expect(await seen()).toEqual([['Everyone', ['Everyone']]]);
    expect(await seen({ isBeta: true })).toEqual([
      ['Everyone', ['Everyone']],
      ['Beta', ['Beta']],
    ]);
    expect(await seen({ isPaid: true })).toEqual([['Everyone', ['Everyone', 'Paid']]]);
    expect(await seen({ isPaid: true, unsigned: { fromApp: true } })).toEqual([['Everyone', ['Everyone']]]);
    expect(await seen({ isBeta: false, isPaid: true })).toEqual([['Everyone', ['Everyone', 'Paid']]]);
    // Claims that do not fit the schema, or are not JSON: 400
    expectError(await published(s, `?visitorClaims=${encodeURIComponent('{"isBeta":"yes"}')}`), 400, /claims/);
    expectError(await published(s, `?visitorClaims=${encodeURIComponent('{"unknown":true}')}`), 400, /unknown/);
    expectError(await published(s, '?visitorClaims=nope'), 400, /JSON/);
    expectError(await published(s, `?visitorClaims=${encodeURIComponent('[1]')}`), 400, /object/);
    // When the default section is hidden, the visitor's first visible section is their default.
    await t.http.patch(base(s)).set(admin.auth).send({ defaultSiteSection: beta.id }).expect(200);
    const body = (await published(s).expect(200)).body;
    expect(body.structure.structure.map((x: { title: string; default: boolean }) => [x.title, x.default])).toEqual([['Everyone', true]]);
  });

  it('customization: defaults valid against the official schema; PUT validated against it; the published site carries it', async () => {
    const s = await site({ spaces: [await space('Styled')] });
    const defaults = (
      await t.http
        .get(`${base(s)}/customization`)
        .set(reader.auth)
        .expect(200)
    ).body;
    expect(official.check('SiteCustomizationSettings', defaults)).toBe('');
    // The official (deprecated) `unmasked`: nothing is masked, so both values answer the same; anything else is a 400.
    for (const unmasked of ['true', 'false'])
      expect(
        (
          await t.http
            .get(`${base(s)}/customization?unmasked=${unmasked}`)
            .set(reader.auth)
            .expect(200)
        ).body,
      ).toEqual(defaults);
    expectError(await t.http.get(`${base(s)}/customization?unmasked=1`).set(reader.auth), 400, /unmasked/);
    const next = {
      ...defaults,
      styling: { ...defaults.styling, primaryColor: { light: '#112233', dark: '#445566' }, corners: 'straight' },
    };
    const put = await t.http
      .put(`${base(s)}/customization`)
      .set(admin.auth)
      .send(next)
      .expect(200);
    expect(put.body).toMatchObject({ styling: { primaryColor: { light: '#112233' }, corners: 'straight' }, updatedAt: expect.any(String) });
    expect(official.check('SiteCustomizationSettings', put.body)).toBe('');
    expect(
      (
        await t.http
          .get(`${base(s)}/customization`)
          .set(reader.auth)
          .expect(200)
      ).body.styling.corners,
    ).toBe('straight');
    expectError(
      await t.http
        .put(`${base(s)}/customization`)
        .set(admin.auth)
        .send({ ...next, styling: { ...next.styling, corners: 'wavy' } }),
      400,
      /customization\/styling\/corners/,
    );
    expectError(
      await t.http
        .put(`${base(s)}/customization`)
        .set(admin.auth)
        .send({ ...next, styling: { ...next.styling, primaryColor: { light: 'red', dark: '#000' } } }),
      400,
      /primaryColor/,
    );
    const { header: _header, ...withoutHeader } = next;
    expectError(
      await t.http
        .put(`${base(s)}/customization`)
        .set(admin.auth)
        .send(withoutHeader),
      400,
      /header/,
    );
    expectError(
      await t.http
        .put(`${base(s)}/customization`)
        .set(admin.auth)
        .send([1, 2]),
      400,
    );
    expectError(
      await t.http
        .put(`${base(s)}/customization`)
        .set(creator.auth)
        .send(next),
      403,
    );
    await t.http
      .post(`${base(s)}/publish`)
      .set(admin.auth)
      .expect(200);
    const pub = (await published(s).expect(200)).body;
    expect(pub.customizations.site.styling.corners).toBe('straight');
    expect(official.check('PublishedContentSite', pub)).toBe('');
  });

  it('visitor-auth: a visitor token signed with the site key opens the site; its claims drive the conditions', async () => {
    const [a, b] = [await space('Public part'), await space('Partner part')];
    const s = await site({ visibility: 'visitor-auth' });
    await t.http
      .post(`${base(s)}/sections`)
      .set(admin.auth)
      .send({ spaceId: a, title: 'Open' })
      .expect(201);
    const partner = (
      await t.http
        .post(`${base(s)}/sections`)
        .set(admin.auth)
        .send({ spaceId: b, title: 'Partners' })
        .expect(201)
    ).body;
    await t.http
      .patch(`${base(s)}/sections/${partner.id}`)
      .set(admin.auth)
      .send({ condition: 'visitor.claims.partner' })
      .expect(200);
    await t.http
      .put(`${base(s)}/adaptive-schema`)
      .set(admin.auth)
      .send({
        jsonSchema: {
          type: 'object',
          properties: {
            partner: { type: 'boolean', description: 'Partner' },
            unsigned: {
              type: 'object',
              description: 'Unsigned claims of the site visitor.',
              properties: { tour: { type: 'boolean', description: 'Tour' } },
              additionalProperties: false,
            },
          },
          additionalProperties: false,
        },
      })
      .expect(200);
    await t.http
      .patch(base(s))
      .set(admin.auth)
      .send({ adaptiveContent: { enabled: true } })
      .expect(200);
    await t.http
      .post(`${base(s)}/publish`)
      .set(admin.auth)
      .expect(200);

    expectError(await t.http.get(`${base(s)}/publishing/auth`).set(creator.auth), 403);
    const auth = (
      await t.http
        .get(`${base(s)}/publishing/auth`)
        .set(admin.auth)
        .expect(200)
    ).body;
    expect(auth).toMatchObject({ object: 'publishing-auth', backend: 'custom', privateKey: expect.any(String) });
    expect(official.check('SitePublishingAuth', auth)).toBe('');
    expect(
      (
        await t.http
          .get(`${base(s)}/publishing/auth`)
          .set(admin.auth)
          .expect(200)
      ).body.privateKey,
    ).toBe(auth.privateKey);
    const sign = (claims: object, key: string = auth.privateKey, expiresIn: string | number = '1h') =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(new TextEncoder().encode(key));
    const read = (token: string, claims?: object) =>
      published(
        s,
        `?visitorToken=${encodeURIComponent(token)}${claims ? `&visitorClaims=${encodeURIComponent(JSON.stringify(claims))}` : ''}`,
      );
    const titles = (body: { structure: { structure: { title: string }[] } }) => body.structure.structure.map((x) => x.title);

    expectError(await published(s), 404);
    expect(titles((await read(await sign({ sub: 'v1', partner: false, team: 'ignored' })).expect(200)).body)).toEqual(['Open']);
    expect(titles((await read(await sign({ partner: true })).expect(200)).body)).toEqual(['Open', 'Partners']);
    expect(titles((await read(await sign({}), { unsigned: { tour: true } }).expect(200)).body)).toEqual(['Open']);
    // a visitor cannot sign their own claims through visitorClaims
    expectError(await read(await sign({}), { partner: true }), 400, /visitor token/);
    // wrong key, expired, no expiry, another algorithm, garbage: 404 as for a visitor who is not logged in
    expectError(await read(await sign({ partner: true }, 'another key')), 404);
    expectError(await read(await sign({ partner: true }, auth.privateKey, Math.floor(t.clock.now().getTime() / 1000) - 10)), 404);
    const noExp = await new SignJWT({ partner: true }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(auth.privateKey));
    expectError(await read(noExp), 404);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"partner":true,"exp":9999999999}').toString('base64url')}.`;
    expectError(await read(unsigned), 404);
    expectError(await read('not.a.jwt'), 404);

    const patched = await t.http
      .patch(`${base(s)}/publishing/auth`)
      .set(admin.auth)
      .send({ backend: 'custom', fallbackURL: 'https://login.acme.example/', logoutURL: 'https://login.acme.example/out' })
      .expect(200);
    expect(patched.body).toMatchObject({
      fallbackURL: 'https://login.acme.example/',
      logoutURL: 'https://login.acme.example/out',
      privateKey: auth.privateKey,
    });
    expect(
      (
        await t.http
          .patch(`${base(s)}/publishing/auth`)
          .set(admin.auth)
          .send({ logoutURL: null })
          .expect(200)
      ).body.logoutURL,
    ).toBeUndefined();
    expectError(
      await t.http
        .patch(`${base(s)}/publishing/auth`)
        .set(admin.auth)
        .send({ fallbackURL: 'javascript:alert(1)' }),
      400,
      /fallbackURL/,
    );
    expectError(
      await t.http
        .patch(`${base(s)}/publishing/auth`)
        .set(admin.auth)
        .send({ backend: 'integration' }),
      400,
      /integration/,
    );

    const token = await sign({ partner: true });
    await read(token).expect(200);
    const regenerated = (
      await t.http
        .post(`${base(s)}/publishing/auth/regenerate`)
        .set(admin.auth)
        .expect(200)
    ).body;
    expect(regenerated.privateKey).not.toBe(auth.privateKey);
    expect(regenerated.fallbackURL).toBe('https://login.acme.example/');
    expectError(await read(token), 404);
    await read(await sign({ partner: true }, regenerated.privateKey)).expect(200);
  });
});
