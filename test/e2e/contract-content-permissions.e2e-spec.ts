import { GitBookAPI, MemberRole } from '@gitbook/api';
import { createTestApp, TestApp, TestUser } from '../support/app';
import { officialValidator } from '../support/official-schemas';

/** The space and collection permission operations through the official client, answers checked against the official schemas. */
describe('contract: content permissions', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let api: GitBookAPI;
  const schemas = officialValidator();

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: '' });
    const { port } = t.app.getHttpServer().address() as { port: number };
    admin = await t.user('admin');
    member = await t.user('member');
    api = new GitBookAPI({ endpoint: `http://127.0.0.1:${port}`, authToken: admin.token });
  });
  afterAll(async () => t.close());

  it('spaces: invite, list users, teams and the aggregate, update and remove', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Perm Org' })).data.id;
    await t.member(org, member, 'read');
    const team = (await t.http.put(`/v1/orgs/${org}/teams`).set(admin.auth).send({ title: 'Team' }).expect(201)).body.id as string;
    const space = (await api.orgs.createSpace(org, { title: 'Docs' })).data.id;
    expect((await api.spaces.inviteToSpace(space, { role: MemberRole.Edit, users: [member.id] })).status).toBe(204);
    expect((await api.spaces.inviteToSpace(space, { role: MemberRole.Review, teams: [team] })).status).toBe(204);
    const users = await api.spaces.listUserPermissionsInSpace(space);
    expect(users.data.items.map((i) => schemas.check('UserContentPermission', i)).join('')).toBe('');
    const teams = await api.spaces.listTeamPermissionsInSpace(space);
    expect(teams.data.items).toHaveLength(1);
    expect(schemas.check('OrganizationTeam', teams.data.items[0].team)).toBe('');
    const aggregate = await api.spaces.listPermissionsAggregateInSpace(space, { role: MemberRole.Edit });
    expect(aggregate.data.items.map((i) => i.user.id)).toEqual([member.id]);
    expect((await api.spaces.updateUserPermissionInSpace(space, member.id, { role: MemberRole.Admin })).status).toBe(204);
    expect((await api.spaces.updateTeamPermissionInSpace(space, team, { role: MemberRole.Read })).status).toBe(204);
    expect((await api.spaces.removeUserFromSpace(space, member.id)).status).toBe(205);
    expect((await api.spaces.removeTeamFromSpace(space, team)).status).toBe(205);
    expect((await api.spaces.removeTeamFromSpace(space, team)).status).toBe(204);
  });

  it('collections: the same operations', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Perm Org 2' })).data.id;
    await t.member(org, member, 'read');
    const collection = (await api.orgs.createCollection(org, { title: 'Folder' })).data.id;
    expect((await api.collections.inviteToCollection(collection, { role: MemberRole.Create, users: [member.id] })).status).toBe(204);
    const users = await api.collections.listUserPermissionsInCollection(collection);
    expect(users.data.items.map((i) => schemas.check('UserContentPermission', i)).join('')).toBe('');
    expect((await api.collections.listTeamPermissionsInCollection(collection)).data.items).toEqual([]);
    const aggregate = await api.collections.listPermissionsAggregateInCollection(collection);
    expect(aggregate.data.items.map((i) => schemas.check('UserContentPermission', i)).join('')).toBe('');
    expect((await api.collections.updateUserPermissionInCollection(collection, member.id, { role: MemberRole.Edit })).status).toBe(204);
    expect((await api.collections.removeUserFromCollection(collection, member.id)).status).toBe(205);
  });

  it('sites: invite, list users, teams and the aggregate, update and remove', async () => {
    const org = (await api.orgs.createOrganization({ title: 'Perm Org 3' })).data.id;
    await t.member(org, member, 'read');
    const team = (await t.http.put(`/v1/orgs/${org}/teams`).set(admin.auth).send({ title: 'Team' }).expect(201)).body.id as string;
    const site = (await t.http.post(`/v1/orgs/${org}/sites`).set(admin.auth).send({ title: 'Site' }).expect(201)).body.id as string;
    expect((await api.orgs.inviteToSite(org, site, { role: MemberRole.Admin, users: [member.id] })).status).toBe(204);
    expect((await api.orgs.inviteToSite(org, site, { role: MemberRole.Edit, teams: [team] })).status).toBe(204);
    const users = await api.orgs.listUserPermissionsInSite(org, site);
    expect(users.data.items.map((i) => schemas.check('UserSitePermissionOverride', i)).join('')).toBe('');
    const teams = await api.orgs.listTeamPermissionsInSite(org, site);
    expect(teams.data.items.map((i) => schemas.check('TeamSitePermissionOverride', i)).join('')).toBe('');
    const aggregate = await api.orgs.listPermissionsAggregateInSite(org, site);
    expect(aggregate.data.items).toHaveLength(2);
    expect(aggregate.data.items.map((i) => schemas.check('UserSitePermission', i)).join('')).toBe('');
    expect((await api.orgs.updateUserPermissionInSite(org, site, member.id, { role: MemberRole.Read })).status).toBe(204);
    expect((await api.orgs.updateTeamPermissionInSite(org, site, team, { role: MemberRole.Read })).status).toBe(204);
    expect((await api.orgs.removeUserFromSite(org, site, member.id)).status).toBe(205);
    expect((await api.orgs.removeTeamFromSite(org, site, team)).status).toBe(205);
  });
});
