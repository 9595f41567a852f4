import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ConflictError,
  IdGenerator,
  InvalidInputError,
  Narrowing,
  NotFoundError,
  Page,
  PageRequest,
  Role,
  UnitOfWork,
  untilWritten,
  EditMode,
  Language,
} from '@app/shared-kernel';
import { CollectionRepository, CollectionTree } from '../domain/collection';
import { ContentPosition, placeAmong, positionAfter, positionAtEnd } from '../domain/position';
import {
  applySpacePatch,
  checkSpaceTitle,
  duplicateTitle,
  isGone,
  isRestorable,
  purgeCutoff,
  Space,
  SpacePatch,
  SpaceRepository,
  titleWithSuffix,
  ZERO_COUNTERS,
} from '../domain/space';
import { ContentAccess, requireRole, spaceChain } from './content-access';
import { ContentPermissionRepository, effectiveRole, Membership } from '@app/access';
import { ContentService } from './content.service';
import { SpaceEvents } from './space-events';
import { TemplateParams, templateChanges } from '../domain/content/templates';

export interface SpaceView {
  space: Space;
  role: Role;
}

export interface CreateSpaceInput {
  template?: { id: string; params?: TemplateParams };
  title?: string;
  emoji?: string;
  parent?: string;
  language?: Language;
  editMode?: EditMode;
}

export interface MoveInput {
  /** undefined: stay in the current parent; null: top level. */
  parent?: string | null;
  position?: ContentPosition;
}

@Injectable()
export class SpacesService {
  constructor(
    private readonly spaces: SpaceRepository,
    private readonly collections: CollectionRepository,
    private readonly access: ContentAccess,
    private readonly content: ContentService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly uow: UnitOfWork,
    private readonly permissions: ContentPermissionRepository,
    private readonly events: SpaceEvents,
  ) {}

  /** The organization a space belongs to (a deleted one too), without an access check: for the audit log. */
  async organizationOf(spaceId: string): Promise<string | null> {
    return (await this.spaces.findById(spaceId))?.organizationId ?? null;
  }

  /** A space by id, live or deleted, without an access check: for background jobs (a translation run). */
  find(spaceId: string): Promise<Space | null> {
    return this.spaces.findById(spaceId);
  }

  /** A space the caller can see: live, or deleted and still restorable (it then carries deletedAt). */
  async get(actor: Actor, spaceId: string): Promise<SpaceView> {
    const space = await this.spaces.findById(spaceId);
    if (!space || isGone(space, this.clock.now())) throw new NotFoundError('Space', spaceId);
    return { space, role: await this.access.spaceRole(space, actor) };
  }

  /** A live space the caller can see (a deleted one is a 404): what every read and write of its content starts from. */
  async getLive(actor: Actor, spaceId: string): Promise<SpaceView & { tree?: CollectionTree }> {
    const space = await this.spaces.findById(spaceId);
    if (!space || space.deletedAt) throw new NotFoundError('Space', spaceId);
    const tree = space.parentId ? await this.collections.tree(space.organizationId) : undefined;
    return { space, tree, role: await this.access.spaceRole(space, actor, tree) };
  }

  /** These live spaces of the organization with the caller's role on each (those gone or closed to the caller are left out). */
  async viewsOf(actor: Actor, organizationId: string, ids: string[]): Promise<Map<string, SpaceView>> {
    const [{ member, grants, tree }, spaces] = await Promise.all([
      this.access.context(organizationId, actor),
      this.spaces.findLive(organizationId, [...new Set(ids)]),
    ]);
    return new Map(withRoles(spaces, member, grants, tree).map((v) => [v.space.id, v]));
  }

  /**
   * These live spaces of the organization, without an access check: what a published site shows its
   * visitors (the site decides who may open it, not the spaces' own permissions).
   */
  liveIn(organizationId: string, ids: string[]): Promise<Space[]> {
    return this.spaces.findLive(organizationId, [...new Set(ids)]);
  }

  /** The caller's role on each of these spaces of the organization (null: closed to them); 404 for non-members. */
  async rolesOn(actor: Actor, organizationId: string, spaces: readonly Space[]): Promise<Map<string, Role | null>> {
    const { member, grants, tree } = await this.access.context(organizationId, actor);
    return new Map(spaces.map((space) => [space.id, roleIn(member, grants, space, tree)]));
  }

  /**
   * Which spaces of the organization the caller may read, for another context's organization-wide list
   * (change requests): null when nothing narrows it; 404 for non-members.
   */
  async readable(actor: Actor, organizationId: string): Promise<Narrowing> {
    return (await this.access.narrowing(organizationId, actor)).spaces;
  }

