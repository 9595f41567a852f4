import { InvalidInputError, Narrowing, Page, PageRequest } from '@app/shared-kernel';
import type { DefaultLevel } from '@app/access';

export const COLLECTION_TITLE_MAX = 50;
export const COLLECTION_DESCRIPTION_MAX = 100;

export interface Collection {
  id: string;
  organizationId: string;
  title: string;
  description: string | null;
  parentId: string | null;
  defaultLevel: DefaultLevel;
  /** Fractional-index key among the siblings (spaces and collections) of the same parent. */
  position: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface CollectionPatch {
  title?: string;
  description?: string;
  defaultLevel?: DefaultLevel;
}

export function applyCollectionPatch(c: Collection, patch: CollectionPatch, now: Date): Collection {
  const next = { ...c, updatedAt: now };
  if (patch.title !== undefined) {
    if (patch.title.length > COLLECTION_TITLE_MAX) throw new InvalidInputError(`title must be at most ${COLLECTION_TITLE_MAX} characters`);
    next.title = patch.title;
  }
  if (patch.description !== undefined) {
    if (patch.description.length > COLLECTION_DESCRIPTION_MAX) {
      throw new InvalidInputError(`description must be at most ${COLLECTION_DESCRIPTION_MAX} characters`);
    }
    next.description = patch.description;
  }
  if (patch.defaultLevel !== undefined) next.defaultLevel = patch.defaultLevel;
  return next;
}

/** The minimal facts needed to walk the collection tree of an organization. */
export interface CollectionNode {
  id: string;
  parentId: string | null;
  defaultLevel: DefaultLevel;
}

/** A tree of an organization's collections, loaded once per request, to resolve levels and descendants. */
export class CollectionTree {
  private readonly byId: Map<string, CollectionNode>;

  /**
   * `restrictedSpaces`: the organization's live spaces whose own default level is null (read with the tree,
   * in the same query): with no null level among them or the collections, nothing is restricted and lists
   * narrow for nobody but guests.
   */
  constructor(
    nodes: CollectionNode[],
    readonly restrictedSpaces: readonly { id: string; parentId: string | null }[] = [],
  ) {
    this.byId = new Map(nodes.map((n) => [n.id, n]));
  }

  /** Whether any collection or space of the organization is restricted (its default level is null). */
  get restricts(): boolean {
    return this.restrictedSpaces.length > 0 || [...this.byId.values()].some((n) => n.defaultLevel === null);
  }

  /** Every collection of the organization. */
  ids(): string[] {
    return [...this.byId.keys()];
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** defaultLevels from `collectionId` up to the root (cycle-safe). */
  levelsFrom(collectionId: string | null): DefaultLevel[] {
    const levels: DefaultLevel[] = [];
    const seen = new Set<string>();
    let id = collectionId;
    while (id !== null && !seen.has(id)) {
      seen.add(id);
      const node = this.byId.get(id);
      if (!node) break;
      levels.push(node.defaultLevel);
      id = node.parentId;
    }
    return levels;
  }

  /** The collections from `collectionId` up to the root with their default levels (cycle-safe). */
  chainFrom(collectionId: string | null): { id: string; level: DefaultLevel }[] {
    const chain: { id: string; level: DefaultLevel }[] = [];
    const seen = new Set<string>();
    let id = collectionId;
    while (id !== null && !seen.has(id)) {
      seen.add(id);
      const node = this.byId.get(id);
      if (!node) break;
      chain.push({ id, level: node.defaultLevel });
      id = node.parentId;
    }
    return chain;
  }

  /** `id` and every collection below it. */
  subtree(id: string): string[] {
    const children = new Map<string, string[]>();
    for (const n of this.byId.values()) {
      if (n.parentId !== null) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n.id]);
    }
    const out: string[] = [];
    const stack = [id];
    while (stack.length) {
      const current = stack.pop()!;
      if (out.includes(current)) continue;
      out.push(current);
      stack.push(...(children.get(current) ?? []));
    }
    return out;
  }
}

export abstract class CollectionRepository {
  abstract findById(id: string): Promise<Collection | null>;
  abstract insert(collection: Collection): Promise<void>;
  /** Writes the fields that differ between `before` and `after`, guarded like SpaceRepository.update. */
  abstract update(before: Collection, after: Collection): Promise<boolean>;
  abstract tree(organizationId: string): Promise<CollectionTree>;
  /** Ordered by (createdAt, id); `topLevelOnly` for `nested=false`. */
  abstract list(organizationId: string, topLevelOnly: boolean, page: PageRequest, narrowing?: Narrowing): Promise<Page<Collection>>;
  /** Deletes these collection rows (the spaces inside are SpacesService's to delete, in the same unit of work). */
  abstract deleteTree(organizationId: string, collectionIds: string[]): Promise<void>;
  /**
   * Moves these collection rows to another organization; the root gets a new parent (none) and position.
   * The spaces inside are SpacesService's to move, in the same unit of work.
   */
  abstract transferTree(
    fromOrganizationId: string,
    collectionIds: string[],
    root: { id: string; position: string },
    toOrganizationId: string,
    at: Date,
  ): Promise<void>;
}
