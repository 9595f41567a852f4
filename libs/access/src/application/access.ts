import { Injectable } from '@nestjs/common';
import { Actor, Clock, ForbiddenError, Narrowing, NotFoundError, reaches, Role, roleAtLeast, TtlCache } from '@app/shared-kernel';
import { ContentChain, ContentPermissionRepository, effectiveRole, Membership } from '../domain/grants';
import { Memberships } from '../domain/memberships';
import { AccessChanges } from './access-changes';

/** Port: which spaces of an organization a caller may read (the content context answers it: `ContentAccess.narrowing`). */
export interface ReadableSpaces {
  readable(organizationId: string, actor: Actor): Promise<Narrowing>;
}

/** How long a process may keep access answers (each change also evicts them in every process at once). */
export abstract class AccessCacheSettings {
  abstract readonly tokenTtlMs: number;
  abstract readonly roleTtlMs: number;
  abstract readonly maxEntries: number;
}

/**
 * Who may do what, in one place: the caller's organization role, and their effective role on a piece of
 * content (organization role, default levels, and the roles granted to the member or their teams on the
 * item or a parent collection). The content, sites, review and teams contexts ask it. Roles and grants are
 * cached per process; every change of a membership or a grant evicts them in every process (AccessChanges),
 * so a request does not query them.
 */
@Injectable()
export class Access {
  /** `${organizationId} ${userId}` → membership (null: not a member). Every request asks, so it is cached. */
  private readonly roles: TtlCache<string, { membership: Membership }>;
  /** `${organizationId} ${generation} ${userId}` → content id → strongest granted role. */
  private readonly grants: TtlCache<string, ReadonlyMap<string, Role>>;
  private readonly generations = new Map<string, number>();
  private readableSpaces: ReadableSpaces | null = null;

  constructor(
    private readonly memberships: Memberships,
    private readonly permissions: ContentPermissionRepository,
    private readonly clock: Clock,
    settings: AccessCacheSettings,
    private readonly changes: AccessChanges,
  ) {
    this.roles = new TtlCache(settings.roleTtlMs, settings.maxEntries);
    this.grants = new TtlCache(settings.roleTtlMs, settings.maxEntries);
    changes.subscribe((c) => {
      if (c.kind === 'role') this.roles.delete(`${c.organizationId} ${c.userId}`);
      else if (c.kind === 'grants') this.generations.set(c.organizationId, (this.generations.get(c.organizationId) ?? 0) + 1);
      else if (c.kind === 'reset') {
        this.roles.clear();
        this.grants.clear();
      }
    });
  }

  /**
   * The caller's role in the organization, or null when not an (active) member, when a guest (guests reach
   * granted content only: everything organization-wide answers them 404), or when the caller's token does not
   * reach the organization (an SSO-issued token reaches only its own organization).
   */
  async roleOf(organizationId: string, who: Actor): Promise<Role | null> {
    const membership = await this.membershipOf(organizationId, who);
    return membership === 'guest' ? null : membership;
  }

  /** The caller's membership: a role, `guest`, or null (not a member, or a token that does not reach it). */
  membershipOf(organizationId: string, who: Actor): Promise<Membership> {
    return reaches(who, organizationId) ? this.membershipOfUser(organizationId, who.userId) : Promise.resolve(null);
  }

  /** Another user's role in the organization (not the caller's: no token scope applies); null for guests too. */
  async roleOfUser(organizationId: string, userId: string): Promise<Role | null> {
    const membership = await this.membershipOfUser(organizationId, userId);
    return membership === 'guest' ? null : membership;
  }

  /** Another user's membership (cached; every change of it evicts it in every process). */
  async membershipOfUser(organizationId: string, userId: string): Promise<Membership> {
    const key = `${organizationId} ${userId}`;
    const now = this.clock.now().getTime();
    const cached = this.roles.get(key, now);
    if (cached) return cached.membership;
    const membership = await this.memberships.membershipOf(organizationId, userId);
    this.roles.set(key, { membership }, now);
    return membership;
  }

  /** Throws 404 (naming `what`) for non-members and 403 when the role is below `minimum`. */
  async require(organizationId: string, who: Actor, minimum: Role, what = 'Organization'): Promise<Role> {
    const role = await this.roleOf(organizationId, who);
    if (role === null) throw new NotFoundError(what, organizationId);
    if (!roleAtLeast(role, minimum)) throw new ForbiddenError(`This needs the "${minimum}" role in the organization`);
    return role;
  }

  /** The caller's organization role; a non-member gets a 404 naming the resource they asked for. */
  async memberRole(organizationId: string, actor: Actor, what: string, id: string): Promise<Role> {
    const role = await this.roleOf(organizationId, actor);
    if (role === null) throw new NotFoundError(what, id);
    return role;
  }

  /** Another user's organization role (not the caller's); 404 naming the resource when not a member. */
  async userRole(organizationId: string, userId: string, what: string, id: string): Promise<Role> {
    const role = await this.roleOfUser(organizationId, userId);
    if (role === null) throw new NotFoundError(what, id);
    return role;
  }

  /** The caller's membership for a content decision (guests included); a non-member gets a 404 naming `what`. */
  async contentMember(organizationId: string, actor: Actor, what: string, id: string): Promise<Role | 'guest'> {
    const membership = await this.membershipOf(organizationId, actor);
    if (membership === null) throw new NotFoundError(what, id);
    return membership;
  }

