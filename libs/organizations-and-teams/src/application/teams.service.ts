import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ForbiddenError,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  Role,
  roleAtLeast,
} from '@app/shared-kernel';
import { MemberRepository } from '../domain/member';
import { withContentCounts } from './members.service';
import { checkTeamTitle, planTeamMembers, Team, TeamMemberView, teamPermissions, TeamRepository, TeamRole, TeamView } from '../domain/team';
import { isEmail, normalizeEmail, UserRepository } from '../domain/user';
import { Access } from '@app/access';

export interface TeamForCaller {
  view: TeamView;
  permissions: { admin: boolean; view: boolean };
}

@Injectable()
export class TeamsService {
  constructor(
    private readonly teams: TeamRepository,
    private readonly members: MemberRepository,
    private readonly users: UserRepository,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  private async forCaller(actor: Actor, organizationId: string, views: TeamView[], role: Role): Promise<TeamForCaller[]> {
    const owned = roleAtLeast(role, 'admin') ? new Set<string>() : await this.teams.ownedTeamIds(organizationId, actor.userId);
    const counted = await this.withSpaces(organizationId, views, actor);
    return counted.map((view) => ({ view, permissions: teamPermissions(role, owned.has(view.team.id) ? 'owner' : null) }));
  }

  /** The views with their `spaces` count (Access follows the teams' grants down the collection tree). */
  private async withSpaces(organizationId: string, views: TeamView[], actor: Actor): Promise<TeamView[]> {
    if (views.length === 0) return views;
    const counts = await this.access.teamSpaceCounts(
      organizationId,
      views.map((v) => v.team.id),
      actor,
    );
    return views.map((v) => ({ ...v, spaces: counts.get(v.team.id) ?? 0 }));
  }

  async list(
    actor: Actor,
    organizationId: string,
    filter: { owner?: string; title?: string },
    page: PageRequest,
  ): Promise<Page<TeamForCaller>> {
    const role = await this.access.require(organizationId, actor, 'read');
    let ownedBy: string | undefined;
    if (filter.owner !== undefined) {
      const ownerRole = await this.access.roleOfUser(organizationId, filter.owner);
      if (ownerRole === null) throw new InvalidInputError(`owner: "${filter.owner}" is not a member of the organization`);
      if (!roleAtLeast(ownerRole, 'admin')) ownedBy = filter.owner; // admins can manage every team
    }
    const result = await this.teams.list(organizationId, { title: filter.title, ownedBy }, page);
    return { ...result, items: await this.forCaller(actor, organizationId, result.items, role) };
  }

  /** The team and the caller's rights on it; 404 when the caller or the team is not in the organization. */
  private async load(actor: Actor, organizationId: string, teamId: string): Promise<TeamForCaller> {
    const role = await this.access.require(organizationId, actor, 'read');
    const view = await this.teams.view(organizationId, teamId);
    if (!view) throw new NotFoundError('Team', teamId);
    const teamRole = roleAtLeast(role, 'admin') ? null : await this.teams.roleOf(teamId, actor.userId);
    const [counted] = await this.withSpaces(organizationId, [view], actor);
    return { view: counted, permissions: teamPermissions(role, teamRole) };
  }

  private async loadManaged(actor: Actor, organizationId: string, teamId: string): Promise<TeamForCaller> {
    const t = await this.load(actor, organizationId, teamId);
    if (!t.permissions.admin) throw new ForbiddenError('Only organization admins and team owners manage a team');
    return t;
  }

  get(actor: Actor, organizationId: string, teamId: string): Promise<TeamForCaller> {
    return this.load(actor, organizationId, teamId);
  }

  /**
   * Member references (ids or emails) → user ids, in order, all looked up at once (a batch may name
   * 1,000); a reference that is not a member of the organization is a 400 naming it.
   */
  private async resolveMembers(organizationId: string, refs: string[], field: string): Promise<string[]> {
    const users = await this.usersByRef(refs);
    const members = await this.members.memberIds(organizationId, [...new Set(users.values())]);
    return refs.map((ref) => {
      const id = users.get(ref);
      if (!id || !members.has(id)) throw new InvalidInputError(`${field}: "${ref}" is not a member of the organization`);
      return id;
    });
  }

  /** Known users among references (ids or emails): reference → user id. */
  private async usersByRef(refs: string[]): Promise<Map<string, string>> {
    const emails = refs.filter(isEmail);
    const [byId, byEmail] = await Promise.all([
      this.users.findByIds(refs.filter((r) => !isEmail(r))),
      this.users.findByEmails([...new Set(emails.map(normalizeEmail))]),
    ]);
    const ids = new Set(byId.map((u) => u.id));
    const emailToId = new Map(byEmail.map((u) => [u.email, u.id]));
    const out = new Map<string, string>();
    for (const ref of refs) {
      const id = isEmail(ref) ? emailToId.get(normalizeEmail(ref)) : ids.has(ref) ? ref : undefined;
      if (id) out.set(ref, id);
    }
    return out;
  }

  async create(actor: Actor, organizationId: string, input: { title: string; members?: string[] }): Promise<TeamForCaller> {
    await this.access.require(organizationId, actor, 'admin');
    const members = await this.resolveMembers(organizationId, input.members ?? [], 'members');
    const team: Team = { id: this.ids.next(), organizationId, title: checkTeamTitle(input.title), createdAt: this.clock.now() };
    await this.teams.insert(
      team,
      [...new Set(members)].map((userId) => ({ userId, role: 'member' as const })),
    );
    return this.load(actor, organizationId, team.id);
  }

  async rename(actor: Actor, organizationId: string, teamId: string, title: string): Promise<TeamForCaller> {
    await this.loadManaged(actor, organizationId, teamId);
    await this.teams.rename(organizationId, teamId, checkTeamTitle(title));
    return this.load(actor, organizationId, teamId);
  }

  async delete(actor: Actor, organizationId: string, teamId: string): Promise<'deleted' | 'absent'> {
    const role = await this.access.roleOf(organizationId, actor);
    if (role === null || !(await this.teams.view(organizationId, teamId))) return 'absent';
    await this.loadManaged(actor, organizationId, teamId);
    const deleted = await this.teams.delete(organizationId, teamId);
    if (deleted) await this.access.grantsChanged(organizationId);
    return deleted ? 'deleted' : 'absent';
  }

  async listMembers(actor: Actor, organizationId: string, teamId: string, page: PageRequest): Promise<Page<TeamMemberView>> {
    await this.load(actor, organizationId, teamId);
    const result = await this.teams.listMembers(organizationId, teamId, page);
    const members = await withContentCounts(
      this.access,
      organizationId,
      result.items.map((i) => i.member),
      actor,
    );
    return { ...result, items: result.items.map((i, k) => ({ ...i, member: members[k] })) };
  }

  async updateMembers(
    actor: Actor,
    organizationId: string,
    teamId: string,
    input: { add?: string[]; remove?: string[]; memberships?: Record<string, { role: TeamRole }> },
  ): Promise<void> {
    await this.loadManaged(actor, organizationId, teamId);
    const add = await this.resolveMembers(organizationId, input.add ?? [], 'add');
    const remove = await this.resolveRemovals(input.remove ?? []);
    const membershipIds = await this.resolveMembers(organizationId, Object.keys(input.memberships ?? {}), 'memberships');
    const roles: Record<string, TeamRole> = {};
    Object.values(input.memberships ?? {}).forEach((m, i) => (roles[membershipIds[i]] = m.role));
    const plan = planTeamMembers(add, remove, roles);
    await this.teams.applyMembers(organizationId, teamId, plan.upsert, plan.remove, this.clock.now());
    await this.access.grantsChanged(organizationId);
  }

  /** Removals accept ids or emails of anyone; unknown ones simply are not in the team. */
  private async resolveRemovals(refs: string[]): Promise<string[]> {
    const users = await this.usersByRef(refs.filter(isEmail));
    return refs.flatMap((ref) => (!isEmail(ref) ? [ref] : users.has(ref) ? [users.get(ref)!] : []));
  }

  async putMember(actor: Actor, organizationId: string, teamId: string, userId: string, role: TeamRole | undefined): Promise<void> {
    await this.loadManaged(actor, organizationId, teamId);
    const [id] = await this.resolveMembers(organizationId, [userId], 'userId');
    await this.teams.applyMembers(organizationId, teamId, new Map([[id, role ?? null]]), new Set(), this.clock.now());
    await this.access.grantsChanged(organizationId);
  }

  async deleteMember(actor: Actor, organizationId: string, teamId: string, userId: string): Promise<'deleted' | 'absent'> {
    const role = await this.access.roleOf(organizationId, actor);
    if (role === null || !(await this.teams.view(organizationId, teamId))) return 'absent';
    await this.loadManaged(actor, organizationId, teamId);
    const removed = await this.teams.removeMember(teamId, userId);
    if (removed) await this.access.grantsChanged(organizationId);
    return removed ? 'deleted' : 'absent';
  }

  /** These teams of the organization (for content permission lists; unknown ids are left out), counted for the caller. */
  async viewsOf(organizationId: string, teamIds: string[], actor: Actor): Promise<TeamView[]> {
    return this.withSpaces(organizationId, await this.teams.views(organizationId, teamIds), actor);
  }

  /** True when the user owns at least one team of the organization (Organization `permissions.ownTeam`). */
  async ownsATeam(organizationId: string, userId: string): Promise<boolean> {
    return (await this.teams.ownedTeamIds(organizationId, userId)).size > 0;
  }
}
