import { DAY_MS, EditMode, InvalidInputError, Language, Narrowing, Page, PageRequest, SpaceVisibility } from '@app/shared-kernel';
import type { DefaultLevel } from '@app/access';

export const SPACE_TITLE_MAX = 50;
export const EMOJI_MAX = 50;
/** Deleted spaces can be restored for this long, then they are removed for good. */
export const SPACE_RETENTION_MS = 7 * DAY_MS;

/** Space merge rules: `inherit` from the organization, or a standalone configuration (official schema). */
export type SpaceMergeRules = { type: 'inherit' } | { type: 'none' } | { type: 'rules'; rules: { rule: string; users?: string[] }[] };

export interface SpaceCounters {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

export interface Space {
  id: string;
  organizationId: string;
  title: string;
  emoji: string;
  visibility: SpaceVisibility;
  editMode: EditMode;
  mergeRules: SpaceMergeRules;
  language: Language | null;
  parentId: string | null;
  defaultLevel: DefaultLevel;
  position: string;
  /** Id of the active revision. */
  revision: string;
  counters: SpaceCounters;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface SpacePatch {
  title?: string;
  emoji?: string | null;
  editMode?: EditMode;
  defaultLevel?: DefaultLevel;
  language?: Language;
  mergeRules?: SpaceMergeRules;
}

export const ZERO_COUNTERS: SpaceCounters = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };

export function checkSpaceTitle(title: string): string {
  if (title.length > SPACE_TITLE_MAX) throw new InvalidInputError(`title must be at most ${SPACE_TITLE_MAX} characters`);
  return title;
}

export function applySpacePatch(space: Space, patch: SpacePatch, now: Date): Space {
  const next: Space = { ...space, updatedAt: now };
  if (patch.title !== undefined) next.title = checkSpaceTitle(patch.title);
  if (patch.emoji !== undefined) next.emoji = patch.emoji ?? '';
  if (patch.editMode !== undefined) next.editMode = patch.editMode;
  if (patch.defaultLevel !== undefined) next.defaultLevel = patch.defaultLevel;
  if (patch.language !== undefined) next.language = patch.language;
  if (patch.mergeRules !== undefined) next.mergeRules = patch.mergeRules;
  return next;
}

/** True while a deleted space can still be restored: strictly less than 7 days after its deletion. */
export function isRestorable(space: Space, now: Date): boolean {
  return space.deletedAt !== null && now.getTime() < space.deletedAt.getTime() + SPACE_RETENTION_MS;
}

/** A space deleted 7 days ago or more is gone: it answers 404 everywhere, even before the purge job runs. */
export function isGone(space: Space, now: Date): boolean {
  return space.deletedAt !== null && !isRestorable(space, now);
}

/** Spaces deleted at or before this instant are purged. */
export function purgeCutoff(now: Date): Date {
  return new Date(now.getTime() - SPACE_RETENTION_MS);
}

/** The title of a duplicate: "<title> (copy)", cut to fit the title limit. */
/** The title with a suffix, cut so that both fit in a space title. */
export function titleWithSuffix(title: string, suffix: string): string {
  return title.slice(0, SPACE_TITLE_MAX - suffix.length) + suffix;
}

export function duplicateTitle(title: string): string {
  return titleWithSuffix(title, ' (copy)');
}

export abstract class SpaceRepository {
  abstract findById(id: string): Promise<Space | null>;
  abstract insert(space: Space): Promise<void>;
  /**
   * Writes the space's own fields that differ between `before` (as read) and `after`, only if the row
   * still holds what was read there and is still in the same organization and deletion state. False
   * when another writer got there first (read again). The revision pointer and counters never move here.
   */
  abstract update(before: Space, after: Space): Promise<boolean>;
  /** Live spaces of an organization with these ids. */
  abstract findLive(organizationId: string, ids: string[]): Promise<Space[]>;
  /** Live spaces of an organization, ordered by (createdAt, id). */
  abstract listByOrganization(organizationId: string, page: PageRequest, narrowing?: Narrowing[]): Promise<Page<Space>>;
  /** Live spaces of an organization, ordered by (createdAt, id) descending. */
  abstract listByOrganizationDesc(organizationId: string, page: PageRequest, narrowing?: Narrowing[]): Promise<Page<Space>>;
  /** Live spaces directly in a collection, ordered by (position, id). */
  abstract listByParent(organizationId: string, parentId: string, page: PageRequest, narrowing?: Narrowing[]): Promise<Page<Space>>;
  /** The live spaces directly in these collections; `inheritOnly`: those whose default level is `inherit`. */
  abstract idsIn(organizationId: string, collectionIds: string[], inheritOnly: boolean): Promise<string[]>;
  /** Live spaces and collections directly under `parentId` (null: top level). */
  abstract siblings(
    organizationId: string,
    parentId: string | null,
  ): Promise<{ kind: 'space' | 'collection'; id: string; position: string }[]>;
  /** Holds the space's row until the unit of work ends: writers of its content take turns. */
  abstract lockForWrite(spaceId: string): Promise<void>;
  /** Moves the space to `next` only if its revision is still `expected`; false when main moved meanwhile. */
  abstract compareAndSetRevision(spaceId: string, expected: string, next: string, at: Date): Promise<boolean>;
  abstract setCounters(spaceId: string, counters: Partial<SpaceCounters>): Promise<void>;
  /** Soft-deletes the live spaces directly in these collections; returns their ids. */
  abstract deleteInCollections(organizationId: string, collectionIds: string[], at: Date): Promise<string[]>;
  /**
   * Moves the live spaces directly in these collections to another organization (they keep their parent);
   * deleted ones stay behind, restorable at the top level. Returns the ids of the spaces moved.
   */
  abstract transferInCollections(
    fromOrganizationId: string,
    collectionIds: string[],
    toOrganizationId: string,
    at: Date,
  ): Promise<string[]>;
  /** Permanently removes spaces deleted at or before `cutoff`; returns their ids. */
  abstract purgeDeletedBefore(cutoff: Date): Promise<{ id: string; organizationId: string }[]>;
}