  /** Another user's membership (guests included), 404 naming the resource when not a member. */
  async userMember(organizationId: string, userId: string, what: string, id: string): Promise<Role | 'guest'> {
    const membership = await this.membershipOfUser(organizationId, userId);
    if (membership === null) throw new NotFoundError(what, id);
    return membership;
  }

  /** The teams of the organization the user belongs to. */
  teamIdsOf(organizationId: string, userId: string): Promise<string[]> {
    return this.memberships.teamIdsOf(organizationId, userId);
  }

  /** Every active member with their organization role, and the members of these teams (aggregate access lists). */
  async accessFacts(
    organizationId: string,
    teamIds: string[],
  ): Promise<{ members: { userId: string; role: Role | 'guest' }[]; teamMembers: { teamId: string; userId: string }[] }> {
    const [members, teamMembers] = await Promise.all([
      this.memberships.activeRoles(organizationId),
      this.memberships.membersOfTeams(organizationId, teamIds),
    ]);
    return { members, teamMembers };
  }

  /** The roles granted to the user on the organization's content, directly or through their teams (cached). */
  async grantsOf(organizationId: string, userId: string): Promise<ReadonlyMap<string, Role>> {
    const key = `${organizationId} ${this.generations.get(organizationId) ?? 0} ${userId}`;
    const now = this.clock.now().getTime();
    const cached = this.grants.get(key, now);
    if (cached) return cached;
    const teams = await this.memberships.teamIdsOf(organizationId, userId);
    const grants = await this.permissions.grantsOf(organizationId, userId, teams);
    this.grants.set(key, grants, now);
    return grants;
  }

  /** A member's effective role on content given its chain (the item, then its parent collections); null: none. */
  async roleOn(organizationId: string, userId: string, member: Membership, chain: ContentChain): Promise<Role | null> {
    return effectiveRole(member, chain, await this.grantsOf(organizationId, userId));
  }

  /**
   * The caller's role on an item shared on its own (a site): the organization role widened by the roles
   * granted on it to the caller or their teams (a guest: the granted role only); 404 naming `what` when none.
   */
  async roleOnItem(organizationId: string, actor: Actor, itemId: string, what: string): Promise<Role> {
    const member = await this.contentMember(organizationId, actor, what, itemId);
    const role = await this.roleOn(organizationId, actor.userId, member, [{ id: itemId, level: 'inherit' }]);
    if (role === null) throw new NotFoundError(what, itemId);
    return role;
  }

  /**
   * The caller's roles on items shared on their own, for their lists: null when not a member; else each
   * item's role, or null when the caller has none there (a guest without a grant on it).
   */
  async rolesOnItems(organizationId: string, actor: Actor): Promise<((itemId: string) => Role | null) | null> {
    const member = await this.membershipOf(organizationId, actor);
    if (member === null) return null;
    const grants = await this.grantsOf(organizationId, actor.userId);
    return (itemId) => effectiveRole(member, [{ id: itemId, level: 'inherit' }], grants);
  }

  /**
   * How a list of items shared on their own (sites) narrows for the caller: not at all for a member (every
   * member reads every site), to the items granted to them or their teams for a guest; 404 for non-members.
   */
  async itemNarrowing(organizationId: string, actor: Actor): Promise<Narrowing> {
    const member = await this.contentMember(organizationId, actor, 'Organization', organizationId);
    return member === 'guest' ? { only: [...(await this.grantsOf(organizationId, actor.userId)).keys()] } : null;
  }

  /**
   * How many live spaces each team was granted a role on, directly or through a collection (a team's
   * `spaces`), among those the caller may read: a count never reveals a space closed to them.
   */
  async teamSpaceCounts(organizationId: string, teamIds: string[], actor: Actor): Promise<Map<string, number>> {
    const narrowing = this.readableSpaces ? await this.readableSpaces.readable(organizationId, actor) : null;
    return this.permissions.teamSpaceCounts(organizationId, teamIds, narrowing);
  }

  /**
   * How many live spaces (directly or through a collection) and sites each member was granted a role on
   * themselves (a member's `spaces` and `sites`), the spaces among those the caller may read.
   */
  async memberContentCounts(
    organizationId: string,
    userIds: string[],
    actor: Actor,
  ): Promise<Map<string, { spaces: number; sites: number }>> {
    const narrowing = this.readableSpaces ? await this.readableSpaces.readable(organizationId, actor) : null;
    return this.permissions.memberContentCounts(organizationId, userIds, narrowing);
  }

  /** The content context answers which spaces a caller may read (it holds the tree); it registers here when it starts. */
  provideReadableSpaces(readable: ReadableSpaces): void {
    this.readableSpaces = readable;
  }

  /** Content permissions or team memberships of the organization changed: every process drops cached grants. */
  grantsChanged(organizationId: string): Promise<void> {
    return this.changes.publish({ kind: 'grants', organizationId });
  }

  /** A membership changed (role, removal, disabling): every process drops the cached role. */
  forget(organizationId: string, userId: string): Promise<void> {
    return this.changes.publish({ kind: 'role', organizationId, userId });
  }
}
