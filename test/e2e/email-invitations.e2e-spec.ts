import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { GitBookAPI } from '@gitbook/api';
import { EmailInvitationsService } from '@app/organizations-and-teams';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { expectError } from '../support/expect';
import { servedValidator, type ServedDocument } from '../support/served-schemas';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps what it receives; it refuses the next `refuse` messages (a server in trouble). */
async function startSmtp() {
  const received: Received[] = [];
  const state = { refuse: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.refuse > 0) {
          state.refuse--;
          const error = new Error('Mailbox busy, try later') as Error & { responseCode: number };
          error.responseCode = 451;
          return callback(error);
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, received, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The text of a received message (quoted-printable soft breaks joined). */
function bodyOf(m: Received): string {
  return m.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

async function until<T>(check: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Official inviteUsersToOrganization, sent through a real SMTP server on loopback (the `smtp-server` package):
 * memberships at once, one email per person added or raised with the link they follow (a one-time sign-in link
 * for someone new, which signs them in), an outbox that survives a refusing server, and a clear 400 without SMTP.
 */
describe('email invitations', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let api: GitBookAPI;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      QUIRE_JOBS: 'on',
      QUIRE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      QUIRE_SMTP_FROM: 'Quire Docs <docs@quire.test>',
      PUBLIC_URL: 'https://quire.test',
    });
    admin = await t.user('admin');
    editor = await t.user('editor');
    reader = await t.user('reader');
    outsider = await t.user('outsider');
    orgId = await t.organization(admin, 'Acme Docs');
    await t.member(orgId, editor, 'edit');
    await t.member(orgId, reader, 'read');
    await t.organization(outsider, 'Elsewhere');
    const { port } = t.app.getHttpServer().address() as { port: number };
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const invite = (body: unknown, who = admin, org = orgId) =>
    t.http
      .post(`/v1/orgs/${org}/invites`)
      .set(who.auth)
      .send(body as object);
  const member = async (userId: string) => (await t.http.get(`/v1/orgs/${orgId}/members/${userId}`).set(admin.auth)).body;
  const mailTo = (address: string) => until(() => smtp.received.find((m) => m.to.includes(address)));

  it('adds people at once and emails each one the link they follow; a new person’s link signs them in', async () => {
    // The reader has a password: a way in already.
    await t.http.put('/v1/user/password').set(reader.auth).send({ newPassword: 'a long enough password' }).expect(204);
    const res = await api.orgs.inviteUsersToOrganization(orgId, {
      emails: ['New.Person@Example.com', { email: reader.email, role: 'edit' as never }],
      role: 'review' as never,
    });
    expect(res.status).toBe(200);
    const served = servedValidator((await t.http.get('/docs-json').expect(200)).body as ServedDocument);
    expect(served.check('POST', '/v1/orgs/{organizationId}/invites', 200, res.data)).toEqual([]);
    expect(res.data.invited).toBe(1);
    expect(res.data.users).toHaveLength(2);
    expect(res.data.users[1]).toBe(reader.id);
    const newcomer = res.data.users[0];
    expect(await member(newcomer)).toMatchObject({ role: 'review', user: { email: 'new.person@example.com' } });
    expect((await member(reader.id)).role).toBe('edit');

    const first = await mailTo('new.person@example.com');
    expect(first.from).toBe('docs@quire.test');
    const text = bodyOf(first);
    expect(text).toMatch(/Subject: .*invited you to Acme Docs on Quire/);
    const link = /https:\/\/quire\.test\/app\/sign-in\/link#([\w-]+)/.exec(text);
    expect(link).not.toBeNull();
    // The link signs the newcomer in, once.
    const signedIn = await t.http.post('/v1/auth/sign-in/link').send({ token: link![1] }).expect(200);
    expect(signedIn.body.user).toBe(newcomer);
    expectError(await t.http.post('/v1/auth/sign-in/link').send({ token: link![1] }), 401);

    // Someone who has a way in already (a password) gets the organization's page, no sign-in link.
    const raised = bodyOf(await mailTo(reader.email));
    expect(raised).toContain(`https://quire.test/app/o/${orgId}`);
    expect(raised).not.toContain('sign-in/link');
  });

  it('someone who has an account is not made a member: the email carries an invite only they may accept, once', async () => {
    const stranger = await t.user('stranger');
    const res = await invite({ emails: [stranger.email], role: 'edit' }).expect(200);
    expect(res.body).toEqual({ users: [], invited: 1 });
    expectError(await t.http.get(`/v1/orgs/${orgId}/members/${stranger.id}`).set(admin.auth), 404);
    const text = bodyOf(await mailTo(stranger.email));
    expect(text).toContain('accept the invitation');
    expect(text).not.toContain('sign-in/link');
    const join = new RegExp(`https://quire\\.test/app/o/${orgId}/join/([\\w-]+)`).exec(text);
    expect(join).not.toBeNull();
    // Not listed among the organization's invite links.
    const links = (await t.http.get(`/v1/orgs/${orgId}/link-invites`).set(admin.auth).expect(200)).body.items;
    expect(links.map((l: { id: string }) => l.id)).not.toContain(join![1]);
    // Only its addressee may use it, and once.
    expectError(await t.http.post(`/v1/orgs/${orgId}/invites/${join![1]}`).set(outsider.auth), 404);
    await t.http.post(`/v1/orgs/${orgId}/invites/${join![1]}`).set(stranger.auth).expect(200);
    expect((await member(stranger.id)).role).toBe('edit');
    expectError(await t.http.post(`/v1/orgs/${orgId}/invites/${join![1]}`).set(stranger.auth), 404);

    // An invite not accepted within 30 days is as if there were none.
    const late = await t.user('late');
    await invite({ emails: [late.email], role: 'read' }).expect(200);
    const lateJoin = new RegExp(`/join/([\\w-]+)`).exec(bodyOf(await mailTo(late.email)))![1];
    t.clock.advance(30 * 24 * 60 * 60_000);
    expectError(await t.http.post(`/v1/orgs/${orgId}/invites/${lateJoin}`).set(late.auth), 404, /expired/);
    expectError(await t.http.get(`/v1/orgs/${orgId}/members/${late.id}`).set(admin.auth), 404);
  });

  it('never lowers a role and sends nothing when nothing changed; a guest invitation makes a guest', async () => {
    const before = smtp.received.length;
    const res = await invite({ emails: [editor.email], role: 'read' }).expect(200);
    expect(res.body).toEqual({ users: [editor.id], invited: 0 });
    expect((await member(editor.id)).role).toBe('edit');
    const guest = await invite({ emails: [{ email: 'guest@example.com', role: null }] }).expect(200);
    expect((await member(guest.body.users[0])).role).toBeNull();
    await mailTo('guest@example.com');
    // sso: an SSO member of the organization.
    const sso = await invite({ emails: ['sso.person@example.com'], sso: true }).expect(200);
    expect(await member(sso.body.users[0])).toMatchObject({ role: 'read', sso: true });
    await mailTo('sso.person@example.com');
    // The editor's invitation sent nothing.
    expect(smtp.received.filter((m) => m.to.includes(editor.email))).toHaveLength(0);
    expect(smtp.received.length).toBe(before + 2);
  });

  it('keeps an email the SMTP server refused, and the sweep sends it', async () => {
    smtp.state.refuse = 1;
    const res = await invite({ emails: ['later@example.com'] }).expect(200);
    expect((await member(res.body.users[0])).role).toBe('read');
    // The job's attempt is refused; the outbox keeps the email.
    await until(() => (smtp.state.refuse === 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.some((m) => m.to.includes('later@example.com'))).toBe(false);
    t.clock.advance(61_000);
    expect(await t.app.get(EmailInvitationsService).sweep()).toBe(1);
    expect(bodyOf(await mailTo('later@example.com'))).toContain('sign-in/link#');
    // Sent once: a second sweep finds nothing to send.
    t.clock.advance(61_000);
    expect(await t.app.get(EmailInvitationsService).sweep()).toBe(0);
  });

  it('refuses bad input with 400, other roles with 403, other organizations with 404, writing nothing', async () => {
    const members = async () => (await t.http.get(`/v1/orgs/${orgId}/members?limit=1000`).set(admin.auth).expect(200)).body.items.length;
    const count = await members();
    for (const body of [
      {},
      { emails: [] },
      { emails: 'a@example.com' },
      { emails: ['not-an-email'] },
      { emails: [null] },
      { emails: [0x10] },
      { emails: ['nul\u0000@example.com'] },
      { emails: [{ email: 'x@example.com' }] },
      { emails: [{ email: 'x@example.com', role: 'owner' }] },
      { emails: [{ email: 'x@example.com', role: 'read', extra: 1 }] },
      { emails: ['x@example.com'], role: 'owner' },
      { emails: ['x@example.com'], sso: 'yes' },
      { emails: Array.from({ length: 101 }, (_, i) => `p${i}@example.com`) },
    ])
      expectError(await invite(body), 400);
    expectError(await invite({ emails: ['x@example.com'] }, editor), 403);
    expectError(await invite({ emails: ['x@example.com'] }, outsider), 404);
    expect(await members()).toBe(count);
    expectError(await t.http.get(`/v1/users/x@example.com`).set(admin.auth), 404);
  });

  it('without an SMTP server: a 400 that says so, and nothing written', async () => {
    const bare = await createTestApp({ PUBLIC_URL: 'https://quire.test' });
    try {
      const owner = await bare.user('owner');
      const org = await bare.organization(owner);
      const res = await bare.http
        .post(`/v1/orgs/${org}/invites`)
        .set(owner.auth)
        .send({ emails: ['someone@example.com'] });
      expectError(res, 400, /SMTP.*QUIRE_SMTP_URL/);
      const items = (await bare.http.get(`/v1/orgs/${org}/members`).set(owner.auth).expect(200)).body.items;
      expect(items).toHaveLength(1);
    } finally {
      await bare.close();
    }
  });
});
