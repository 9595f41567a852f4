import { Injectable } from '@nestjs/common';
import { Actor, ForbiddenError, Role, roleAtLeast } from '@app/shared-kernel';
import { Collection, CollectionRepository, CollectionTree } from '../domain/collection';
import { Access, ContentChain } from '@app/access';
import type { Space } from '../domain/space';

/**
 * The caller's role on spaces and collections: builds the item's chain (the item, then its parent
 * collections, with their default levels) and asks Access, which holds the one effective-role function
 * and the cached grants.
 */
@Injectable()
export class ContentAccess {
  constructor(
    private readonly access: Access,
    private readonly collections: CollectionRepository,
  ) {}

  /** The caller's organization role; a non-member gets a 404 naming the resource they asked for. */
  memberRole(organizationId: string, actor: Actor, what: string, id: string): Promise<Role> {
    return this.access.memberRole(organizationId, actor, what, id);
  }

  /** The caller's role in another organization (transfers): 404 when not a member, 403 below `minimum`. */
  requireInOrganization(organizationId: string, actor: Actor, minimum: Role): Promise<Role> {
    return this.access.require(organizationId, actor, minimum);
  }

  /** Another user's organization role (not the caller's); 404 naming the resource when not a member. */
  userRole(organizationId: string, userId: string, what: string, id: string): Promise<Role> {
    return this.access.userRole(organizationId, userId, what, id);
  }

  /** The roles granted to the user on the organization's content, directly or through their teams (cached). */
  grantsOf(organizationId: string, userId: string): Promise<ReadonlyMap<string, Role>> {
    return this.access.grantsOf(organizationId, userId);
  }

  /** A member's effective role on content given its chain. */
  roleOn(organizationId: string, userId: string, member: Role, chain: ContentChain): Promise<Role> {
    return this.access.roleOn(organizationId, userId, member, chain);
  }

  /** Tells every process that grants of the organization changed (after a grant, a change or a revocation). */
  grantsChanged(organizationId: string): Promise<void> {
    return this.access.grantsChanged(organizationId);
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
