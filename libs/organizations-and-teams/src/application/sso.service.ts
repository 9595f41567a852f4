import { X509Certificate } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Actor, Clock, DAY_MS, IdGenerator, InvalidInputError, NotFoundError, Page, PageRequest, Role } from '@app/shared-kernel';
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
import { OrganizationAccess } from './organizations.service';

export const SSO_TOKEN_LIFETIME_MS = 30 * DAY_MS;

export interface SamlProviderView {
  provider: SamlProvider;
  defaultTeam: TeamView | null;
}

export interface SsoLogin {
  token: string;
  expiresAt: Date;
  userId: string;
  email: string;
  organizationId: string;
  role: Role;
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
    private readonly access: OrganizationAccess,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
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
    await this.access.require(organizationId, actor.userId, 'admin');
    const result = await this.providers.list(organizationId, page);
    return { ...result, items: await Promise.all(result.items.map((p) => this.view(p))) };
  }

  async get(actor: Actor, organizationId: string, id: string): Promise<SamlProviderView> {
    await this.access.require(organizationId, actor.userId, 'admin');
    const p = await this.providers.find(organizationId, id);
    if (!p) throw new NotFoundError('SAML provider', id);
    return this.view(p);
  }

  async create(actor: Actor, organizationId: string, input: SamlProviderPatch & { label: string }): Promise<SamlProviderView> {
    await this.access.require(organizationId, actor.userId, 'admin');
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
    if ((await this.access.roleOf(organizationId, actor.userId)) === null) return 'absent';
    await this.access.require(organizationId, actor.userId, 'admin');
    return (await this.providers.delete(organizationId, id)) ? 'deleted' : 'absent';
  }

  /** GET /orgs/{id}/sso: the providers members can sign in with. */
  async logins(actor: Actor, organizationId: string): Promise<SamlProvider[]> {
    await this.access.require(organizationId, actor.userId, 'read');
    return (await this.providers.listAll(organizationId)).filter(isConfigured);
  }

  private async loginProvider(providerId: string): Promise<SamlProvider> {
    const p = await this.providers.findById(providerId);
    if (!p) throw new NotFoundError('SAML provider', providerId);
    return p;
  }

  async startLogin(providerId: string, sp: ServiceProviderUrls): Promise<string> {
    return this.saml.authorizeUrl(await this.loginProvider(providerId), sp, '');
  }

  metadata(provider: SamlProvider, sp: ServiceProviderUrls): string {
    return this.saml.metadata(provider, sp);
  }

  async providerForMetadata(providerId: string): Promise<SamlProvider> {
    return this.loginProvider(providerId);
  }

  /**
   * The ACS: verifies the response (signature, audience, time, InResponseTo, replay), then creates or
   * updates the user, makes them an SSO member with the default role and team, and issues a token.
   * Nothing is written before the response is fully verified.
   */
  async completeLogin(providerId: string, sp: ServiceProviderUrls, samlResponse: string): Promise<SsoLogin> {
    const p = await this.loginProvider(providerId);
    const identity = await this.saml.verify(p, sp, samlResponse);
    if (!(await this.providers.rememberAssertion(p.id, identity.assertionId, identity.validUntil))) {
      throw new InvalidInputError('SAML response refused: this assertion was already used');
    }
    const org = await this.organizations.findById(p.organizationId);
    if (!org) throw new NotFoundError('Organization', p.organizationId);
    const user =
      (await this.identity.findUserByEmail(identity.email)) ??
      (await this.identity.createUser({ email: identity.email, displayName: identity.displayName ?? undefined }));
    const existing = await this.members.find(org.id, user.id);
    const role: Role = existing?.role ?? p.defaultRole ?? org.defaultRole ?? 'read';
    await this.members.upsert({ organizationId: org.id, userId: user.id, role, joinedAt: existing?.joinedAt ?? this.clock.now(), sso: true, disabled: existing?.disabled ?? false });
    this.access.forget(org.id, user.id);
    if (p.defaultTeamId && (await this.teams.view(org.id, p.defaultTeamId))) {
      await this.teams.applyMembers(org.id, p.defaultTeamId, new Map([[user.id, null]]), new Set(), this.clock.now());
    }
    if (p.status !== 'active') await this.providers.update({ ...p, status: 'active' });
    const expiresAt = new Date(this.clock.now().getTime() + SSO_TOKEN_LIFETIME_MS);
    const { token } = await this.identity.issueToken(user.id, { label: `SSO: ${p.label}`, expiresAt, via: 'sso' });
    return { token, expiresAt, userId: user.id, email: user.email, organizationId: org.id, role };
  }
}
