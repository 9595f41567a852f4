import { Injectable } from '@nestjs/common';
import { Actor, ForbiddenError, Narrowing, NotFoundError, Role, roleAtLeast } from '@app/shared-kernel';
import { Collection, CollectionRepository, CollectionTree } from '../domain/collection';
import { Access, ContentChain, effectiveRole, Membership } from '@app/access';
import { SpaceRepository, type Space } from '../domain/space';

/**
 * How the organization-wide lists narrow for one caller (`ContentAccess.narrowing`): their membership and
 * grants (to give each listed item its role) and which spaces and collections they may see.
 */
export interface ContentNarrowing {
  member: Role | 'guest';
  grants: ReadonlyMap<string, Role>;
  tree: CollectionTree;
  spaces: Narrowing;
  collections: Narrowing;
}

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
    private readonly spaces: SpaceRepository,
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

  /** Another user's membership (guests included); 404 naming the resource when not a member. */
  userMember(organizationId: string, userId: string, what: string, id: string): Promise<Role | 'guest'> {
    return this.access.userMember(organizationId, userId, what, id);
  }

  /** The roles granted to the user on the organization's content, directly or through their teams (cached). */
  grantsOf(organizationId: string, userId: string): Promise<ReadonlyMap<string, Role>> {
    return this.access.grantsOf(organizationId, userId);
  }

  /** A member's effective role on content given its chain; null: no access. */
  roleOn(organizationId: string, userId: string, member: Membership, chain: ContentChain): Promise<Role | null> {
    return this.access.roleOn(organizationId, userId, member, chain);
  }

  /** Tells every process that grants of the organization changed (after a grant, a change or a revocation). */
  grantsChanged(organizationId: string): Promise<void> {
    return this.access.grantsChanged(organizationId);
  }

  /** The caller's membership for content (guests included); 404 naming `what` for non-members. */
  member(organizationId: string, actor: Actor, what: string, id: string): Promise<Role | 'guest'> {
    return this.access.contentMember(organizationId, actor, what, id);
  }

  /** The caller's role on a space; 404 when they have none (not a member, a guest without a grant, restricted). */
  async spaceRole(space: Space, actor: Actor, tree?: CollectionTree): Promise<Role> {
    // A site's visitor reads the spaces the site shows them, and no other.
    if (actor.reader) {
      if (!actor.reader.spaces.has(space.id)) throw new NotFoundError('Space', space.id);
      return 'read';
    }
    const member = await this.member(space.organizationId, actor, 'Space', space.id);
    const t = space.parentId === null ? null : (tree ?? (await this.collections.tree(space.organizationId)));
    const role = await this.roleOn(space.organizationId, actor.userId, member, spaceChain(space, t));
    if (role === null) throw new NotFoundError('Space', space.id);
    return role;
  }

  async collectionRole(collection: Collection, actor: Actor, tree?: CollectionTree): Promise<Role> {
    const member = await this.member(collection.organizationId, actor, 'Collection', collection.id);
    const t = tree ?? (await this.collections.tree(collection.organizationId));
    const role = await this.roleOn(collection.organizationId, actor.userId, member, collectionChain(collection, t));
    if (role === null) throw new NotFoundError('Collection', collection.id);
    return role;
  }

  /**
   * What the caller's organization-wide lists show (404 for non-members). Nothing narrows them for an
   * organization admin, or for a member of an organization where nothing is restricted: that costs no query
   * beyond the collection tree every list reads anyway. Otherwise the restricted items without a grant are
   * left out (a member), or everything but the granted items and what lies below them (a guest).
   */
  async narrowing(organizationId: string, actor: Actor, what = 'Organization', id = organizationId): Promise<ContentNarrowing> {
    const context = await this.context(organizationId, actor, what, id);
    return { ...context, ...(await this.narrowingOf(organizationId, context.member, context.grants, context.tree)) };
  }

  /** The caller's membership (404 for non-members), grants and the organization's collection tree: each item's role. */
  async context(
    organizationId: string,
    actor: Actor,
    what = 'Organization',
    id = organizationId,
  ): Promise<{ member: Role | 'guest'; grants: ReadonlyMap<string, Role>; tree: CollectionTree }> {
    const member = await this.member(organizationId, actor, what, id);
    const [tree, grants] = await Promise.all([this.collections.tree(organizationId), this.grantsOf(organizationId, actor.userId)]);
    return { member, grants, tree };
  }

  /** Which spaces and collections a user with this membership and these grants may see (the one effective-role function decides). */
  async narrowingOf(
    organizationId: string,
    member: Role | 'guest',
    grants: ReadonlyMap<string, Role>,
    tree: CollectionTree,
  ): Promise<{ spaces: Narrowing; collections: Narrowing }> {
    if (member === 'admin' || (member !== 'guest' && !tree.restricts)) return { spaces: null, collections: null };
    const closed = new Set(tree.ids().filter((c) => effectiveRole(member, tree.chainFrom(c), grants) === null));
    if (member === 'guest') {
      const reachable = tree.ids().filter((c) => !closed.has(c));
      const below = await this.spaces.idsIn(organizationId, reachable, false);
      return { spaces: { only: [...new Set([...grants.keys(), ...below])] }, collections: { only: reachable } };
    }
    // A member: restricted spaces without a grant, and spaces that inherit from a closed collection without one.
    const inheriting = await this.spaces.idsIn(organizationId, [...closed], true);
    const hidden = [
      ...tree.restrictedSpaces
        .filter((sp) => effectiveRole(member, [{ id: sp.id, level: null }, ...tree.chainFrom(sp.parentId)], grants) === null)
        .map((sp) => sp.id),
      ...inheriting.filter((sp) => !grants.has(sp)),
    ];
    return { spaces: { except: hidden }, collections: { except: [...closed] } };
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
    const member = await this.member(organizationId, actor, what, id);
    const role = await this.roleOn(organizationId, actor.userId, member, tree.chainFrom(parentId));
    // A guest creates only inside a collection granted to them: the organization's top level is not theirs.
    if (role === null) throw new NotFoundError(parentId === null ? what : 'Collection', parentId ?? id);
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
