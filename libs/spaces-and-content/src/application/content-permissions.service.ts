import { Injectable } from '@nestjs/common';
import { IdentityService, TeamsService, TeamView, User } from '@app/organizations-and-teams';
import { Actor, Clock, cursorKey, InvalidInputError, NotFoundError, Page, PageRequest, Role, toPage, UnitOfWork } from '@app/shared-kernel';
import { CollectionRepository } from '../domain/collection';
import {
  ContentChain,
  ContentKind,
  ContentPermission,
  ContentPermissionRepository,
  effectiveRoles,
  Principal,
  INVITE_MAX,
  Access,
} from '@app/access';
import { SpaceRepository } from '../domain/space';
import { collectionChain, ContentAccess, requireRole, spaceChain } from './content-access';

export interface InviteInput {
  /** null: a guest (Quire has no guests: 400). */
  role: Role | null;
  users?: string[];
  teams?: string[];
}

export interface AggregateFilter {
  role?: Role;
  team?: string;
  search?: string;
  /** By user id; `asc` by default. */
  order?: 'asc' | 'desc';
}

/** What is shared: a space or a collection of this context, or a site (with the organization the sites context found it in). */
export type ContentRef = { kind: Exclude<ContentKind, 'site'>; id: string } | { kind: 'site'; id: string; organizationId: string };

interface Loaded {
  organizationId: string;
  role: Role;
  chain: ContentChain;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Who is granted what on a space or a collection (official inviteToSpace, list/update/remove user and team
 * permissions, and the same under collections). Members see the grants; the item's admins (effective role
 * admin: organization admins, or members granted admin on it or a parent) change them. Only members and
 * teams of the item's organization can be granted anything (404 otherwise, as the official document says).
 */
@Injectable()
export class ContentPermissionsService {
  constructor(
    private readonly permissions: ContentPermissionRepository,
    private readonly spaces: SpaceRepository,
    private readonly collections: CollectionRepository,
    private readonly access: ContentAccess,
    private readonly organizations: Access,
    private readonly identity: IdentityService,
    private readonly teams: TeamsService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /** The item, with the caller's effective role on it; 404 for non-members and unknown or deleted items. */
  private async load(actor: Actor, content: ContentRef): Promise<Loaded> {
    if (content.kind === 'site') {
      // The sites context found the site in this organization before asking.
      const organizationId = content.organizationId;
      return {
        organizationId,
        role: await this.organizations.roleOnItem(organizationId, actor, content.id, 'Site'),
        chain: [{ id: content.id, level: 'inherit' }],
      };
    }
    if (content.kind === 'space') {
      const space = await this.spaces.findById(content.id);
      if (!space || space.deletedAt) throw new NotFoundError('Space', content.id);
      const tree = await this.collections.tree(space.organizationId);
      return {
        organizationId: space.organizationId,
        role: await this.access.spaceRole(space, actor, tree),
        chain: spaceChain(space, tree),
      };
    }
    const collection = await this.collections.findById(content.id);
    if (!collection) throw new NotFoundError('Collection', content.id);
    const tree = await this.collections.tree(collection.organizationId);
    return {
      organizationId: collection.organizationId,
      role: await this.access.collectionRole(collection, actor, tree),
      chain: collectionChain(collection, tree),
    };
  }

  private async manage(actor: Actor, content: ContentRef): Promise<Loaded> {
    const loaded = await this.load(actor, content);
    requireRole(loaded.role, 'admin', `Changing who can access this ${content.kind}`);
    return loaded;
  }

  async invite(actor: Actor, content: ContentRef, input: InviteInput): Promise<void> {
    const { organizationId } = await this.manage(actor, content);
    const role = requireGrantRole(input.role);
    const users = [...new Set(input.users ?? [])];
    const teams = [...new Set(input.teams ?? [])];
    if (users.length + teams.length === 0) throw new InvalidInputError('Name at least one of `users` or `teams`');
    if (users.length + teams.length > INVITE_MAX) throw new InvalidInputError(`At most ${INVITE_MAX} users and teams per invitation`);
    const userIds = await this.memberIds(organizationId, users);
    const found = new Set((await this.teams.viewsOf(organizationId, teams, actor)).map((v) => v.team.id));
    const missing = teams.find((t) => !found.has(t));
    if (missing !== undefined) throw new NotFoundError('Team', missing);
    const grantedAt = this.clock.now();
    const grants: ContentPermission[] = [
      ...userIds.map((id) => ({ organizationId, content, principal: { kind: 'user' as const, id }, role, grantedAt })),
      ...teams.map((id) => ({ organizationId, content, principal: { kind: 'team' as const, id }, role, grantedAt })),
    ];
    await this.uow.run(() => this.permissions.grant(grants));
    await this.access.grantsChanged(organizationId);
  }

  /** Users by id or email; each must be a member of the organization (404 naming the first that is not). */
  private async memberIds(organizationId: string, refs: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const ref of refs) {
      const id = EMAIL.test(ref) ? (await this.identity.findUserByEmail(ref))?.id : ref;
      if (!id || (await this.organizations.membershipOfUser(organizationId, id)) === null) throw new NotFoundError('User', ref);
      ids.push(id);
    }
    return [...new Set(ids)];
  }