  /** The spaces of the organization the caller may read (guests: those granted; members: all but restricted ones). */
  async listInOrganization(actor: Actor, organizationId: string, page: PageRequest): Promise<Page<SpaceView>> {
    const { member, grants, tree, spaces } = await this.access.narrowing(organizationId, actor);
    const result = await this.spaces.listByOrganization(organizationId, page, [spaces]);
    return { ...result, items: withRoles(result.items, member, grants, tree) };
  }

  /**
   * GET /orgs/{id}/members/{userId}/spaces: the spaces a member (or guest) can access, with their role on
   * each (listSpacesForOrganizationMember), among those the caller may read: the list never shows the
   * caller a space closed to them.
   */
  async listForMember(
    actor: Actor,
    organizationId: string,
    userId: string,
    order: 'asc' | 'desc',
    page: PageRequest,
  ): Promise<Page<SpaceView & { permission: Role }>> {
    await this.access.memberRole(organizationId, actor, 'Organization', organizationId);
    const caller = await this.access.narrowing(organizationId, actor);
    const target = await this.access.userMember(organizationId, userId, 'Member', userId);
    const targetGrants = await this.access.grantsOf(organizationId, userId);
    const targetNarrowing = await this.access.narrowingOf(organizationId, target, targetGrants, caller.tree);
    const narrowing = [caller.spaces, targetNarrowing.spaces];
    const result = await (order === 'asc'
      ? this.spaces.listByOrganization(organizationId, page, narrowing)
      : this.spaces.listByOrganizationDesc(organizationId, page, narrowing));
    return {
      ...result,
      items: withRoles(result.items, caller.member, caller.grants, caller.tree).flatMap((v) => {
        const permission = roleIn(target, targetGrants, v.space, caller.tree);
        return permission ? [{ ...v, permission }] : [];
      }),
    };
  }

  async listInCollection(actor: Actor, collectionId: string, page: PageRequest): Promise<Page<SpaceView>> {
    const collection = await this.collections.findById(collectionId);
    if (!collection) throw new NotFoundError('Collection', collectionId);
    const { member, grants, tree, spaces } = await this.access.narrowing(collection.organizationId, actor, 'Collection', collectionId);
    await this.access.collectionRole(collection, actor, tree);
    const result = await this.spaces.listByParent(collection.organizationId, collectionId, page, [spaces]);
    return { ...result, items: withRoles(result.items, member, grants, tree) };
  }

