import { GitBookAPI } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';
import { createTestIdp } from '../support/test-idp';

/** Members, teams, invites through the official client; SAML (not in the client) checked against the official schemas. */
describe('contract: people operations', () => {
  let t: TestApp;
  let admin: TestUser;
  let other: TestUser;
  let api: GitBookAPI;
  let otherApi: GitBookAPI;
  let orgId: string;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: '' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    admin = await t.user('admin');
    other = await t.user('other');
    orgId = await t.organization(admin);
    await t.member(orgId, other, 'read');
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
    otherApi = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: other.token });
  });
  afterAll(async () => t.close());

  it('members', async () => {
    const list = await api.orgs.listMembersInOrganizationById(orgId, { sort: 'name' as never, order: 'asc' as never });
    expect(schemas.checkList('OrganizationMember', list.data)).toBe('');
    const member = await api.orgs.getMemberInOrganizationById(orgId, other.id);
    expect(schemas.check('OrganizationMember', member.data)).toBe('');
    const updated = await api.orgs.updateMemberInOrganizationById(orgId, other.id, { role: 'edit' as never });
    expect(schemas.check('OrganizationMember', updated.data)).toBe('');
    expect(updated.data.role).toBe('edit');
    expect(schemas.check('User', (await api.users.getUserById(other.id)).data)).toBe('');
    await api.orgs.createSpace(orgId, { title: 'Visible' });
    const spaces = await api.orgs.listSpacesForOrganizationMember(orgId, other.id, { order: 'asc' as never });
    expect(schemas.checkList('MemberContentPermission', spaces.data)).toBe('');
    expect(spaces.data.count).toBe(1);
  });

  it('guests through the official client: role null on a member, a link invite and the organization default', async () => {
    const guest = await t.user('guest');
    await t.member(orgId, guest, 'read');
    const updated = await api.orgs.updateMemberInOrganizationById(orgId, guest.id, { role: null });
    expect(updated.data.role).toBeNull();
    expect(schemas.check('OrganizationMember', updated.data)).toBe('');
    const guests = await api.orgs.listMembersInOrganizationById(orgId, { role: 'guest' as never });
    expect(schemas.checkList('OrganizationMember', guests.data)).toBe('');
    expect(guests.data.items.map((m) => m.id)).toEqual([guest.id]);
    const invite = await api.orgs.createOrganizationInvite(orgId, { role: null });
    expect((invite.data as { role?: unknown }).role).toBeNull();
    expect(schemas.check('OrganizationInviteLink', invite.data)).toBe('');
    const org = await api.orgs.updateOrganizationById(orgId, { defaultRole: null });
    expect(schemas.check('Organization', org.data)).toBe('');
    expect(org.data.defaultRole ?? null).toBeNull();
    // The guest sees the organization, and its member list is closed to them.
    const guestApi = new GitBookAPI({ endpoint: api.endpoint, authToken: guest.token });
    expect(schemas.check('Organization', (await guestApi.orgs.getOrganizationById(orgId)).data)).toBe('');
    await expect(guestApi.orgs.listMembersInOrganizationById(orgId)).rejects.toMatchObject({ code: 404 });
    await api.orgs.updateMemberInOrganizationById(orgId, guest.id, { role: 'read' as never });
  });

  it('teams and team members', async () => {
    const team = await api.orgs.createOrganizationTeam(orgId, { title: 'Docs', members: [other.id] });
    expect(team.status).toBe(201);
    expect(schemas.check('OrganizationTeam', team.data)).toBe('');
    expect(schemas.checkList('OrganizationTeam', (await api.orgs.listTeamsInOrganizationById(orgId, { title: 'doc' })).data)).toBe('');
    expect(schemas.check('OrganizationTeam', (await api.orgs.getTeamInOrganizationById(orgId, team.data.id)).data)).toBe('');
    expect(
      schemas.check('OrganizationTeam', (await api.orgs.updateTeamInOrganizationById(orgId, team.data.id, { title: 'Docs team' })).data),
    ).toBe('');
    expect(
      (
        await api.orgs.updateMembersInOrganizationTeam(orgId, team.data.id, {
          add: [admin.id],
          memberships: { [other.id]: { role: 'owner' as never } },
        })
      ).status,
    ).toBe(204);
    expect((await api.orgs.addMemberToOrganizationTeamById(orgId, team.data.id, admin.id, { role: 'member' as never })).status).toBe(204);
    const members = await api.orgs.listTeamMembersInOrganizationById(orgId, team.data.id);
    expect(schemas.checkList('OrganizationTeamMember', members.data)).toBe('');
    expect(members.data.count).toBe(2);
    const teamsOf = await api.orgs.listTeamsForOrganizationMember(orgId, other.id);
    expect(teamsOf.data.items[0]).toMatchObject({ team: { id: team.data.id }, member: { role: 'owner' } });
    expect(schemas.check('OrganizationTeam', teamsOf.data.items[0].team)).toBe('');
    expect((await api.orgs.deleteMemberFromOrganizationTeamById(orgId, team.data.id, admin.id)).status).toBe(205);
    expect((await api.orgs.removeTeamFromOrganizationById(orgId, team.data.id)).status).toBe(205);
  });

  it('invites and joining', async () => {
    const invite = await api.orgs.createOrganizationInvite(orgId, { role: 'comment' as never });
    expect(invite.status).toBe(201);
    expect(schemas.check('OrganizationInviteLink', invite.data)).toBe('');
    expect(schemas.checkList('InviteLinkToOrganization', (await api.orgs.listOrganizationInviteLinks(orgId)).data)).toBe('');
    expect(schemas.check('OrganizationInviteLink', (await api.orgs.getOrganizationInviteLink(orgId, invite.data.id)).data)).toBe('');
    expect(
      schemas.check(
        'OrganizationInviteLink',
        (await api.orgs.updateOrganizationInviteById(orgId, invite.data.id, { role: 'read' as never })).data,
      ),
    ).toBe('');
    const newcomer = await t.user('newcomer');
    const newcomerApi = new GitBookAPI({ endpoint: api.endpoint, authToken: newcomer.token });
    expect((await newcomerApi.orgs.joinOrganizationWithInvite(orgId, invite.data.id)).status).toBe(200);
    expect((await api.orgs.deleteOrganizationInviteById(orgId, invite.data.id)).status).toBe(205);
    await api.orgs.updateOrganizationById(orgId, { emailDomains: ['example.com'], defaultRole: 'read' as never });
    const joiner = await t.user('joiner');
    expect((await new GitBookAPI({ endpoint: api.endpoint, authToken: joiner.token }).orgs.joinOrganization(orgId)).status).toBe(204);
    expect((await otherApi.orgs.removeMemberFromOrganizationById(orgId, other.id)).status).toBe(205);
  });

  it('SAML providers and SSO logins match the official schemas', async () => {
    const idp = await createTestIdp();
    const created = await t.http
      .post(`/v1/orgs/${orgId}/saml`)
      .set(admin.auth)
      .send({ label: 'Corp', entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL, defaultRole: 'read' })
      .expect(201);
    expect(schemas.check('OrganizationSAMLProvider', created.body)).toBe('');
    const list = await t.http.get(`/v1/orgs/${orgId}/saml`).set(admin.auth).expect(200);
    expect(schemas.checkList('OrganizationSAMLProvider', list.body)).toBe('');
    const logins = await t.http.get(`/v1/orgs/${orgId}/sso`).set(admin.auth).expect(200);
    expect(logins.body.items.map((i: unknown) => schemas.check('OrganizationSSOProviderLogin', i)).join('')).toBe('');
  });

  it('audit events (admins)', async () => {
    const space = await api.orgs.createSpace(orgId, { title: 'Audited' });
    const actions = await api.orgs.listOrganizationAuditEventActions(orgId);
    for (const a of actions.data.items) expect(schemas.check('AuditEventAction', a)).toBe('');
    expect(actions.data.items.map((a) => a.id)).toContain('createSpace');
    const list = await api.orgs.listOrganizationAuditEvents(orgId, { action: 'createSpace', target: space.data.id, limit: 5 });
    expect(schemas.checkList('AuditEvent', list.data)).toBe('');
    expect(list.data.items).toHaveLength(1);
    const one = await api.orgs.getOrganizationAuditEvent(orgId, list.data.items[0].id);
    expect(schemas.check('AuditEventDetails', one.data)).toBe('');
    expect(one.data).toMatchObject({
      action: 'createSpace',
      actor: { type: 'user', id: admin.id },
      target: { type: 'space', id: space.data.id },
    });
    const reader = await t.user('auditor');
    await t.member(orgId, reader, 'read');
    expect((await t.http.get(`/v1/orgs/${orgId}/audit-events`).set(reader.auth)).status).toBe(403);
  });
});
