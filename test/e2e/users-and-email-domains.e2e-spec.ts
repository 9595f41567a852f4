import { GitBookAPI } from '@gitbook/api';
import { IdentityService } from '@app/organizations-and-teams';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { officialValidator } from '../support/official-schemas';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

/** The official `updateUserById` and `getOrganizationsForEmailDomain`: one's own account, one's own domain. */
describe('a user’s own account and the organizations of their email domain', () => {
  let t: TestApp;
  let me: TestUser;
  let colleague: TestUser;
  let stranger: TestUser;
  let api: GitBookAPI;
  let served: ReturnType<typeof servedValidator>;
  let myOrg: string;

  /** A user of another email domain, with a token. */
  async function userAt(email: string, assertedBy?: string): Promise<TestUser> {
    const identity = t.app.get(IdentityService);
    const u = await identity.createUser({ email, displayName: email.split('@')[0], emailAssertedBy: assertedBy });
    const { token } = await identity.issueToken(u.id);
    return { id: u.id, email: u.email, token, auth: { Authorization: `Bearer ${token}` } };
  }

  beforeAll(async () => {
    t = await createTestApp();
    me = await t.user('me');
    colleague = await t.user('colleague');
    stranger = await t.user('stranger');
    myOrg = await t.organization(me);
    await t.member(myOrg, colleague, 'edit');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: me.token });
    served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
  });
  afterAll(async () => t.close());

  describe('updateUserById (PATCH /users/{userId})', () => {
    it('changes the caller’s display name and photo, as the official client sends them, and keeps them', async () => {
      const res = await api.users.updateUserById(me.id, { displayName: '  Ada Lovelace ', photoURL: 'https://cdn.example.com/ada.png' });
      expect(res.status).toBe(200);
      expect(officialValidator().check('User', res.data)).toBe('');
      expect(served.check('PATCH', '/v1/users/{userId}', 200, res.data)).toEqual([]);
      expect(res.data).toMatchObject({
        id: me.id,
        displayName: 'Ada Lovelace',
        photoURL: 'https://cdn.example.com/ada.png',
        email: me.email,
      });
      const again = await t.http.get('/v1/user').set(me.auth).expect(200);
      expect(again.body).toMatchObject({ displayName: 'Ada Lovelace', photoURL: 'https://cdn.example.com/ada.png' });
      // One field alone leaves the other as it was.
      await t.http.patch(`/v1/users/${me.id}`).set(me.auth).send({ displayName: 'Ada' }).expect(200);
      expect((await t.http.get(`/v1/users/${me.id}`).set(colleague.auth).expect(200)).body).toMatchObject({
        displayName: 'Ada',
        photoURL: 'https://cdn.example.com/ada.png',
      });
    });

    it('refuses another user’s account: 403 for a colleague, 404 for someone the caller cannot see; nothing changes', async () => {
      expectError(await t.http.patch(`/v1/users/${colleague.id}`).set(me.auth).send({ displayName: 'Mallory' }), 403, /your own/);
      expectError(await t.http.patch(`/v1/users/${stranger.id}`).set(me.auth).send({ displayName: 'Mallory' }), 404);
      expectError(await t.http.patch(`/v1/users/nobody`).set(me.auth).send({ displayName: 'Mallory' }), 404);
      expect((await t.http.get('/v1/user').set(colleague.auth).expect(200)).body.displayName).toBe('colleague');
      expect((await t.http.get('/v1/user').set(stranger.auth).expect(200)).body.displayName).toBe('stranger');
      expectError(await t.http.patch(`/v1/users/${me.id}`).send({ displayName: 'x' }), 401);
    });

    it('answers 400 for an empty body, a name out of 1 to 64 characters or only spaces, control characters, null, a URL that is not http(s)', async () => {
      const bad: unknown[] = [
        {},
        { displayName: '' },
        { displayName: '   ' },
        { displayName: 'x'.repeat(65) },
        { displayName: 'a\u0000b' },
        { displayName: 'line\nbreak' },
        { displayName: null },
        { displayName: 42 },
        { photoURL: null },
        { photoURL: 'javascript:alert(1)' },
        { photoURL: 'not a url' },
        { photoURL: `https://example.com/${'a'.repeat(2100)}` },
      ];
      for (const body of bad)
        expectError(
          await t.http
            .patch(`/v1/users/${me.id}`)
            .set(me.auth)
            .send(body as object),
          400,
        );
      await t.http
        .patch(`/v1/users/${me.id}`)
        .set(me.auth)
        .send({ displayName: 'x'.repeat(64) })
        .expect(200);
      await t.http.patch(`/v1/users/${me.id}`).set(me.auth).send({ displayName: 'Ada' }).expect(200);
    });
  });

  describe('getOrganizationsForEmailDomain (GET /email-domains/{emailDomain}/orgs)', () => {
    let open: string;
    let mine: string;
    let other: string;

    beforeAll(async () => {
      // An organization example.com users may join, one the caller is in already (it lists the domain too), one of another domain.
      const founder = await userAt('founder@elsewhere.org');
      open = await t.organization(founder, 'Open to example.com');
      await t.http
        .patch(`/v1/orgs/${open}`)
        .set(founder.auth)
        .send({ emailDomains: ['example.com'] })
        .expect(200);
      mine = await t.organization(me, 'Mine');
      await t.http
        .patch(`/v1/orgs/${mine}`)
        .set(me.auth)
        .send({ emailDomains: ['Example.com', 'other.io'] })
        .expect(200);
      other = await t.organization(founder, 'Elsewhere only');
      await t.http
        .patch(`/v1/orgs/${other}`)
        .set(founder.auth)
        .send({ emailDomains: ['elsewhere.org'] })
        .expect(200);
    });

    it('lists the organizations the caller’s own domain lets them join, and those of it they are in, as the official client reads them', async () => {
      const res = await api.emailDomains.getOrganizationsForEmailDomain('example.com');
      expect(res.status).toBe(200);
      expect(served.check('GET', '/v1/email-domains/{emailDomain}/orgs', 200, res.data)).toEqual([]);
      for (const o of res.data.organizations) expect(officialValidator().check('Organization', o)).toBe('');
      const byId = new Map(res.data.organizations.map((o) => [o.id, o]));
      expect([...byId.keys()].sort()).toEqual([open, mine].sort());
      expect(byId.get(open)!.permissions.admin).toBe(false);
      expect(byId.get(mine)!.permissions.admin).toBe(true);
      // The case of the domain asked does not matter; the list is what joining allows: joining works for the first.
      expect(
        (await t.http.get('/v1/email-domains/EXAMPLE.com/orgs').set(stranger.auth).expect(200)).body.organizations.map(
          (o: { id: string }) => o.id,
        ),
      ).toEqual([...byId.keys()]);
      await t.http.post(`/v1/orgs/${open}/join`).set(stranger.auth).expect(204);
    });

    it('refuses another domain than the caller’s own (403), a value that is not a domain (400); an unknown domain of one’s own is an empty list', async () => {
      expectError(await t.http.get('/v1/email-domains/elsewhere.org/orgs').set(me.auth), 403, /your own email domain/);
      expectError(await t.http.get('/v1/email-domains/other.io/orgs').set(me.auth), 403);
      for (const bad of ['not a domain', 'a..b', '%00example.com', 'x'.repeat(300) + '.com'])
        expectError(await t.http.get(`/v1/email-domains/${encodeURIComponent(bad)}/orgs`).set(me.auth), 400);
      const lonely = await userAt('someone@nowhere.example.net');
      expect((await t.http.get('/v1/email-domains/nowhere.example.net/orgs').set(lonely.auth).expect(200)).body).toEqual({
        organizations: [],
      });
      expectError(await t.http.get('/v1/email-domains/example.com/orgs'), 401);
    });

    it('gives a user whose email an organization’s identity provider asserted that organization only, as joining does', async () => {
      const asserted = await userAt('sso-user@example.com', mine);
      const res = await t.http.get('/v1/email-domains/example.com/orgs').set(asserted.auth).expect(200);
      expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([mine]);
      expectError(await t.http.post(`/v1/orgs/${open}/join`).set(asserted.auth), 403);
    });
  });
});
