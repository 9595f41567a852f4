import { Injectable } from '@nestjs/common';
import { OrganizationAccess } from '@app/organizations-and-teams';
import { Actor, ForbiddenError, NotFoundError, Role, roleAtLeast } from '@app/shared-kernel';
import { contentRole } from '../domain/access';
import { Collection, CollectionRepository, CollectionTree } from '../domain/collection';
import type { Space } from '../domain/space';

/** Resolves the caller's role on spaces and collections (organization role widened by default levels). */
@Injectable()
export class ContentAccess {
  constructor(
    private readonly organizations: OrganizationAccess,
    private readonly collections: CollectionRepository,
  ) {}

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

  async spaceRole(space: Space, actor: Actor, tree?: CollectionTree): Promise<Role> {
    const member = await this.memberRole(space.organizationId, actor, 'Space', space.id);
    if (space.parentId === null) return contentRole(member, [space.defaultLevel])!;
    const t = tree ?? (await this.collections.tree(space.organizationId));
    return contentRole(member, [space.defaultLevel, ...t.levelsFrom(space.parentId)])!;
  }

  async collectionRole(collection: Collection, actor: Actor, tree?: CollectionTree): Promise<Role> {
    const member = await this.memberRole(collection.organizationId, actor, 'Collection', collection.id);
    const t = tree ?? (await this.collections.tree(collection.organizationId));
    return contentRole(member, [collection.defaultLevel, ...t.levelsFrom(collection.parentId)])!;
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
    const role = contentRole(member, parentId === null ? [] : tree.levelsFrom(parentId));
    if (!roleAtLeast(role, 'create')) {
      throw new ForbiddenError(
        parentId === null
          ? 'Creating content needs the "create" role'
          : `Creating content in collection "${parentId}" needs the "create" role`,
      );
    }
  }
}

export function requireRole(role: Role, minimum: Role, action: string): void {
  if (!roleAtLeast(role, minimum)) throw new ForbiddenError(`${action} needs the "${minimum}" role`);
}