  async create(actor: Actor, organizationId: string, input: CreateSpaceInput): Promise<SpaceView> {
    await this.access.member(organizationId, actor, 'Organization', organizationId);
    const parentId = input.parent ?? null;
    const tree = await this.collections.tree(organizationId);
    if (parentId !== null && !tree.has(parentId))
      throw new InvalidInputError(`parent: collection "${parentId}" not found in this organization`);
    await this.access.requireCreateIn(organizationId, parentId, actor, tree, 'Organization', organizationId);
    const now = this.clock.now();
    const space: Space = {
      id: this.ids.next(),
      organizationId,
      title: checkSpaceTitle(input.title ?? 'Untitled'),
      emoji: input.emoji ?? '',
      visibility: 'private',
      // A template is written before the space may be locked.
      editMode: input.template ? 'live' : (input.editMode ?? 'live'),
      mergeRules: { type: 'inherit' },
      language: input.language ?? null,
      parentId,
      defaultLevel: 'inherit',
      position: positionAtEnd(await this.spaces.siblings(organizationId, parentId)),
      revision: this.ids.next(),
      counters: ZERO_COUNTERS,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    const changes = input.template ? templateChanges(input.template.id, input.template.params) : null;
    // The space, its first revision and its template content are one unit of work.
    await this.uow.run(async () => {
      await this.spaces.insert(space);
      this.events.publish('space.created', organizationId, actor.userId, { spaceId: space.id });
      await this.content.createInitialRevision(space, actor.userId);
      if (changes) {
        const revision = await this.content.commitToSpace(space.id, changes, actor.userId);
        space.revision = revision.id;
        if (input.editMode === 'locked') {
          await this.spaces.update(space, { ...space, editMode: 'locked' });
          space.editMode = 'locked';
        }
      }
    });
    return { space, role: await this.access.spaceRole(space, actor, tree) };
  }

  /**
   * PATCH: writes only the fields it changes, guarded against concurrent writers (re-applied on fresh
   * data when one got there first), so it never undoes a concurrent move, transfer or delete.
   */
  async update(actor: Actor, spaceId: string, patch: SpacePatch): Promise<SpaceView> {
    const { space, next } = await untilWritten(async () => {
      const { space, role } = await this.getLive(actor, spaceId);
      const adminFields = (['editMode', 'defaultLevel', 'mergeRules'] as const).filter((k) => patch[k] !== undefined);
      if (adminFields.length) requireRole(role, 'admin', `Changing ${adminFields.join(', ')}`);
      else requireRole(role, 'edit', 'Updating a space');
      const next = applySpacePatch(space, patch, this.clock.now());
      return (await this.writeAndTell(actor, space, next)) ? { space, next } : undefined;
    }, 'The space');
    if (patch.language !== undefined && patch.language !== space.language) await this.content.reindex(space.id);
    return { space: next, role: await this.access.spaceRole(next, actor) };
  }

  /** A guarded write of the space's own fields, told to the other contexts in the same unit of work. */
  private writeAndTell(actor: Actor, space: Space, next: Space): Promise<boolean> {
    return this.uow.run(async () => {
      if (!(await this.spaces.update(space, next))) return false;
      this.events.publish('space.updated', space.organizationId, actor.userId, { spaceId: space.id });
      return true;
    });
  }

  /** Soft delete. Answers 'absent' for a space that does not exist (or is already deleted) for the caller. */
  async delete(actor: Actor, spaceId: string): Promise<'deleted' | 'absent'> {
    return untilWritten(() => this.tryDelete(actor, spaceId), 'The space');
  }

  private async tryDelete(actor: Actor, spaceId: string): Promise<'deleted' | 'absent' | undefined> {
    const space = await this.spaces.findById(spaceId);
    if (!space || space.deletedAt) return 'absent';
    let role: Role;
    try {
      role = await this.access.spaceRole(space, actor);
    } catch (e) {
      if (e instanceof NotFoundError) return 'absent';
      throw e;
    }
    requireRole(role, 'admin', 'Deleting a space');
    const now = this.clock.now();
    return this.uow.run(async () => {
      if (!(await this.spaces.update(space, { ...space, deletedAt: now, updatedAt: now }))) return undefined;
      this.events.publish('space.deleted', space.organizationId, actor.userId, { spaceId: space.id });
      return 'deleted' as const;
    });
  }

  restore(actor: Actor, spaceId: string): Promise<SpaceView> {
    return untilWritten(() => this.tryRestore(actor, spaceId), 'The space');
  }

  private async tryRestore(actor: Actor, spaceId: string): Promise<SpaceView | undefined> {
    const now = this.clock.now();
    const space = await this.spaces.findById(spaceId);
    if (!space || isGone(space, now)) throw new NotFoundError('Space', spaceId);
    const role = await this.access.spaceRole(space, actor);
    requireRole(role, 'admin', 'Restoring a space');
    if (!isRestorable(space, now)) throw new ConflictError('The space is not deleted');
    const tree = await this.collections.tree(space.organizationId);
    const parentId = space.parentId !== null && tree.has(space.parentId) ? space.parentId : null;
    const restored: Space = {
      ...space,
      deletedAt: null,
      updatedAt: now,
      parentId,
      position: positionAtEnd(await this.spaces.siblings(space.organizationId, parentId)),
    };
    const written = await this.uow.run(async () => {
      if (!(await this.spaces.update(space, restored))) return false;
      this.events.publish('space.restored', space.organizationId, actor.userId, { spaceId: space.id });
      return true;
    });
    if (!written) return undefined;
    return { space: restored, role: await this.access.spaceRole(restored, actor, tree) };
  }

  async duplicate(actor: Actor, spaceId: string): Promise<SpaceView> {
    const { space } = await this.getLive(actor, spaceId);
    const tree = await this.collections.tree(space.organizationId);
    await this.access.requireCreateIn(space.organizationId, space.parentId, actor, tree, 'Space', spaceId);
    const copy = await this.copyBeside(space, { title: duplicateTitle(space.title) });
    await this.uow.run(async () => {
      await this.spaces.insert(copy);
      await this.copyGrants(space, copy);
      this.events.publish('space.created', copy.organizationId, actor.userId, { spaceId: copy.id, duplicateOf: space.id });
      await this.content.copyContent(space, copy, actor.userId);
    });
    await this.access.grantsChanged(space.organizationId);
    return { space: copy, role: await this.access.spaceRole(copy, actor, tree) };
  }

  /**
   * The target space of a translation's first run: beside its source, in the target language, empty
   * (the run writes its content). Written inside the caller's unit of work; no caller role (a job).
   */
  async createTranslationTarget(source: Space, language: Language, createdBy: string): Promise<Space> {
    const space = await this.copyBeside(source, {
      title: titleWithSuffix(source.title, ` (${language})`),
      visibility: 'private',
      editMode: 'live',
      language,
      // The same content in another language, for the same readers: a restricted source's stays restricted.
      defaultLevel: source.defaultLevel === null ? null : 'inherit',
    });
    await this.uow.run(async () => {
      await this.spaces.insert(space);
      await this.copyGrants(source, space);
      await this.content.createInitialRevision(space, createdBy);
    });
    await this.access.grantsChanged(source.organizationId);
    return space;
  }

  /**
   * A space's copy (a duplicate, a translation) is shared with whom the space is: a restricted space's
   * copy stays readable to exactly them, and closed to the rest, as its source is.
   */
  private async copyGrants(from: Space, to: Space): Promise<void> {
    const grants = await this.permissions.onContent([from.id]);
    const grantedAt = this.clock.now();
    if (grants.length) await this.permissions.grant(grants.map((g) => ({ ...g, content: { kind: 'space', id: to.id }, grantedAt })));
  }

  /**
   * A new space right after `source` among its siblings, with its fields but `changes`: a new id, a new
   * (not yet written) first revision, zero counters, created now. What a duplicate and a translation's
   * target space start from.
   */
  private async copyBeside(source: Space, changes: Partial<Space>): Promise<Space> {
    const now = this.clock.now();
    const siblings = await this.spaces.siblings(source.organizationId, source.parentId);
    return {
      ...source,
      ...changes,
      id: this.ids.next(),
      position: positionAfter(siblings, { kind: 'space', id: source.id, position: source.position }),
      revision: this.ids.next(),
      counters: ZERO_COUNTERS,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
  }

  move(actor: Actor, spaceId: string, input: MoveInput): Promise<SpaceView> {
    requireMoveInput(input);
    return untilWritten(() => this.tryMove(actor, spaceId, input), 'The space');
  }

  private async tryMove(actor: Actor, spaceId: string, input: MoveInput): Promise<SpaceView | undefined> {
    const { space, role } = await this.getLive(actor, spaceId);
    requireRole(role, 'admin', 'Moving a space');
    const tree = await this.collections.tree(space.organizationId);
    const placed = await this.placeForMove(actor, { kind: 'space', ...space }, input, tree);
    const moved: Space = { ...space, ...placed, updatedAt: this.clock.now() };
    if (!(await this.writeAndTell(actor, space, moved))) return undefined;
    return { space: moved, role: await this.access.spaceRole(moved, actor, tree) };
  }

  /**
   * Where a space or a collection goes when it moves within its organization: the target parent (given,
   * or its own) must exist, must not be the collection itself or inside it, and must let the caller
   * create there; its position is taken among the new siblings. The one rule for both moves.
   */
  async placeForMove(
    actor: Actor,
    item: { kind: 'space' | 'collection'; id: string; organizationId: string; parentId: string | null; position: string },
    input: MoveInput,
    tree: CollectionTree,
  ): Promise<{ parentId: string | null; position: string }> {
    const parentId = input.parent === undefined ? item.parentId : input.parent;
    if (parentId !== null) {
      if (!tree.has(parentId)) throw new InvalidInputError(`Invalid position: collection "${parentId}" not found`);
      if (item.kind === 'collection' && tree.subtree(item.id).includes(parentId))
        throw new InvalidInputError('Invalid position: a collection cannot be moved into itself or its descendants');
    }
    await this.access.requireCreateIn(item.organizationId, parentId, actor, tree, item.kind === 'space' ? 'Space' : 'Collection', item.id);
    const siblings = await this.spaces.siblings(item.organizationId, parentId);
    const position = placeAmong(
      { kind: item.kind, id: item.id, position: item.position },
      siblings,
      input.position,
      parentId === item.parentId,
    );
    return { parentId, position };
  }

  /**
   * Checks a transfer of a space or a collection to another organization (not its own; the caller
   * administers the target) and answers its place there: the end of the top level.
   */
  async placeForTransfer(
    actor: Actor,
    what: 'space' | 'collection',
    fromOrganizationId: string,
    toOrganizationId: string,
  ): Promise<string> {
    if (toOrganizationId === fromOrganizationId) throw new ConflictError(`The ${what} already belongs to this organization`);
    await this.access.requireInOrganization(toOrganizationId, actor, 'admin');
    return positionAtEnd(await this.spaces.siblings(toOrganizationId, null));
  }

  /** Moves the space and its content to another organization: one unit of work, guarded like a PATCH. */
  transfer(actor: Actor, spaceId: string, organizationId: string): Promise<SpaceView> {
    return untilWritten(() => this.tryTransfer(actor, spaceId, organizationId), 'The space');
  }

  private async tryTransfer(actor: Actor, spaceId: string, organizationId: string): Promise<SpaceView | undefined> {
    const { space, role } = await this.getLive(actor, spaceId);
    requireRole(role, 'admin', 'Transferring a space');
    const position = await this.placeForTransfer(actor, 'space', space.organizationId, organizationId);
    const moved: Space = { ...space, organizationId, parentId: null, position, updatedAt: this.clock.now() };
    const written = await this.uow.run(async () => {
      if (!(await this.spaces.update(space, moved))) return false;
      await this.followTransfer([space.id], space.organizationId, organizationId);
      return true;
    });
    if (!written) return undefined;
    await this.access.grantsChanged(space.organizationId);
    return { space: moved, role: await this.access.spaceRole(moved, actor) };
  }

  /**
   * Inside the caller's unit of work (a collection transfer): moves the live spaces directly in these
   * collections to another organization, with everything that follows a space (see followTransfer).
   * Deleted spaces stay behind at the top level. Returns the ids moved.
   */
  async transferInCollections(fromOrganizationId: string, collectionIds: string[], toOrganizationId: string, at: Date): Promise<string[]> {
    const moved = await this.spaces.transferInCollections(fromOrganizationId, collectionIds, toOrganizationId, at);
    await this.followTransfer(moved, fromOrganizationId, toOrganizationId);
    return moved;
  }

  /**
   * Inside the caller's unit of work (a collection delete): soft-deletes the live spaces directly in
   * these collections, each as `DELETE /spaces/{id}` would (event, change requests leave the lists,
   * sites drop it). Restorable for 7 days, at the top level.
   */
  async deleteInCollections(actor: Actor, organizationId: string, collectionIds: string[], at: Date): Promise<string[]> {
    const deleted = await this.spaces.deleteInCollections(organizationId, collectionIds, at);
    for (const spaceId of deleted) {
      this.events.publish('space.deleted', organizationId, actor.userId, { spaceId });
    }
    return deleted;
  }

  /**
   * What follows spaces into another organization, whichever way they went (their own transfer or
   * their collection's): revisions and search rows, change requests, comments and reviews (review
   * context), site spaces (sites context) — and their grants go, since they named the old
   * organization's people and teams.
   */
  private async followTransfer(spaceIds: string[], fromOrganizationId: string, toOrganizationId: string): Promise<void> {
    if (spaceIds.length === 0) return;
    for (const spaceId of spaceIds) {
      await this.content.moveSpaceContent(spaceId, fromOrganizationId, toOrganizationId);
      this.events.publish('space.transferred', fromOrganizationId, null, { spaceId, fromOrganizationId, toOrganizationId });
    }
    await this.permissions.revokeAll(spaceIds);
  }

  /** POST /spaces/{id}/content/template: appends a built-in template's pages to the main content (edit role). */
  async applyTemplate(actor: Actor, spaceId: string, template: { id: string; params?: TemplateParams }): Promise<void> {
    const { role } = await this.getLive(actor, spaceId);
    requireRole(role, 'edit', 'Applying a template');
    await this.content.commitToSpace(spaceId, templateChanges(template.id, template.params), actor.userId);
  }

  /** Removes spaces deleted 7 days ago or more (the purge job). */
  purgeExpired(): Promise<number> {
    return this.uow.run(async () => {
      const purged = await this.spaces.purgeDeletedBefore(purgeCutoff(this.clock.now()));
      const byOrganization = new Map<string, string[]>();
      for (const p of purged) byOrganization.set(p.organizationId, [...(byOrganization.get(p.organizationId) ?? []), p.id]);
      for (const [organizationId, spaceIds] of byOrganization) this.events.publish('space.purged', organizationId, null, { spaceIds });
      return purged.length;
    });
  }
}

function roleIn(member: Membership, grants: ReadonlyMap<string, Role>, space: Space, tree: CollectionTree): Role | null {
  return effectiveRole(member, spaceChain(space, tree), grants);
}

/** The spaces with the caller's role on each; a space closed to them (none of a narrowed list) is left out. */
function withRoles(spaces: Space[], member: Membership, grants: ReadonlyMap<string, Role>, tree: CollectionTree): SpaceView[] {
  return spaces.flatMap((space) => {
    const role = roleIn(member, grants, space, tree);
    return role ? [{ space, role }] : [];
  });
}

/** The official body has minProperties 1: a move names a parent, a position, or both. */
export function requireMoveInput(input: MoveInput): void {
  if (input.parent === undefined && input.position === undefined) {
    throw new InvalidInputError('A move needs "parent", "position" or both');
  }
}
