import { DataSource } from 'typeorm';
import { IdentityService } from '@app/organizations-and-teams';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { authnRequestId, createTestIdp, signedResponse, TestIdp } from '../support/test-idp';

describe('SAML providers and a real SSO login', () => {
  let t: TestApp;
  let admin: TestUser;
  let orgId: string;
  let idp: TestIdp;
  let otherIdp: TestIdp;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.user('admin');
    orgId = await t.organization(admin);
    idp = await createTestIdp('idp.test');
    otherIdp = await createTestIdp('evil.test');
  });
  afterAll(async () => t.close());

  describe('providers', () => {
    it('creates a pending provider with Quire’s own service URLs (201, Location)', async () => {
      const res = await t.http.post(`/v1/orgs/${orgId}/saml`).set(admin.auth).send({ label: 'Okta' }).expect(201);
      const id = res.body.id;
      expect(res.headers.location).toBe(`http://quire.test/v1/orgs/${orgId}/saml/${id}`);
      expect(res.body).toEqual({
        object: 'saml-provider',
        id,
        label: 'Okta',
        ssoURL: '',
        entityID: '',
        certificate: '',
        defaultRole: null,
        createdAt: t.clock.now().toISOString(),
        status: 'pending',
        service: {
          acsURL: `http://quire.test/v1/sso/saml/${id}/acs`,
          startURL: `http://quire.test/v1/sso/saml/${id}/start`,
          entityID: `http://quire.test/v1/sso/saml/${id}/metadata`,
        },
        urls: { location: `http://quire.test/v1/orgs/${orgId}/saml/${id}` },
      });
    });

    it('enforces the limits of spec 8 and a parseable certificate; defaultTeam must be a team of the organization', async () => {
      const bad: [object, RegExp][] = [
        [{}, /label/],
        [{ label: '' }, /label/],
        [{ label: 'x'.repeat(31) }, /label/],
        [{ label: 'L', entityID: 'e'.repeat(1025) }, /entityID/],
        [{ label: 'L', certificate: 'c'.repeat(10_001) }, /certificate/],
        [{ label: 'L', certificate: '-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----' }, /X\.509/],
        [{ label: 'L', ssoURL: 'ftp://idp.test/sso' }, /ssoURL/],
        [{ label: 'L', ssoURL: 'https://idp.test/' + 'a'.repeat(2040) }, /ssoURL/],
        [{ label: 'L', defaultTeam: 'no-such-team' }, /defaultTeam/],
        [{ label: 'L', defaultRole: 'owner' }, /defaultRole/],
      ];
      for (const [body, message] of bad) expectError(await t.http.post(`/v1/orgs/${orgId}/saml`).set(admin.auth).send(body), 400, message);
      await t.http
        .post(`/v1/orgs/${orgId}/saml`)
        .set(admin.auth)
        .send({ label: 'x'.repeat(30), entityID: 'e'.repeat(1024), ssoURL: 'https://idp.test/' + 'a'.repeat(2048 - 17) })
        .expect(201);
      const foreign = await t.user('foreign');
      const foreignOrg = await t.organization(foreign);
      const foreignTeam = (await t.http.put(`/v1/orgs/${foreignOrg}/teams`).set(foreign.auth).send({ title: 'Theirs' }).expect(201)).body;
      expectError(
        await t.http.post(`/v1/orgs/${orgId}/saml`).set(admin.auth).send({ label: 'L', defaultTeam: foreignTeam.id }),
        400,
        /defaultTeam/,
      );
    });

    it('GET, PATCH, DELETE (205 then 204); admins only; GET /sso lists configured providers', async () => {
      const p = (await t.http.post(`/v1/orgs/${orgId}/saml`).set(admin.auth).send({ label: 'Temp' }).expect(201)).body;
      const team = (await t.http.put(`/v1/orgs/${orgId}/teams`).set(admin.auth).send({ title: 'SSO people' }).expect(201)).body;
      const patched = await t.http
        .patch(`/v1/orgs/${orgId}/saml/${p.id}`)
        .set(admin.auth)
        .send({ entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL, defaultTeam: team.id, defaultRole: 'comment' })
        .expect(200);
      expect(patched.body).toMatchObject({
        entityID: idp.entityID,
        ssoURL: idp.ssoURL,
        defaultRole: 'comment',
        status: 'pending',
        defaultTeam: { id: team.id, title: 'SSO people' },
      });
      await t.http.get(`/v1/orgs/${orgId}/saml/${p.id}`).set(admin.auth).expect(200);
      const editor = await t.user('editor');
      await t.member(orgId, editor, 'edit');
      expectError(await t.http.get(`/v1/orgs/${orgId}/saml`).set(editor.auth), 403);
      expectError(await t.http.patch(`/v1/orgs/${orgId}/saml/${p.id}`).set(editor.auth).send({ label: 'x' }), 403);
      const logins = await t.http.get(`/v1/orgs/${orgId}/sso`).set(editor.auth).expect(200);
      expect(logins.body.items).toContainEqual({ id: p.id, label: 'Temp', startURL: `http://quire.test/v1/sso/saml/${p.id}/start` });
      expect(logins.body).not.toHaveProperty('count');
      const list = await t.http.get(`/v1/orgs/${orgId}/saml?limit=1`).set(admin.auth).expect(200);
      expect(list.body.items).toHaveLength(1);
      const all = await t.http.get(`/v1/orgs/${orgId}/saml?limit=1000`).set(admin.auth).expect(200);
      expect(all.body.items.map((x: { id: string }) => x.id)).toContain(p.id);
      expect(list.body.count).toBe(all.body.items.length);
      expect(list.body.next).toEqual({ page: expect.any(String) });
      await t.http.delete(`/v1/orgs/${orgId}/saml/${p.id}`).set(admin.auth).expect(205);
      await t.http.delete(`/v1/orgs/${orgId}/saml/${p.id}`).set(admin.auth).expect(204);
      expectError(await t.http.get(`/v1/orgs/${orgId}/saml/${p.id}`).set(admin.auth), 404);
      const stranger = await t.user('stranger');
      expectError(await t.http.get(`/v1/orgs/${orgId}/sso`).set(stranger.auth), 404);
    });
  });

  describe('login', () => {
    let providerId: string;
    let teamId: string;
    let sp: { acsURL: string; startURL: string; entityID: string };

    beforeAll(async () => {
      teamId = (await t.http.put(`/v1/orgs/${orgId}/teams`).set(admin.auth).send({ title: 'From SSO' }).expect(201)).body.id;
      const p = (
        await t.http
          .post(`/v1/orgs/${orgId}/saml`)
          .set(admin.auth)
          .send({
            label: 'Corp IdP',
            entityID: idp.entityID,
            certificate: idp.certificate,
            ssoURL: idp.ssoURL,
            defaultTeam: teamId,
            defaultRole: 'edit',
          })
          .expect(201)
      ).body;
      providerId = p.id;
      sp = p.service;
      expect(p.status).toBe('pending');
    });

    const start = async () => {
      const res = await t.http.get(`/v1/sso/saml/${providerId}/start`).expect(302);
      expect(res.headers.location.startsWith(`${idp.ssoURL}?SAMLRequest=`)).toBe(true);
      return authnRequestId(res.headers.location);
    };
    const acs = (samlResponse: string) => t.http.post(`/v1/sso/saml/${providerId}/acs`).type('form').send({ SAMLResponse: samlResponse });
    const memberEmails = async () =>
      (await t.http.get(`/v1/orgs/${orgId}/members?limit=1000`).set(admin.auth).expect(200)).body.items.map(
        (m: { user: { email: string } }) => m.user.email,
      );

    it('start redirects with an AuthnRequest for our ACS; metadata describes the service provider', async () => {
      const { xml } = await start();
      expect(xml).toContain(`AssertionConsumerServiceURL="${sp.acsURL}"`);
      expect(xml).toContain(`<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${sp.entityID}</saml:Issuer>`);
      const meta = await t.http.get(`/v1/sso/saml/${providerId}/metadata`).expect(200);
      expect(meta.headers['content-type']).toMatch(/samlmetadata\+xml/);
      expect(meta.text).toContain(`entityID="${sp.entityID}"`);
      expectError(await t.http.get('/v1/sso/saml/unknown/start'), 404);
    });

    it('a signed response logs in: user created, SSO member with the default role and team, token returned, provider active', async () => {
      const { id } = await start();
      const res = await acs(
        signedResponse(idp, {
          inResponseTo: id,
          acsURL: sp.acsURL,
          audience: sp.entityID,
          email: 'sam@corp.test',
          displayName: 'Sam Corp',
        }),
      ).expect(200);
      expect(res.body).toMatchObject({
        object: 'sso-login',
        email: 'sam@corp.test',
        organization: orgId,
        role: 'edit',
        token: expect.stringMatching(/^qr_/),
      });
      const me = await t.http.get('/v1/user').set('Authorization', `Bearer ${res.body.token}`).expect(200);
      expect(me.body).toMatchObject({ email: 'sam@corp.test', displayName: 'Sam Corp' });
      const member = await t.http.get(`/v1/orgs/${orgId}/members/${res.body.user}`).set(admin.auth).expect(200);
      expect(member.body).toMatchObject({ role: 'edit', sso: true, teams: 1 });
      const team = await t.http.get(`/v1/orgs/${orgId}/teams/${teamId}/members`).set(admin.auth).expect(200);
      expect(team.body.items.map((i: { organization: { id: string } }) => i.organization.id)).toContain(res.body.user);
      expect((await t.http.get(`/v1/orgs/${orgId}/saml/${providerId}`).set(admin.auth).expect(200)).body.status).toBe('active');

      // A second login of the same person updates them and keeps their role.
      await t.http.patch(`/v1/orgs/${orgId}/members/${res.body.user}`).set(admin.auth).send({ role: 'review' }).expect(200);
      const again = await start();
      const second = await acs(
        signedResponse(idp, { inResponseTo: again.id, acsURL: sp.acsURL, audience: sp.entityID, email: 'SAM@corp.test' }),
      ).expect(200);
      expect(second.body).toMatchObject({ user: res.body.user, role: 'review' });
    });

    it('a login begun at the web app, in that browser, ends in an app session limited to the organization, and the app (303)', async () => {
      const began = async () => {
        const res = await t.http.get(`/v1/sso/saml/${providerId}/start?to=app`).expect(302);
        const relay = new URL(res.headers.location).searchParams.get('RelayState') ?? '';
        const cookie = (res.headers['set-cookie'] as unknown as string[])[0];
        expect(cookie).toMatch(/^quire_sso=[A-Za-z0-9_-]{32}; Max-Age=600; Path=\/v1\/sso\/saml; HttpOnly; SameSite=Lax$/);
        expect(relay).toBe(`app.${cookie.split(';')[0].split('=')[1]}`);
        return { id: authnRequestId(res.headers.location).id, relay, cookie: cookie.split(';')[0] };
      };
      expectError(await t.http.get(`/v1/sso/saml/${providerId}/start?to=elsewhere`), 400);
      const post = (b: { id: string; relay: string }, email: string, cookie?: string) => {
        const req = t.http.post(`/v1/sso/saml/${providerId}/acs`).type('form').set('User-Agent', 'SSO browser/1.0');
        if (cookie) req.set('Cookie', cookie);
        return req.send({
          SAMLResponse: signedResponse(idp, { inResponseTo: b.id, acsURL: sp.acsURL, audience: sp.entityID, email }),
          RelayState: b.relay,
        });
      };
      // Login CSRF: a response posted to a browser that did not begin the login (no cookie, or another one's) opens
      // nothing; the browser goes back to the sign-in screen with why.
      const mine = await began();
      const other = await began();
      for (const cookie of [undefined, other.cookie]) {
        const refused = await post(mine, 'mallory@corp.test', cookie).expect(303);
        expect(refused.headers.location).toMatch(
          new RegExp(`^http://quire.test/app/sign-in\\?sso=${providerId}&error=This%20sign-in%20did%20not%20begin`),
        );
        expect(String(refused.headers['set-cookie'] ?? '')).not.toContain('quire_session');
      }
      expect(await memberEmails()).not.toContain('mallory@corp.test');
      const done = await post(mine, 'ann@corp.test', mine.cookie).expect(303);
      expect(done.headers.location).toBe(`http://quire.test/app/o/${orgId}`);
      expect(done.headers['cache-control']).toBe('no-store');
      const cookies = done.headers['set-cookie'] as unknown as string[];
      const cookie = cookies[0].split(';')[0];
      expect(cookie).toMatch(/^quire_session=[A-Za-z0-9_-]{43}$/);
      expect(cookies[1]).toMatch(/^quire_sso=; Max-Age=0;/);
      const signedIn = (await t.http.get('/v1/auth/session').set('Cookie', cookie).expect(200)).body;
      expect(signedIn).toMatchObject({
        email: 'ann@corp.test',
        session: { method: 'sso', organization: orgId, userAgent: 'SSO browser/1.0' },
      });
      // It ends when the SSO login's token would (30 days), however much it is used; other sessions, 14 days after use.
      expect(Date.parse(signedIn.session.expiresAt) - Date.parse(signedIn.session.createdAt)).toBe(14 * 86_400_000);
      const as = (r: import('supertest').Test) => r.set('Cookie', cookie).set('X-CSRF-Token', signedIn.csrfToken);
      // The session reaches its organization, and nothing else (as the SSO login's API token would).
      await as(t.http.get(`/v1/orgs/${orgId}`)).expect(200);
      const elsewhere = await t.organization(admin);
      await t.member(elsewhere, { id: signedIn.user } as TestUser, 'admin');
      expectError(await as(t.http.get(`/v1/orgs/${elsewhere}`)), 404);
      expectError(await as(t.http.post('/v1/user/tokens')).send({ label: 'x' }), 403);
      // A login with any other RelayState (or none) answers the API token, as before: no cookie, no redirect.
      const again = await start();
      const api = await t.http
        .post(`/v1/sso/saml/${providerId}/acs`)
        .type('form')
        .send({
          SAMLResponse: signedResponse(idp, { inResponseTo: again.id, acsURL: sp.acsURL, audience: sp.entityID, email: 'ann@corp.test' }),
          RelayState: 'https://evil.example/',
        })
        .expect(200);
      expect(api.body.token).toMatch(/^qr_/);
      expect(api.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a replayed response', async () => {
      const { id } = await start();
      const response = signedResponse(idp, { inResponseTo: id, acsURL: sp.acsURL, audience: sp.entityID, email: 'replay@corp.test' });
      await acs(response).expect(200);
      expectError(await acs(response), 400, /refused/);
    });

    it.each([
      [
        'unsigned',
        (id: string) =>
          signedResponse(idp, { inResponseTo: id, acsURL: sp.acsURL, audience: sp.entityID, email: 'unsigned@corp.test', sign: false }),
      ],
      [
        'tampered after signing',
        (id: string) =>
          signedResponse(idp, {
            inResponseTo: id,
            acsURL: sp.acsURL,
            audience: sp.entityID,
            email: 'tampered@corp.test',
            afterSigning: (xml) => xml.replace('tampered@corp.test', 'ceo@corp.test'),
          }),
      ],
      [
        'expired',
        (id: string) =>
          signedResponse(idp, {
            inResponseTo: id,
            acsURL: sp.acsURL,
            audience: sp.entityID,
            email: 'expired@corp.test',
            validForSeconds: -600,
          }),
      ],
      [
        'for another audience',
        (id: string) =>
          signedResponse(idp, { inResponseTo: id, acsURL: sp.acsURL, audience: 'https://other-sp.test', email: 'audience@corp.test' }),
      ],
      [
        'signed by another key',
        (id: string) =>
          signedResponse(otherIdp, {
            inResponseTo: id,
            acsURL: sp.acsURL,
            audience: sp.entityID,
            email: 'evil@corp.test',
            issuer: idp.entityID,
          }),
      ],
      [
        'answering a request we never sent',
        () =>
          signedResponse(idp, { inResponseTo: '_never-sent', acsURL: sp.acsURL, audience: sp.entityID, email: 'unsolicited@corp.test' }),
      ],
    ])('refuses a response %s, and creates no member', async (_name, make) => {
      const { id } = await start();
      const before = await memberEmails();
      expectError(await acs(make(id)), 400, /SAML response refused/);
      expect(await memberEmails()).toEqual(before);
    });

    it('refuses garbage and an empty body with 400', async () => {
      expectError(await acs(Buffer.from('<not-saml/>').toString('base64')), 400);
      expectError(await t.http.post(`/v1/sso/saml/${providerId}/acs`).type('form').send({}), 400, /SAMLResponse/);
    });
  });

  describe('identities and token scope (no account takeover)', () => {
    const provider = async (org: string, owner: TestUser, who: TestIdp) =>
      (
        await t.http
          .post(`/v1/orgs/${org}/saml`)
          .set(owner.auth)
          .send({ label: 'IdP', entityID: who.entityID, certificate: who.certificate, ssoURL: who.ssoURL, defaultRole: 'edit' })
          .expect(201)
      ).body as { id: string; service: { acsURL: string; entityID: string } };
    const login = async (
      p: { id: string; service: { acsURL: string; entityID: string } },
      who: TestIdp,
      email: string,
      nameID?: string,
    ) => {
      const started = await t.http.get(`/v1/sso/saml/${p.id}/start`).expect(302);
      const { id } = authnRequestId(started.headers.location);
      const response = signedResponse(who, { inResponseTo: id, acsURL: p.service.acsURL, audience: p.service.entityID, email, nameID });
      return t.http.post(`/v1/sso/saml/${p.id}/acs`).type('form').send({ SAMLResponse: response });
    };
    const count = async (sql: string, params: unknown[]) => {
      const ds = t.app.get(DataSource);
      return Number((await ds.query(sql, params))[0].n);
    };
    const writes = async (userId: string | null, providerId: string) => ({
      users: await count('SELECT count(*) AS n FROM users', []),
      tokens: await count('SELECT count(*) AS n FROM api_tokens WHERE user_id = $1', [userId ?? '']),
      memberships: await count('SELECT count(*) AS n FROM organization_members WHERE user_id = $1', [userId ?? '']),
      identities: await count('SELECT count(*) AS n FROM sso_identities WHERE provider_id = $1', [providerId]),
      assertions: await count('SELECT count(*) AS n FROM saml_assertions WHERE provider_id = $1', [providerId]),
    });

    it('an IdP asserting another person’s email gets no token and changes nothing', async () => {
      const identity = t.app.get(IdentityService);
      const victimUser = await identity.createUser({ email: 'victim@victim.test', displayName: 'Victim' });
      const victim: TestUser = { id: victimUser.id, email: victimUser.email, token: '', auth: { Authorization: '' } };
      const victimToken = (await identity.issueToken(victimUser.id)).token;
      victim.auth = { Authorization: `Bearer ${victimToken}` };
      const victimOrg = await t.organization(victim, 'Victim Inc');
      const attacker = await t.user('attacker');
      const attackerOrg = await t.organization(attacker, 'Attacker Ltd');
      const evil = await provider(attackerOrg, attacker, otherIdp);
      const before = await writes(victimUser.id, evil.id);

      const res = await login(evil, otherIdp, 'VICTIM@victim.test');
      expectError(res, 403, /already exists and is not a member of this organization/);
      expect(await writes(victimUser.id, evil.id)).toEqual(before);
      expect(before).toMatchObject({ tokens: 1, memberships: 1, identities: 0, assertions: 0 });
      // The victim's organization is untouched and still theirs alone.
      const members = (await t.http.get(`/v1/orgs/${victimOrg}/members`).set(victim.auth).expect(200)).body;
      expect(members.items.map((m: { user: { id: string } }) => m.user.id)).toEqual([victimUser.id]);
    });

    it('a member of X logs in through X’s IdP; the identity stays linked when the email changes; the token reaches X only', async () => {
      const owner = await t.user('owner');
      const x = await t.organization(owner, 'Org X');
      const y = await t.organization(owner, 'Org Y');
      const identity = t.app.get(IdentityService);
      const person = await identity.createUser({ email: 'member@corp-x.test', displayName: 'Member' });
      const plain = (await identity.issueToken(person.id)).token;
      const personUser: TestUser = { id: person.id, email: person.email, token: plain, auth: { Authorization: `Bearer ${plain}` } };
      await t.member(x, personUser, 'admin');
      await t.member(y, personUser, 'admin');
      const ySpace = (await t.http.post(`/v1/orgs/${y}/spaces`).set(owner.auth).send({ title: 'Y docs' }).expect(201)).body;
      const xSpace = (await t.http.post(`/v1/orgs/${x}/spaces`).set(owner.auth).send({ title: 'X docs' }).expect(201)).body;
      const p = await provider(x, owner, idp);

      const first = await login(p, idp, 'member@corp-x.test', 'emp-0001');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ user: person.id, organization: x, role: 'admin' });
      // Linked by (provider, NameID): the IdP may change the email; the same user signs in.
      const second = await login(p, idp, 'renamed@corp-x.test', 'emp-0001');
      expect(second.body).toMatchObject({ user: person.id });
      expect(await count('SELECT count(*) AS n FROM sso_identities WHERE provider_id = $1', [p.id])).toBe(1);

      const sso = { Authorization: `Bearer ${first.body.token}` };
      await t.http.get(`/v1/spaces/${xSpace.id}`).set(sso).expect(200);
      expectError(await t.http.get(`/v1/spaces/${ySpace.id}`).set(sso), 404);
      expectError(await t.http.get(`/v1/orgs/${y}`).set(sso), 404);
      expectError(await t.http.get(`/v1/orgs/${y}/spaces`).set(sso), 404);
      expectError(await t.http.get(`/v1/orgs/${y}/members`).set(sso), 404);
      expectError(await t.http.patch(`/v1/spaces/${ySpace.id}`).set(sso).send({ title: 'Taken' }), 404);
      expectError(await t.http.post(`/v1/spaces/${xSpace.id}/transfer`).set(sso).send({ organization: y }), 404);
      const orgs = (await t.http.get('/v1/orgs').set(sso).expect(200)).body;
      expect(orgs.items.map((o: { id: string }) => o.id)).toEqual([x]);
      expect(orgs.count).toBe(1);
      expectError(await t.http.post('/v1/orgs').set(sso).send({ title: 'New' }), 403, /SSO/);
      // Users are visible through organization X only.
      const yOnly = await t.user('y-only');
      await t.member(y, yOnly, 'read');
      await t.http.get(`/v1/users/${owner.id}`).set(sso).expect(200);
      expectError(await t.http.get(`/v1/users/${yOnly.id}`).set(sso), 404);
      await t.http.get(`/v1/users/${yOnly.id}`).set(personUser.auth).expect(200);
      // The person's own token keeps its full reach.
      await t.http.get(`/v1/spaces/${ySpace.id}`).set(personUser.auth).expect(200);
      expect((await t.http.get('/v1/orgs').set(personUser.auth).expect(200)).body.count).toBe(2);
    });

    it('an email only another organization’s IdP vouched for does not join by email domain', async () => {
      const owner = await t.user('owner');
      const victimOrg = await t.organization(owner, 'Victim by domain');
      await t.http
        .patch(`/v1/orgs/${victimOrg}`)
        .set(owner.auth)
        .send({ emailDomains: ['victim-domain.test'], defaultRole: 'edit' })
        .expect(200);
      const attacker = await t.user('attacker');
      const attackerOrg = await t.organization(attacker, 'Attacker by domain');
      const evil = await provider(attackerOrg, attacker, otherIdp);

      const res = await login(evil, otherIdp, 'ceo@victim-domain.test');
      expect(res.status).toBe(200);
      const created = res.body.user as string;
      // With the SSO token: the victim's organization is out of its reach.
      expectError(await t.http.post(`/v1/orgs/${victimOrg}/join`).set('Authorization', `Bearer ${res.body.token}`), 404);
      // With a token of full reach (e.g. made by an operator): still refused, the email is not verified.
      const full = (await t.app.get(IdentityService).issueToken(created)).token;
      expectError(
        await t.http.post(`/v1/orgs/${victimOrg}/join`).set('Authorization', `Bearer ${full}`),
        403,
        /identity provider of another organization/,
      );
      expect(await count('SELECT count(*) AS n FROM organization_members WHERE organization_id = $1', [victimOrg])).toBe(1);
      // A user whose email Quire did not get from an IdP still joins by domain.
      const real = await t.app.get(IdentityService).createUser({ email: 'cfo@victim-domain.test' });
      const realToken = (await t.app.get(IdentityService).issueToken(real.id)).token;
      await t.http.post(`/v1/orgs/${victimOrg}/join`).set('Authorization', `Bearer ${realToken}`).expect(204);
    });
  });

  describe('organization-wide SSO', () => {
    it('with sso: true, members who are not SSO members cannot get tokens outside SSO; SSO members can', async () => {
      const owner = await t.user('owner');
      const org = await t.organization(owner);
      const plain = await t.user('plain');
      await t.member(org, plain, 'read');
      await t.http.patch(`/v1/orgs/${org}`).set(owner.auth).send({ sso: true }).expect(200);
      const identity = t.app.get(IdentityService);
      await expect(identity.issueToken(plain.id)).rejects.toThrow(/enforces SSO/);
      await expect(identity.issueToken(plain.id, { via: { sso: org } })).resolves.toMatchObject({ token: expect.any(String) });
      const marked = await t.http.post(`/v1/orgs/${org}/members/${plain.id}/sso`).set(owner.auth).expect(200);
      expect(marked.body.sso).toBe(true);
      await expect(identity.issueToken(plain.id)).resolves.toMatchObject({ token: expect.any(String) });
      expectError(await t.http.post(`/v1/orgs/${org}/members/${plain.id}/sso`).set(plain.auth), 403);
      // Existing tokens keep working: enforcement is about getting new ones.
      await t.http.get('/v1/user').set(plain.auth).expect(200);
    });
  });
});
