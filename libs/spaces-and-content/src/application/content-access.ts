import { Injectable } from '@nestjs/common';
import { OrganizationAccess } from '@app/organizations-and-teams';
import { ForbiddenError, NotFoundError, Role, roleAtLeast } from '@app/shared-kernel';
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
  async memberRole(organizationId: string, userId: string, what: string, id: string): Promise<Role> {
    const role = await this.organizations.roleOf(organizationId, userId);
    if (role === null) throw new NotFoundError(what, id);
    return role;
  }

  /** The caller's role in another organization (transfers): 404 when not a member, 403 below `minimum`. */
  requireInOrganization(organizationId: string, userId: string, minimum: Role): Promise<Role> {
    return this.organizations.require(organizationId, userId, minimum);
  }

  async spaceRole(space: Space, userId: string, tree?: CollectionTree): Promise<Role> {
    const member = await this.memberRole(space.organizationId, userId, 'Space', space.id);
    if (space.parentId === null) return contentRole(member, [space.defaultLevel])!;
    const t = tree ?? (await this.collections.tree(space.organizationId));
    return contentRole(member, [space.defaultLevel, ...t.levelsFrom(space.parentId)])!;
  }

  async collectionRole(collection: Collection, userId: string, tree?: CollectionTree): Promise<Role> {
    const member = await this.memberRole(collection.organizationId, userId, 'Collection', collection.id);
    const t = tree ?? (await this.collections.tree(collection.organizationId));
    return contentRole(member, [collection.defaultLevel, ...t.levelsFrom(collection.parentId)])!;
  }

  /**
   * The role for creating content under `parentId` (a collection of the organization, or the top level).
   * An unknown parent is invalid input (400), as the official document says for positions.
   */
  async requireCreateIn(organizationId: string, parentId: string | null, userId: string, tree: CollectionTree, what: string, id: string): Promise<void> {
    const member = await this.memberRole(organizationId, userId, what, id);
    const role = contentRole(member, parentId === null ? [] : tree.levelsFrom(parentId));
    if (!roleAtLeast(role, 'create')) {
      throw new ForbiddenError(parentId === null ? 'Creating content needs the "create" role' : `Creating content in collection "${parentId}" needs the "create" role`);
    }
  }
}

export function requireRole(role: Role, minimum: Role, action: string): void {
  if (!roleAtLeast(role, minimum)) throw new ForbiddenError(`${action} needs the "${minimum}" role`);
}
