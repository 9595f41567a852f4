import { X509Certificate } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ConflictError,
  DAY_MS,
  ForbiddenError,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  Role,
  UnitOfWork,
} from '@app/shared-kernel';
import { decideSsoAccount, SsoIdentityRepository } from '../domain/sso-identity';
import { normalizeEmail } from '../domain/user';
import { MemberRepository } from '../domain/member';
import { OrganizationRepository } from '../domain/organization';
import {
  applySamlPatch,
  isConfigured,
  SamlGateway,
  SamlProvider,
  SamlProviderPatch,
  SamlProviderRepository,
  ServiceProviderUrls,
} from '../domain/saml-provider';
import { TeamRepository, TeamView } from '../domain/team';
import { IdentityService } from './identity.service';
import { SessionsService, type OpenedSession } from './sessions.service';
import { Access } from '@app/access';

export const SSO_TOKEN_LIFETIME_MS = 30 * DAY_MS;

export interface SamlProviderView {
  provider: SamlProvider;
  defaultTeam: TeamView | null;
}

export interface SsoLogin {
  /** The API token it issued (an API client's login). */
  token?: string;
  /** The web-app session it opened (a login that began at the app). */
  session?: OpenedSession;
  expiresAt: Date;
  userId: string;
  email: string;
  organizationId: string;
  /** null: a guest. */
  role: Role | null;
}

/** Builds Quire's own SAML endpoints for a provider, from the API's public base. */
export type ServiceProviderUrlsFor = (providerId: string) => ServiceProviderUrls;

@Injectable()
export class SsoService {
  constructor(
    private readonly providers: SamlProviderRepository,
    private readonly saml: SamlGateway,
    private readonly teams: TeamRepository,
    private readonly members: MemberRepository,
    private readonly organizations: OrganizationRepository,
    private readonly identity: IdentityService,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly ssoIdentities: SsoIdentityRepository,
    private readonly uow: UnitOfWork,
    private readonly sessions: SessionsService,
  ) {}

  private async view(p: SamlProvider): Promise<SamlProviderView> {
    return { provider: p, defaultTeam: p.defaultTeamId ? await this.teams.view(p.organizationId, p.defaultTeamId) : null };
  }

  private async checked(organizationId: string, patch: SamlProviderPatch): Promise<SamlProviderPatch> {
    if (patch.certificate !== undefined) {
      try {
        new X509Certificate(patch.certificate);
      } catch {
        throw new InvalidInputError('certificate: not a parseable X.509 certificate (PEM)');
      }
    }
    if (patch.defaultTeamId && !(await this.teams.view(organizationId, patch.defaultTeamId))) {
      throw new InvalidInputError(`defaultTeam: "${patch.defaultTeamId}" is not a team of this organization`);
    }
    return patch;
  }

  async list(actor: Actor, organizationId: string, page: PageRequest): Promise<Page<SamlProviderView>> {
    await this.access.require(organizationId, actor, 'admin');
    const result = await this.providers.list(organizationId, page);
    return { ...result, items: await Promise.all(result.items.map((p) => this.view(p))) };
  }

  async get(actor: Actor, organizationId: string, id: string): Promise<SamlProviderView> {
    await this.access.require(organizationId, actor, 'admin');
    const p = await this.providers.find(organizationId, id);
    if (!p) throw new NotFoundError('SAML provider', id);
    return this.view(p);
  }

  async create(actor: Actor, organizationId: string, input: SamlProviderPatch & { label: string }): Promise<SamlProviderView> {
    await this.access.require(organizationId, actor, 'admin');
    const patch = await this.checked(organizationId, input);
    const blank: SamlProvider = {
      id: this.ids.next(),
      organizationId,
      label: input.label,
      entityID: null,
      certificate: null,
      ssoURL: null,
      defaultTeamId: null,
      defaultRole: null,
      status: 'pending',
      createdAt: this.clock.now(),
    };
    const p = applySamlPatch(blank, patch);
    await this.providers.insert(p);
    return this.view(p);
  }

  async update(actor: Actor, organizationId: string, id: string, input: SamlProviderPatch): Promise<SamlProviderView> {
    const { provider } = await this.get(actor, organizationId, id);
    const next = applySamlPatch(provider, await this.checked(organizationId, input));
    await this.providers.update(next);
    return this.view(next);
  }

  async delete(actor: Actor, organizationId: string, id: string): Promise<'deleted' | 'absent'> {
    if ((await this.access.roleOf(organizationId, actor)) === null) return 'absent';
    await this.access.require(organizationId, actor, 'admin');
    return (await this.providers.delete(organizationId, id)) ? 'deleted' : 'absent';
  }

