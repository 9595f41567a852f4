import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  reaches,
  Role,
  roleAtLeast,
} from '@app/shared-kernel';
import { MemberFilter, MemberRepository, MemberSort, MemberView, SortOrder } from '../domain/member';
import { OrganizationRepository } from '../domain/organization';
import { TeamRepository, TeamRole, TeamView } from '../domain/team';
import { UserRepository } from '../domain/user';
import { Access } from '@app/access';

/** Organization members: listing, roles, removal, joining by email domain. */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: MemberRepository,
    private readonly organizations: OrganizationRepository,
    private readonly users: UserRepository,
    private readonly teams: TeamRepository,
    private readonly access: Access,
    private readonly clock: Clock,
  ) {}

  async list(
    actor: Actor,
    organizationId: string,
    filter: MemberFilter,
    sort: MemberSort,
    order: SortOrder,
    page: PageRequest,
  ): Promise<Page<MemberView>> {
    await this.access.require(organizationId, actor, 'read');
    const result = await this.members.list(organizationId, filter, sort, order, page);
    return { ...result, items: await withContentCounts(this.access, organizationId, result.items, actor) };
  }

  async get(actor: Actor, organizationId: string, userId: string): Promise<MemberView> {
    await this.access.require(organizationId, actor, 'read');
    const view = await this.members.view(organizationId, userId);
    if (!view) throw new NotFoundError('Member', userId);
    return (await withContentCounts(this.access, organizationId, [view], actor))[0];
  }

  /**
   * These users as members of the organization (those who are not left out), for another context's lists of
   * people (who commented): that context checks the caller may see the content; a guest is refused here (403).
   */
  async viewsOf(actor: Actor, organizationId: string, userIds: string[]): Promise<Map<string, MemberView>> {
    // Members' details are the organization's members' to see, as its member list: not a guest's.
    const membership = await this.access.membershipOf(organizationId, actor);
    if (membership === null) throw new NotFoundError('Organization', organizationId);
    if (membership === 'guest')
      throw new ForbiddenError("Guests do not see the organization's members (these people are listed as members)");
    const views = await this.members.views(organizationId, userIds);
    return new Map((await withContentCounts(this.access, organizationId, views, actor)).map((v) => [v.user.id, v]));
  }

  async updateRole(actor: Actor, organizationId: string, userId: string, role: Role | null): Promise<MemberView> {
    await this.access.require(organizationId, actor, 'admin');
    const outcome = await this.members.changeRole(organizationId, userId, role);
    if (outcome === 'absent') throw new NotFoundError('Member', userId);
    if (outcome === 'last-admin') throw new ConflictError('The organization must keep at least one admin');
    await this.access.forget(organizationId, userId);
    return (await withContentCounts(this.access, organizationId, [(await this.members.view(organizationId, userId))!], actor))[0];
  }

  /**
   * Admins remove anyone; a member or a guest may remove themselves (leave). 'absent' also for callers
   * outside the organization, and for a guest naming someone else (the member list is not theirs to see).
   */
  async remove(actor: Actor, organizationId: string, userId: string): Promise<'removed' | 'absent'> {
    const membership = await this.access.membershipOf(organizationId, actor);
    if (membership === null || (membership === 'guest' && userId !== actor.userId)) return 'absent';
    if (userId !== actor.userId && !roleAtLeast(membership === 'guest' ? null : membership, 'admin'))
      throw new ForbiddenError('Only admins can remove other members');
    const outcome = await this.members.remove(organizationId, userId);
    if (outcome === 'last-admin') throw new ConflictError('The organization must keep at least one admin');
    await this.access.forget(organizationId, userId);
    return outcome === 'changed' ? 'removed' : 'absent';
  }

  /** POST /members/{userId}/sso: lets a member sign in through SSO (admins). */
  async markSso(actor: Actor, organizationId: string, userId: string): Promise<MemberView> {
    await this.access.require(organizationId, actor, 'admin');
    if (!(await this.members.markSso(organizationId, userId))) throw new NotFoundError('Member', userId);
    return (await withContentCounts(this.access, organizationId, [(await this.members.view(organizationId, userId))!], actor))[0];
  }

  async teamsOf(
    actor: Actor,
    organizationId: string,
    userId: string,
    title: string | undefined,
    page: PageRequest,
  ): Promise<Page<{ team: TeamView; role: TeamRole }>> {
    await this.access.require(organizationId, actor, 'read');
    if (!(await this.members.find(organizationId, userId))) throw new NotFoundError('Member', userId);
    const result = await this.teams.teamsOfMember(organizationId, userId, title, page);
    const counts = await this.access.teamSpaceCounts(
      organizationId,
      result.items.map((i) => i.team.team.id),
      actor,
    );
    return { ...result, items: result.items.map((i) => ({ ...i, team: { ...i.team, spaces: counts.get(i.team.team.id) ?? 0 } })) };
  }

  /**
   * POST /orgs/{id}/join: the caller joins with the organization's defaultRole (null: as a guest) when their
   * email's domain is one of its emailDomains. Joining again changes nothing.
   */
  async join(actor: Actor, organizationId: string): Promise<void> {
    const org = reaches(actor, organizationId) ? await this.organizations.findById(organizationId) : null;
    if (!org) throw new NotFoundError('Organization', organizationId);
    if (await this.members.find(organizationId, actor.userId)) return;
    const user = await this.users.findById(actor.userId);
    const domain = user?.email.split('@')[1]?.toLowerCase();
    if (!domain || !org.emailDomains.includes(domain))
      throw new InvalidInputError('Your email domain does not allow joining this organization');
    if (user!.emailAssertedBy !== null && user!.emailAssertedBy !== organizationId) {
      throw new ForbiddenError(
        'Your email address was asserted by the identity provider of another organization, not verified: ' +
          'it does not let you join by email domain (ask for an invite)',
      );
    }
    await this.members.upsert({
      organizationId,
      userId: actor.userId,
      role: org.defaultRole,
      joinedAt: this.clock.now(),
      sso: false,
      disabled: false,
    });
    await this.access.forget(organizationId, actor.userId);
  }
}

/** The views with their `spaces` and `sites` counts (Access follows the grants down the collection tree). */
export async function withContentCounts(access: Access, organizationId: string, views: MemberView[], actor: Actor): Promise<MemberView[]> {
  if (views.length === 0) return views;
  const counts = await access.memberContentCounts(
    organizationId,
    views.map((v) => v.user.id),
    actor,
  );
  return views.map((v) => ({ ...v, ...(counts.get(v.user.id) ?? { spaces: 0, sites: 0 }) }));
}
