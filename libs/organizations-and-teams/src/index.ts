// The public surface of the organizations-and-teams context. Other contexts import only this file.
export { OrganizationsAndTeamsModule } from './organizations-and-teams.module';
export { IdentityService, AccessCacheSettings, hashToken } from './application/identity.service';
export { AccessChanges } from './application/access-changes';
export { OrganizationsService, OrganizationAccess } from './application/organizations.service';
export type { OrganizationView } from './application/organizations.service';
export type { Organization } from './domain/organization';
export type { User } from './domain/user';
export type { ApiToken } from './domain/api-token';
export { ORGANIZATION_ENTITIES } from './infrastructure/orm-entities';
export { toUserDto, UserDto } from './http/organization.dto';
export { toOrganizationDto, OrganizationDto } from './http/organization.dto';
export { TeamsService } from './application/teams.service';
export type { TeamView } from './domain/team';
export { toTeamDto, TeamDto } from './http/people.dto';
export { TeamSpaces } from './domain/team';
