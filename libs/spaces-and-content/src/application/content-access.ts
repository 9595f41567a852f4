import { Injectable } from '@nestjs/common';
import { AccessCacheSettings, AccessChanges, OrganizationAccess } from '@app/organizations-and-teams';
import { Actor, Clock, ForbiddenError, NotFoundError, Role, roleAtLeast, TtlCache } from '@app/shared-kernel';
import { Collection, CollectionRepository, CollectionTree } from '../domain/collection';
import { ContentChain, ContentPermissionRepository, effectiveRole } from '@app/access';
import type { Space } from '../domain/space';

/**
 * Resolves the caller's role on spaces and collections: the one effective-role function (organization
 * role, default levels, and the roles granted to the member or their teams on the item or a parent
 * collection). A member's grants are cached per process, evicted in every process by each change of a
 * grant or a team membership (AccessChanges), so a request does not query them.
 */
@Injectable()
export class ContentAccess {
  /** `${organizationId} ${generation} ${userId}` → content id → strongest granted role. */
  private readonly grants: TtlCache<string, ReadonlyMap<string, Role>>;
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly organizations: OrganizationAccess,
    private readonly collections: CollectionRepository,
    private readonly permissions: ContentPermissionRepository,
    private readonly clock: Clock,
    settings: AccessCacheSettings,
    changes: AccessChanges,
  ) {
    this.grants = new TtlCache(settings.roleTtlMs, settings.maxEntries);
    changes.subscribe((c) => {
      if (c.kind === 'grants') this.generations.set(c.organizationId, (this.generations.get(c.organizationId) ?? 0) + 1);
      else if (c.kind === 'reset') this.grants.clear();
    });
  }

  /** The caller's organization role; a non-member gets a 404 naming the resource they asked for. */
  async memberRole(organizationId: string, actor: Actor, what: string, id: string): Promise<Role> {
    const role = await this.organizations.roleOf(organizationId, actor);
    if (role === null) throw new NotFoundError(what, id);
    return role;
  }

  /** Another user's organization role (not the caller's); 404 naming the resource when not a member. */
  async userRole(organizationId: string, userId: string, what: string, id: string): Promise<Role> {
    const role = await this.organizations.roleOfUser(organizationId, userId);
    if (role === null) throw new NotFoundError(what, id);
    return role;
  }

  /** The caller's role in another organization (transfers): 404 when not a member, 403 below `minimum`. */
  requireInOrganization(organizationId: string, actor: Actor, minimum: Role): Promise<Role> {
    return this.organizations.require(organizationId, actor, minimum);
  }

  /** The roles granted to the user on the organization's content, directly or through their teams (cached). */
  async grantsOf(organizationId: string, userId: string): Promise<ReadonlyMap<string, Role>> {
    const key = `${organizationId} ${this.generations.get(organizationId) ?? 0} ${userId}`;
    const now = this.clock.now().getTime();
    const cached = this.grants.get(key, now);
    if (cached) return cached;
    const teams = await this.organizations.teamIdsOf(organizationId, userId);
    const grants = await this.permissions.grantsOf(organizationId, userId, teams);
    this.grants.set(key, grants, now);
    return grants;
  }

  /** Tells every process that grants of the organization changed (after a grant, a change or a revocation). */
  grantsChanged(organizationId: string): Promise<void> {
    return this.organizations.grantsChanged(organizationId);
  }

  /** A member's effective role on content given its chain (the item, then its parent collections). */
  async roleOn(organizationId: string, userId: string, member: Role, chain: ContentChain): Promise<Role> {
    return effectiveRole(member, chain, await this.grantsOf(organizationId, userId))!;
  }

  /**
   * The caller's role on an item shared on its own (a site): the organization role widened by the roles
   * granted on it to the caller or their teams; 404 naming `what` for non-members.
   */
  async roleOnItem(organizationId: string, actor: Actor, itemId: string, what: string): Promise<Role> {
    const member = await this.memberRole(organizationId, actor, what, itemId);
    return this.roleOn(organizationId, actor.userId, member, [{ id: itemId, level: 'inherit' }]);
  }

  /** The caller's organization role (null: not a member) and grants, for lists of items shared on their own. */
  async rolesOnItems(organizationId: string, actor: Actor): Promise<((itemId: string) => Role) | null> {
    const member = await this.organizations.roleOf(organizationId, actor);
    if (member === null) return null;
    const grants = await this.grantsOf(organizationId, actor.userId);
    return (itemId) => effectiveRole(member, [{ id: itemId, level: 'inherit' }], grants)!;
  }

  async spaceRole(space: Space, actor: Actor, tree?: CollectionTree): Promise<Role> {
    const member = await this.memberRole(space.organizationId, actor, 'Space', space.id);
    const t = space.parentId === null ? null : (tree ?? (await this.collections.tree(space.organizationId)));
    return this.roleOn(space.organizationId, actor.userId, member, spaceChain(space, t));
  }

  async collectionRole(collection: Collection, actor: Actor, tree?: CollectionTree): Promise<Role> {
    const member = await this.memberRole(collection.organizationId, actor, 'Collection', collection.id);
    const t = tree ?? (await this.collections.tree(collection.organizationId));
    return this.roleOn(collection.organizationId, actor.userId, member, collectionChain(collection, t));
  }

  /**
   * The role for creating content under `parentId` (a collection of the organization, or the top level).
   * An unknown parent is invalid input (400), as the official document says for positions.
   */
  async requireCreateIn(
    organizationId: string,
    parentId: string | null,
    actor: Actor,
    tree: CollectionTree,
    what: string,
    id: string,
  ): Promise<void> {
    const member = await this.memberRole(organizationId, actor, what, id);
    const role = await this.roleOn(organizationId, actor.userId, member, tree.chainFrom(parentId));
    if (!roleAtLeast(role, 'create')) {
      throw new ForbiddenError(
        parentId === null
          ? 'Creating content needs the "create" role'
          : `Creating content in collection "${parentId}" needs the "create" role`,
      );
    }
  }
}

/** A space and its parent collections, with their default levels. */
export function spaceChain(space: Space, tree: CollectionTree | null): ContentChain {
  return [{ id: space.id, level: space.defaultLevel }, ...(tree ? tree.chainFrom(space.parentId) : [])];
}

export function collectionChain(collection: Collection, tree: CollectionTree): ContentChain {
  return [{ id: collection.id, level: collection.defaultLevel }, ...tree.chainFrom(collection.parentId)];
}

export function requireRole(role: Role, minimum: Role, action: string): void {
  if (!roleAtLeast(role, minimum)) throw new ForbiddenError(`${action} needs the "${minimum}" role`);
}
