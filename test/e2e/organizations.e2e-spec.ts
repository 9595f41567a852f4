import { ROLES } from '@app/shared-kernel';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';

describe('organizations', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin, 'Acme');
  });
  afterAll(async () => t.close());

  it('POST /v1/orgs creates an organization with the caller as admin (201, Location)', async () => {
    const u = await t.user('founder');
    const res = await t.http
      .post('/v1/orgs')
      .set(u.auth)
      .send({ title: 'Founded', emailDomains: ['Founded.io'] })
      .expect(201);
    expect(res.headers.location).toBe(`http://quire.test/v1/orgs/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'organization',
      title: 'Founded',
      emailDomains: ['founded.io'],
      type: 'business',
      plan: 'free',
      inviteLinks: true,
      mergeRules: { type: 'none' },
      trial: { status: 'notapplicable', count: 0 },
      internal_isOnNewTrial: true,
      urls: { location: `http://quire.test/v1/orgs/${res.body.id}`, app: `http://quire.test/app/o/${res.body.id}` },
      permissions: { admin: true, createContent: true },
    });
    expect(res.body.createdAt).toBe('2026-03-01T10:00:00.000Z');
    const list = await t.http.get('/v1/orgs').set(u.auth).expect(200);
    expect(list.body.items.map((o: { id: string }) => o.id)).toEqual([res.body.id]);
  });

  it('POST /v1/orgs?withDefaultSite=true is refused with a clear 400 and creates nothing; false and openapiUrl alone are accepted', async () => {
    const u = await t.user('sitewanted');
    const before = (await t.http.get('/v1/orgs').set(u.auth).expect(200)).body.items.length;
    const refused = expectError(await t.http.post('/v1/orgs?withDefaultSite=true').set(u.auth).send({ title: 'With a site' }), 400);
    expect(refused).toMatch(/withDefaultSite.*POST \/orgs\/\{organizationId\}\/sites.*nothing was created/);
    expect((await t.http.get('/v1/orgs').set(u.auth).expect(200)).body.items).toHaveLength(before);
    await t.http
      .post('/v1/orgs?withDefaultSite=false&openapiUrl=https://example.com/openapi.json')
      .set(u.auth)
      .send({ title: 'No site' })
      .expect(201);
    expectError(await t.http.post('/v1/orgs?withDefaultSite=yes').set(u.auth).send({ title: 'Maybe' }), 400, /withDefaultSite/);
    expectError(await t.http.post('/v1/orgs?openapiUrl=ftp://example.com/x').set(u.auth).send({ title: 'Bad URL' }), 400, /openapiUrl/);
  });

  it('POST /v1/orgs validates the title (2..255)', async () => {
    expectError(await t.http.post('/v1/orgs').set(admin.auth).send({}), 400, /title/);
    expectError(await t.http.post('/v1/orgs').set(admin.auth).send({ title: 'A' }), 400, /title/);
    expectError(
      await t.http
        .post('/v1/orgs')
        .set(admin.auth)
        .send({ title: 'x'.repeat(256) }),
      400,
      /title/,
    );
    await t.http
      .post('/v1/orgs')
      .set(admin.auth)
      .send({ title: 'x'.repeat(255) })
      .expect(201);
    await t.http.post('/v1/orgs').set(admin.auth).send({ title: 'ok' }).expect(201);
    expectError(
      await t.http
        .post('/v1/orgs')
        .set(admin.auth)
        .send({ title: 'Acme', emailDomains: ['not a domain'] }),
      400,
      /emailDomains/,
    );
  });

  it('GET /v1/orgs/{id}: members see it, others get 404', async () => {
    await t.http.get(`/v1/orgs/${orgId}`).set(admin.auth).expect(200);
    const stranger = await t.user('stranger');
    expectError(await t.http.get(`/v1/orgs/${orgId}`).set(stranger.auth), 404, /Organization/);
    expectError(await t.http.get('/v1/orgs/does-not-exist').set(admin.auth), 404);
  });

  it('PATCH /v1/orgs/{id} updates every field of spec 2.5', async () => {
    const other = await t.user('reviewer');
    await t.member(orgId, other, 'review');
    const res = await t.http
      .patch(`/v1/orgs/${orgId}`)
      .set(admin.auth)
      .send({
        title: 'Acme Inc.',
        emailDomains: ['acme.com', 'acme.io'],
        hostname: 'acme-docs',
        defaultRole: 'edit',
        defaultContent: { type: 'site', site: 'site_1' },
        logo: 'https://cdn.acme.com/logo.png',
        sso: true,
        ai: true,
        inviteLinks: false,
        mergeRules: {
          type: 'rules',
          rules: [{ rule: 'require_specific_reviewers', users: [other.id] }, { rule: 'require_at_least_one_review' }],
        },
      })
      .expect(200);
    expect(res.body).toMatchObject({
      title: 'Acme Inc.',
      emailDomains: ['acme.com', 'acme.io'],
      hostname: 'acme-docs',
      defaultRole: 'edit',
      defaultContent: { type: 'site', site: 'site_1' },
      sso: true,
      ai: true,
      inviteLinks: false,
      urls: { logo: 'https://cdn.acme.com/logo.png' },
      mergeRules: {
        type: 'rules',
        rules: [{ rule: 'require_specific_reviewers', users: [other.id] }, { rule: 'require_at_least_one_review' }],
      },
    });
    const again = await t.http.get(`/v1/orgs/${orgId}`).set(admin.auth).expect(200);
    expect(again.body).toMatchObject({ title: 'Acme Inc.', hostname: 'acme-docs', inviteLinks: false });

    const cleared = await t.http
      .patch(`/v1/orgs/${orgId}`)
      .set(admin.auth)
      .send({ defaultRole: null, defaultContent: null, logo: null })
      .expect(200);
    expect(cleared.body.defaultRole).toBeNull();
    expect(cleared.body).not.toHaveProperty('defaultContent');
    expect(cleared.body.urls).not.toHaveProperty('logo');
  });

  it('PATCH enforces the limits of spec 4.5 / 8', async () => {
    const bad: [object, RegExp][] = [
      [{ title: 'A' }, /title/],
      [{ title: 'x'.repeat(256) }, /title/],
      [{ hostname: 'ab' }, /hostname/],
      [{ hostname: 'a'.repeat(33) }, /hostname/],
      [{ hostname: 'no_underscores' }, /hostname/],
      [{ logo: 'not a url' }, /logo/],
      [{ logo: 'https://x.io/' + 'a'.repeat(2040) }, /logo/],
      [{ defaultRole: 'owner' }, /defaultRole/],
      [{ defaultContent: { type: 'space', site: 'x' } }, /type/],
      [{ sso: 'yes' }, /sso/],
      [{ mergeRules: { type: 'rules', rules: [{ rule: 'nope' }] } }, /mergeRules/],
      [{ mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass', users: ['not-a-member'] }] } }, /not a member/],
      [{ emailDomains: 'acme.com' }, /emailDomains/],
    ];
    for (const [body, message] of bad) expectError(await t.http.patch(`/v1/orgs/${orgId}`).set(admin.auth).send(body), 400, message);
    await t.http.patch(`/v1/orgs/${orgId}`).set(admin.auth).send({ hostname: 'abc' }).expect(200);
    await t.http
      .patch(`/v1/orgs/${orgId}`)
      .set(admin.auth)
      .send({ hostname: 'a'.repeat(32) })
      .expect(200);
    await t.http
      .patch(`/v1/orgs/${orgId}`)
      .set(admin.auth)
      .send({ logo: 'https://x.io/' + 'a'.repeat(2048 - 13) })
      .expect(200);
  });

  it('PATCH: a hostname used by another organization → 409', async () => {
    const otherOrg = await t.organization(admin, 'Other');
    await t.http.patch(`/v1/orgs/${otherOrg}`).set(admin.auth).send({ hostname: 'taken-name' }).expect(200);
    expectError(await t.http.patch(`/v1/orgs/${orgId}`).set(admin.auth).send({ hostname: 'taken-name' }), 409, /hostname/);
  });

  it.each(ROLES.filter((r) => r !== 'admin'))('PATCH by a %s member → 403, and permissions say so', async (role) => {
    const m = await t.user(role);
    await t.member(orgId, m, role);
    expectError(await t.http.patch(`/v1/orgs/${orgId}`).set(m.auth).send({ ai: false }), 403);
    const res = await t.http.get(`/v1/orgs/${orgId}`).set(m.auth).expect(200);
    expect(res.body.permissions.admin).toBe(false);
    expect(res.body.permissions.view).toBe(true);
    expect(res.body.permissions.createContent).toBe(role === 'create');
  });

  it('PATCH by a non-member → 404', async () => {
    const stranger = await t.user('outsider');
    expectError(await t.http.patch(`/v1/orgs/${orgId}`).set(stranger.auth).send({ ai: false }), 404);
  });
});
