import { organizationPermissions, Access } from '@app/access';
import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ConflictError,
  ForbiddenError,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  Role,
  reaches,
  UnitOfWork,
  untilWritten,
} from '@app/shared-kernel';
import { MemberRepository, MembershipOfUser } from '../domain/member';
import {
  applyOrganizationPatch,
  EMAIL_DOMAIN_PATTERN,
  mergeRuleUsers,
  newOrganization,
  Organization,
  OrganizationPatch,
  OrganizationRepository,
  ORGANIZATIONS_FOR_DOMAIN_MAX,
} from '../domain/organization';
import { TeamRepository } from '../domain/team';
import { UserRepository } from '../domain/user';

/** An organization as the caller sees it: with the caller's role, from which permissions are computed. */
export interface OrganizationView {
  organization: Organization;
  /** The caller's role; null for a guest. */
  role: Role | null;
  /** The caller owns a team of the organization (`permissions.ownTeam`). */
  ownTeam: boolean;
}

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly members: MemberRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly access: Access,
    private readonly teams: TeamRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async listForUser(actor: Actor, page: PageRequest): Promise<Page<OrganizationView>> {
    const [result, owning] = await Promise.all([
      this.members.listOrganizationsOfUser(actor.userId, page, actor.scope),
      this.teams.organizationsOwningTeams(actor.userId),
    ]);
    return { ...result, items: result.items.map((m: MembershipOfUser) => ({ ...m, ownTeam: owning.has(m.organization.id) })) };
  }

  /** The organization, if the caller is a member; 404 otherwise (never reveal foreign organizations). */
  async get(actor: Actor, organizationId: string): Promise<OrganizationView> {
    const member = reaches(actor, organizationId) ? await this.members.find(organizationId, actor.userId) : null;
    const organization = member && !member.disabled ? await this.organizations.findById(organizationId) : null;
    if (!member || !organization) throw new NotFoundError('Organization', organizationId);
    const ownTeam = (await this.teams.ownedTeamIds(organizationId, actor.userId)).size > 0;
    return { organization, role: member.role, ownTeam };
  }

  /**
   * The organizations the caller may join by email domain (`joinOrganization`), and those of the domain they are
   * in already (the official `getOrganizationsForEmailDomain`). Only the caller's own email domain may be asked
   * for (403 otherwise: no one learns which organizations another domain has); an email asserted by an
   * organization's identity provider lets its user join that one only, as joining does; a token scoped to an
   * organization sees that one only; a disabled membership is not listed.
   */
  async forEmailDomain(actor: Actor, domain: string): Promise<OrganizationView[]> {
    const wanted = domain.trim().toLowerCase();
    if (!EMAIL_DOMAIN_PATTERN.test(wanted)) throw new InvalidInputError(`emailDomain: "${domain}" is not a domain name`);
    const user = await this.users.findById(actor.userId);
    if (!user || user.email.split('@')[1]?.toLowerCase() !== wanted)
      throw new ForbiddenError('You can list only the organizations of your own email domain');
    const found = (await this.organizations.withEmailDomain(wanted, ORGANIZATIONS_FOR_DOMAIN_MAX)).filter(
      (o) => reaches(actor, o.id) && (user.emailAssertedBy === null || user.emailAssertedBy === o.id),
    );
    const views: OrganizationView[] = [];
    for (const organization of found) {
      const member = await this.members.find(organization.id, actor.userId);
      if (member?.disabled) continue;
      const ownTeam = member ? (await this.teams.ownedTeamIds(organization.id, actor.userId)).size > 0 : false;
      views.push({ organization, role: member ? member.role : null, ownTeam });
    }
    return views;
  }

  /** Creates an organization; the creator becomes its admin. */
  async create(actor: Actor, input: { title: string; emailDomains?: string[] }): Promise<OrganizationView> {
    if (actor.scope !== undefined)
      throw new ForbiddenError(
        'This token was issued by an SSO login and reaches only its own organization: it cannot create organizations',
      );
    const now = this.clock.now();
    const organization = newOrganization(this.ids.next(), input.title, input.emailDomains ?? [], now);
    await this.uow.run(async () => {
      await this.organizations.insert(organization);
      await this.members.upsert({
        organizationId: organization.id,
        userId: actor.userId,
        role: 'admin',
        joinedAt: now,
        sso: false,
        disabled: false,
      });
    });
    await this.access.forget(organization.id, actor.userId);
    return { organization, role: 'admin', ownTeam: false };
  }

  /** PATCH: writes only the fields it changes, re-applied on fresh data when another writer got there first. */
  update(actor: Actor, organizationId: string, patch: OrganizationPatch): Promise<OrganizationView> {
    return untilWritten(() => this.tryUpdate(actor, organizationId, patch), 'The organization');
  }

  private async tryUpdate(actor: Actor, organizationId: string, patch: OrganizationPatch): Promise<OrganizationView | undefined> {
    const view = await this.get(actor, organizationId);
    // A guest sees the organization but nothing of its settings: 404, as for a non-member.
    if (view.role === null) throw new NotFoundError('Organization', organizationId);
    if (!organizationPermissions(view.role).admin) throw new ForbiddenError('Only admins can update the organization');
    const next = applyOrganizationPatch(view.organization, patch);
    if (patch.hostname !== undefined && next.hostname && (await this.organizations.hostnameTaken(next.hostname, organizationId))) {
      throw new ConflictError(`hostname "${next.hostname}" is already used by another organization`);
    }
    if (patch.mergeRules !== undefined) {
      for (const userId of mergeRuleUsers(next.mergeRules)) {
        const m = await this.members.find(organizationId, userId);
        if (!m) throw new InvalidInputError(`mergeRules: user "${userId}" is not a member of the organization`);
      }
    }
    if (!(await this.organizations.update(view.organization, next))) return undefined;
    return { ...view, organization: next };
  }

  /** Adds a user to an organization with a role, or changes their role (CLI and bootstrap). */
  async addMember(organizationId: string, userId: string, role: Role | null): Promise<void> {
    if (!(await this.organizations.findById(organizationId))) throw new NotFoundError('Organization', organizationId);
    if (!(await this.users.findById(userId))) throw new NotFoundError('User', userId);
    const existing = await this.members.find(organizationId, userId);
    if (existing && !existing.disabled) {
      // A role change obeys the same rule as the API: the last admin is never demoted.
      const outcome = await this.members.changeRole(organizationId, userId, role);
      if (outcome === 'last-admin') throw new ConflictError('The organization must keep at least one admin');
      if (outcome === 'changed') return this.access.forget(organizationId, userId);
    }
    await this.members.upsert({
      organizationId,
      userId,
      role,
      joinedAt: existing?.joinedAt ?? this.clock.now(),
      sso: existing?.sso ?? false,
      disabled: false,
    });
    await this.access.forget(organizationId, userId);
  }

  /** Creates an organization owned by `userId` outside a request (CLI and bootstrap). */
  createFor(userId: string, title: string): Promise<OrganizationView> {
    return this.create({ userId, tokenId: 'system' }, { title });
  }
}
