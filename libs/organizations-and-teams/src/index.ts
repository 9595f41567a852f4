// The public surface of the organizations-and-teams context. Other contexts import only this file.
export { OrganizationsAndTeamsModule } from './organizations-and-teams.module';
export { IdentityService, AccessCacheSettings, hashToken } from './application/identity.service';
export { AccessChanges } from './application/access-changes';
export { OrganizationsService, OrganizationAccess } from './application/organizations.service';
export type { OrganizationView } from './application/organizations.service';
export type { Organization } from './domain/organization';
export type { User } from './domain/user';
export type { ApiToken } from './domain/api-token';
export { TeamsService } from './application/teams.service';
export type { TeamView } from './domain/team';
export { TeamSpaces } from './domain/team';
