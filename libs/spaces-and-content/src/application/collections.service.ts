import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  IdGenerator,
  InvalidInputError,
  NotFoundError,
  Page,
  PageRequest,
  Role,
  UnitOfWork,
  untilWritten,
} from '@app/shared-kernel';
import { applyCollectionPatch, Collection, COLLECTION_TITLE_MAX, CollectionPatch, CollectionRepository } from '../domain/collection';
import { positionAtEnd } from '../domain/position';
import { SpaceRepository } from '../domain/space';
import { ContentPermissionRepository, effectiveRole } from '@app/access';
import { collectionChain, ContentAccess, requireRole } from './content-access';
import { MoveInput, requireMoveInput, SpacesService } from './spaces.service';

export interface CollectionView {
  collection: Collection;
  role: Role;
}

@Injectable()
export class CollectionsService {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly spaces: SpaceRepository,
    private readonly access: ContentAccess,
    private readonly spacesService: SpacesService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly uow: UnitOfWork,
    private readonly permissions: ContentPermissionRepository,
  ) {}

  /** The organization a collection belongs to (a deleted one too), without an access check: for the audit log. */
  async organizationOf(collectionId: string): Promise<string | null> {
    return (await this.collections.findById(collectionId))?.organizationId ?? null;
  }

  async get(actor: Actor, collectionId: string): Promise<CollectionView> {
    const collection = await this.collections.findById(collectionId);
    if (!collection) throw new NotFoundError('Collection', collectionId);
    return { collection, role: await this.access.collectionRole(collection, actor) };
  }

  async list(actor: Actor, organizationId: string, nested: boolean, page: PageRequest): Promise<Page<CollectionView>> {
    const { member, grants, tree, collections } = await this.access.narrowing(organizationId, actor);
    const result = await this.collections.list(organizationId, !nested, page, collections);
    return {
      ...result,
      items: result.items.flatMap((collection) => {
        const role = effectiveRole(member, collectionChain(collection, tree), grants);
        return role ? [{ collection, role }] : [];
      }),
    };
  }

  async create(actor: Actor, organizationId: string, input: { title?: string; parent?: string }): Promise<CollectionView> {
    await this.access.member(organizationId, actor, 'Organization', organizationId);
    const parentId = input.parent ?? null;
    const tree = await this.collections.tree(organizationId);
    if (parentId !== null && !tree.has(parentId))
      throw new InvalidInputError(`parent: collection "${parentId}" not found in this organization`);
    await this.access.requireCreateIn(organizationId, parentId, actor, tree, 'Organization', organizationId);
    const title = input.title ?? 'Untitled';
    if (title.length > COLLECTION_TITLE_MAX) throw new InvalidInputError(`title must be at most ${COLLECTION_TITLE_MAX} characters`);
    const now = this.clock.now();
    const collection: Collection = {
      id: this.ids.next(),
      organizationId,
      title,
      description: null,
      parentId,
      defaultLevel: 'inherit',
      position: positionAtEnd(await this.spaces.siblings(organizationId, parentId)),
      createdAt: now,
      updatedAt: now,
    };
    await this.collections.insert(collection);
    return { collection, role: await this.access.collectionRole(collection, actor) };
  }

  /** PATCH: writes only the fields it changes, guarded against concurrent writers. */
  async update(actor: Actor, collectionId: string, patch: CollectionPatch): Promise<CollectionView> {
    const next = await untilWritten(async () => {
      const { collection, role } = await this.get(actor, collectionId);
      requireRole(role, 'admin', 'Updating a collection');
      const next = applyCollectionPatch(collection, patch, this.clock.now());
      return (await this.collections.update(collection, next)) ? next : undefined;
    }, 'The collection');
    return { collection: next, role: await this.access.collectionRole(next, actor) };
  }

  /** Deletes the collection and the collections inside it; the spaces inside are soft-deleted (restorable for 7 days). */
  async delete(actor: Actor, collectionId: string): Promise<'deleted' | 'absent'> {
    const collection = await this.collections.findById(collectionId);
    if (!collection) return 'absent';
    let role: Role;
    try {
      role = await this.access.collectionRole(collection, actor);
    } catch (e) {
      if (e instanceof NotFoundError) return 'absent';
      throw e;
    }
    requireRole(role, 'admin', 'Deleting a collection');
    const tree = await this.collections.tree(collection.organizationId);
    const subtree = tree.subtree(collectionId);
    const now = this.clock.now();
    // The collections go and the spaces inside are deleted as each space's own delete would, together or not at all.
    await this.uow.run(async () => {
      await this.spacesService.deleteInCollections(actor, collection.organizationId, subtree, now);
      await this.collections.deleteTree(collection.organizationId, subtree);
    });
    return 'deleted';
  }

  move(actor: Actor, collectionId: string, input: MoveInput): Promise<CollectionView> {
    requireMoveInput(input);
    return untilWritten(() => this.tryMove(actor, collectionId, input), 'The collection');
  }

  private async tryMove(actor: Actor, collectionId: string, input: MoveInput): Promise<CollectionView | undefined> {
    const { collection, role } = await this.get(actor, collectionId);
    requireRole(role, 'admin', 'Moving a collection');
    const tree = await this.collections.tree(collection.organizationId);
    const placed = await this.spacesService.placeForMove(actor, { kind: 'collection', ...collection }, input, tree);
    const moved: Collection = { ...collection, ...placed, updatedAt: this.clock.now() };
    if (!(await this.collections.update(collection, moved))) return undefined;
    return { collection: moved, role: await this.access.collectionRole(moved, actor) };
  }

  /** Moves the collection with everything inside it to the top level of another organization the caller administers. */
  async transfer(actor: Actor, collectionId: string, organizationId: string): Promise<CollectionView> {
    const { collection, role } = await this.get(actor, collectionId);
    requireRole(role, 'admin', 'Transferring a collection');
    const position = await this.spacesService.placeForTransfer(actor, 'collection', collection.organizationId, organizationId);
    const tree = await this.collections.tree(collection.organizationId);
    const now = this.clock.now();
    // The collections, their spaces and the spaces' content move together or not at all.
    await this.uow.run(async () => {
      const subtree = tree.subtree(collectionId);
      await this.collections.transferTree(collection.organizationId, subtree, { id: collectionId, position }, organizationId, now);
      // The spaces inside follow as each space's own transfer would (SpacesService, the one writer of space state).
      await this.spacesService.transferInCollections(collection.organizationId, subtree, organizationId, now);
      // The collections' grants named the old organization's people and teams.
      await this.permissions.revokeAll(subtree);
    });
    await this.access.grantsChanged(collection.organizationId);
    const moved: Collection = { ...collection, organizationId, parentId: null, position, updatedAt: now };
    return { collection: moved, role: await this.access.collectionRole(moved, actor) };
  }
}