  /** GET /orgs/{id}/sso: the providers members can sign in with. */
  async logins(actor: Actor, organizationId: string): Promise<SamlProvider[]> {
    await this.access.require(organizationId, actor, 'read');
    return (await this.providers.listAll(organizationId)).filter(isConfigured);
  }

  private async loginProvider(providerId: string): Promise<SamlProvider> {
    const p = await this.providers.findById(providerId);
    if (!p) throw new NotFoundError('SAML provider', providerId);
    return p;
  }

  /** The identity provider's sign-in URL; `relayState` comes back with the response (`app`: a web-app session). */
  async startLogin(providerId: string, sp: ServiceProviderUrls, relayState = ''): Promise<string> {
    return this.saml.authorizeUrl(await this.loginProvider(providerId), sp, relayState);
  }

  metadata(provider: SamlProvider, sp: ServiceProviderUrls): Promise<string> {
    return this.saml.metadata(provider, sp);
  }

  async providerForMetadata(providerId: string): Promise<SamlProvider> {
    return this.loginProvider(providerId);
  }

  /**
   * The ACS. Verifies the response (signature, audience, time, InResponseTo), then decides who it signs
   * in (decideSsoAccount: the linked identity, a member of the organization with that email, or a new
   * user; never an outside account merely because the email matches). Then, in one unit of work:
   * remembers the assertion (replays refused), creates and links the user, makes them an SSO member
   * with the default role and team, and issues a token scoped to the organization — or, for the web app
   * (`forApp`), opens a session scoped to it. A refusal or a failure part-way writes nothing.
   */
  async completeLogin(
    providerId: string,
    sp: ServiceProviderUrls,
    samlResponse: string,
    forApp?: { userAgent: string | undefined },
  ): Promise<SsoLogin> {
    const p = await this.loginProvider(providerId);
    const asserted = await this.saml.verify(p, sp, samlResponse);
    const org = await this.organizations.findById(p.organizationId);
    if (!org) throw new NotFoundError('Organization', p.organizationId);
    const email = normalizeEmail(asserted.email);
    const linked = await this.ssoIdentities.find(p.id, asserted.nameID);
    const existing = linked ? null : await this.identity.findUserByEmail(email);
    const existingIsMember = existing !== null && (await this.members.find(org.id, existing.id)) !== null;
    const decision = decideSsoAccount(linked?.userId ?? null, existing?.id ?? null, existingIsMember);
    if (decision.kind === 'refuse') {
      throw new ForbiddenError(
        `SSO login refused: an account with the email ${email} already exists and is not a member of this organization. ` +
          'An admin of the organization can add that account as a member; its next SSO login then links it.',
      );
    }
    const login = await this.uow.run(async () => {
      if (!(await this.providers.rememberAssertion(p.id, asserted.assertionId, asserted.validUntil))) {
        throw new InvalidInputError('SAML response refused: this assertion was already used');
      }
      const now = this.clock.now();
      const user =
        decision.kind === 'create'
          ? await this.identity.createUser({ email, displayName: asserted.displayName ?? undefined, emailAssertedBy: org.id })
          : await this.identity.getUser(decision.userId);
      if (decision.kind !== 'linked') {
        const link = { providerId: p.id, nameId: asserted.nameID, userId: user.id, organizationId: org.id, createdAt: now };
        if (!(await this.ssoIdentities.insert(link)))
          throw new ConflictError('Another login of this identity was completing at the same time; sign in again');
      }
      const member = await this.members.find(org.id, user.id);
      // An existing member keeps their role (a guest stays a guest); a newcomer gets the provider's default
      // role, else the organization's (null there: a guest).
      const role: Role | null = member ? member.role : (p.defaultRole ?? org.defaultRole);
      await this.members.upsert({
        organizationId: org.id,
        userId: user.id,
        role,
        joinedAt: member?.joinedAt ?? now,
        sso: true,
        disabled: member?.disabled ?? false,
      });
      if (p.defaultTeamId && (await this.teams.view(org.id, p.defaultTeamId))) {
        await this.teams.applyMembers(org.id, p.defaultTeamId, new Map([[user.id, null]]), new Set(), now);
      }
      if (p.status !== 'active') await this.providers.update({ ...p, status: 'active' });
      if (forApp) {
        const opened = await this.sessions.openForSso(user, org.id, forApp.userAgent);
        return { session: opened, expiresAt: opened.session.expiresAt, userId: user.id, email: user.email, organizationId: org.id, role };
      }
      const expiresAt = new Date(now.getTime() + SSO_TOKEN_LIFETIME_MS);
      const { token } = await this.identity.issueToken(user.id, { label: `SSO: ${p.label}`, expiresAt, via: { sso: org.id } });
      return { token, expiresAt, userId: user.id, email: user.email, organizationId: org.id, role };
    });
    await this.access.forget(org.id, login.userId);
    return login;
  }
}
