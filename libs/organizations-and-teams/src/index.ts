// The public surface of the organizations-and-teams context. Other contexts import only this file.
export { OrganizationsAndTeamsModule } from './organizations-and-teams.module';
export { IdentityService, hashToken } from './application/identity.service';
export { OrganizationsService } from './application/organizations.service';
export type { OrganizationView } from './application/organizations.service';
export type { Organization } from './domain/organization';
export type { User } from './domain/user';
export type { ApiToken } from './domain/api-token';
export { TeamsService } from './application/teams.service';
export type { TeamView } from './domain/team';
export { SessionsService } from './application/sessions.service';
export { MailSettings } from './application/mail-settings';
export { EmailInvitationsService, INVITATION_QUEUE, INVITATION_SWEEP_QUEUE } from './application/email-invitations.service';
export { SESSION_COOKIE, sessionSecret } from './domain/session';
export type { Session } from './domain/session';
export { MembersPresenter, MemberDto } from './http/members-presenter';