  async listUsers(actor: Actor, content: ContentRef, page: PageRequest): Promise<Page<{ permission: Role; user: User }>> {
    await this.load(actor, content);
    const result = await this.permissions.list(content.id, 'user', page);
    const users = await this.identity.usersByIds(result.items.map((p) => p.principal.id));
    return {
      ...result,
      items: result.items.flatMap((p) => {
        const user = users.get(p.principal.id);
        return user ? [{ permission: p.role, user }] : [];
      }),
    };
  }

  /** `teamAdmin`: the caller administers teams (an organization admin), for each team's `permissions`. */
  async listTeams(
    actor: Actor,
    content: ContentRef,
    page: PageRequest,
  ): Promise<Page<{ permission: Role; team: TeamView }> & { teamAdmin: boolean }> {
    const { organizationId } = await this.load(actor, content);
    const teamAdmin = (await this.organizations.roleOf(organizationId, actor)) === 'admin';
    const result = await this.permissions.list(content.id, 'team', page);
    const teams = new Map(
      (
        await this.teams.viewsOf(
          organizationId,
          result.items.map((p) => p.principal.id),
          actor,
        )
      ).map((v) => [v.team.id, v]),
    );
    return {
      ...result,
      teamAdmin,
      items: result.items.flatMap((p) => {
        const team = teams.get(p.principal.id);
        return team ? [{ permission: p.role, team }] : [];
      }),
    };
  }

  async update(actor: Actor, content: ContentRef, principal: Principal, role: Role | null | undefined): Promise<void> {
    const { organizationId } = await this.manage(actor, content);
    const next = requireGrantRole(role);
    if (!(await this.permissions.update(content.id, principal, next)))
      throw new NotFoundError(principal.kind === 'user' ? 'User' : 'Team', principal.id);
    await this.access.grantsChanged(organizationId);
  }

  /** 'absent' (204) for non-members, unknown items and principals without a grant there. */
  async remove(actor: Actor, content: ContentRef, principal: Principal): Promise<'deleted' | 'absent'> {
    let loaded: Loaded;
    try {
      loaded = await this.load(actor, content);
    } catch (e) {
      if (e instanceof NotFoundError) return 'absent';
      throw e;
    }
    requireRole(loaded.role, 'admin', `Changing who can access this ${content.kind}`);
    if (!(await this.permissions.revoke(content.id, principal))) return 'absent';
    await this.access.grantsChanged(loaded.organizationId);
    return 'deleted';
  }

  /**
   * Everyone who can access the item, with their effective role (official listPermissionsAggregateIn…):
   * every active member of the organization (grants only widen). Filters: `role` (exactly this effective
   * role), `team` (members of this team), `search` (in the display name or email); ordered by user id.
   */
  async aggregate(
    actor: Actor,
    content: ContentRef,
    filter: AggregateFilter,
    page: PageRequest,
  ): Promise<Page<{ permission: Role; user: User; via: { kind: 'user' } | { kind: 'team'; id: string } | null }>> {
    const { organizationId, chain } = await this.load(actor, content);
    const grants = await this.permissions.onContent(chain.map((c) => c.id));
    const teamIds = [
      ...new Set([...grants.flatMap((g) => (g.principal.kind === 'team' ? [g.principal.id] : [])), ...(filter.team ? [filter.team] : [])]),
    ];
    const { members, teamMembers } = await this.organizations.accessFacts(organizationId, teamIds);
    let all = effectiveRoles(members, chain, grants, teamMembers);
    if (filter.role !== undefined) all = all.filter((m) => m.role === filter.role);
    if (filter.team !== undefined) {
      const inTeam = new Set(teamMembers.filter((m) => m.teamId === filter.team).map((m) => m.userId));
      all = all.filter((m) => inTeam.has(m.userId));
    }
    let users = new Map<string, User>();
    if (filter.search !== undefined) {
      users = await this.identity.usersByIds(all.map((m) => m.userId));
      const q = filter.search.toLowerCase();
      all = all.filter((m) => {
        const u = users.get(m.userId);
        return !!u && (u.displayName.toLowerCase().includes(q) || u.email.toLowerCase().includes(q));
      });
    }
    const desc = filter.order === 'desc';
    all.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0) * (desc ? -1 : 1));
    const after = cursorKey(page, ['text'])?.[0] as string | undefined;
    const rows = all.filter((m) => after === undefined || (desc ? m.userId < after : m.userId > after)).slice(0, page.limit + 1);
    const result = toPage(rows, page, all.length, (m) => [m.userId]);
    if (filter.search === undefined) users = await this.identity.usersByIds(result.items.map((m) => m.userId));
    return {
      ...result,
      items: result.items.flatMap((m) => {
        const user = users.get(m.userId);
        return user ? [{ permission: m.role, user, via: m.via }] : [];
      }),
    };
  }
}

function requireGrantRole(role: Role | null | undefined): Role {
  if (role === undefined) throw new InvalidInputError('role is required');
  if (role === null) throw new InvalidInputError('role: Quire has no guests; grant one of admin, create, review, edit, comment, read');
  return role;
}
