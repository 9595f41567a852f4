import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdentityService } from './application/identity.service';
import { OrganizationsService } from './application/organizations.service';
import { TokenRepository } from './domain/api-token';
import { MemberRepository } from './domain/member';
import { OrganizationRepository } from './domain/organization';
import { UserRepository } from './domain/user';
import { MembersPresenter } from './http/members-presenter';
import { EmailDomainsController, OrganizationsController, UserController } from './http/organizations.controller';
import { InvitesController, MembersController, TeamsController } from './http/people.controller';
import { InvitesService } from './application/invites.service';
import { EmailInvitationsService } from './application/email-invitations.service';
import { InvitationEmailRepository, Mailer } from './domain/invitation-email';
import { SqlInvitationEmailRepository } from './infrastructure/invitation-emails.repository';
import { SmtpMailer } from './infrastructure/smtp-mailer';
import { SsoService } from './application/sso.service';
import { SamlGateway, SamlProviderRepository } from './domain/saml-provider';
import { SamlProvidersController, SsoLoginController } from './http/sso.controller';
import { NodeSamlGateway, SqlSamlProviderRepository, SqlSsoIdentityRepository } from './infrastructure/saml.repositories-and-gateway';
import { SsoIdentityRepository } from './domain/sso-identity';
import { SessionsService } from './application/sessions.service';
import { PasswordHasher, PasswordRepository, SessionRepository, SignInLinkRepository } from './domain/session';
import {
  Argon2PasswordHasher,
  SqlPasswordRepository,
  SqlSessionRepository,
  SqlSignInLinkRepository,
} from './infrastructure/sessions.repositories';
import { SignInController } from './http/sign-in.controller';
import { ApiTokensController } from './http/api-tokens.controller';
import { AccessModule } from '@app/access';
import { MembersService } from './application/members.service';
import { TeamsService } from './application/teams.service';
import { InviteRepository } from './domain/invite';
import { TeamRepository } from './domain/team';
import { SqlInviteRepository, SqlTeamRepository } from './infrastructure/teams-and-invites.repositories';
import { ORGANIZATION_ENTITIES } from './infrastructure/orm-entities';
import {
  TypeOrmMemberRepository,
  TypeOrmOrganizationRepository,
  TypeOrmTokenRepository,
  TypeOrmUserRepository,
} from './infrastructure/organizations.repositories';

/**
 * Organizations, members and identity (users, API tokens).
 * Needs `Clock`, `IdGenerator` and `AccessCacheSettings` from the application (global providers).
 */
@Module({
  imports: [TypeOrmModule.forFeature(ORGANIZATION_ENTITIES), AccessModule],
  controllers: [
    OrganizationsController,
    UserController,
    EmailDomainsController,
    MembersController,
    TeamsController,
    InvitesController,
    SamlProvidersController,
    SsoLoginController,
    SignInController,
    ApiTokensController,
  ],
  providers: [
    MembersPresenter,
    IdentityService,
    OrganizationsService,
    MembersService,
    TeamsService,
    InvitesService,
    EmailInvitationsService,
    { provide: InvitationEmailRepository, useClass: SqlInvitationEmailRepository },
    { provide: Mailer, useClass: SmtpMailer },
    SsoService,
    SessionsService,
    { provide: SessionRepository, useClass: SqlSessionRepository },
    { provide: PasswordRepository, useClass: SqlPasswordRepository },
    { provide: SignInLinkRepository, useClass: SqlSignInLinkRepository },
    { provide: PasswordHasher, useClass: Argon2PasswordHasher },
    { provide: SamlProviderRepository, useClass: SqlSamlProviderRepository },
    { provide: SamlGateway, useClass: NodeSamlGateway },
    { provide: SsoIdentityRepository, useClass: SqlSsoIdentityRepository },
    { provide: TeamRepository, useClass: SqlTeamRepository },
    { provide: InviteRepository, useClass: SqlInviteRepository },
    { provide: UserRepository, useClass: TypeOrmUserRepository },
    { provide: TokenRepository, useClass: TypeOrmTokenRepository },
    { provide: OrganizationRepository, useClass: TypeOrmOrganizationRepository },
    { provide: MemberRepository, useClass: TypeOrmMemberRepository },
  ],
  exports: [IdentityService, OrganizationsService, TeamsService, SessionsService, MembersPresenter, EmailInvitationsService],
})
export class OrganizationsAndTeamsModule {}
