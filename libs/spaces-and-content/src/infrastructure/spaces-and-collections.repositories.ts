import { Db, Keyset, keysetPage, narrowingSql, updateChanged } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { In, Repository } from 'typeorm';
import { mapPage, Narrowing, Page, PageRequest } from '@app/shared-kernel';
import { DefaultLevel } from '@app/access';
import { Collection, CollectionRepository, CollectionTree } from '../domain/collection';
import { Space, SpaceMergeRules, SpaceRepository } from '../domain/space';
import { CollectionRow, SpaceRow } from './orm-entities';

function collectionToDomain(row: CollectionRow): Collection {
  return { ...row, defaultLevel: row.defaultLevel as DefaultLevel };
}

function spaceToDomain(row: SpaceRow): Space {
  return {
    id: row.id,
    organizationId: row.organizationId,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility as Space['visibility'],
    editMode: row.editMode as Space['editMode'],
    mergeRules: row.mergeRules as SpaceMergeRules,
    language: row.language as Space['language'],
    parentId: row.parentId,
    defaultLevel: row.defaultLevel as DefaultLevel,
    position: row.position,
    revision: row.revision,
    counters: {
      comments: row.comments,
      changeRequests: row.changeRequests,
      changeRequestsOpen: row.changeRequestsOpen,
      changeRequestsDraft: row.changeRequestsDraft,
    },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
  };
}

function spaceToRow(space: Space): SpaceRow {
  const { counters, ...rest } = space;
  return Object.assign(new SpaceRow(), rest, counters);
}

const COLLECTION_COLUMNS = `id, organization_id AS "organizationId", title, description, parent_id AS "parentId",
  default_level AS "defaultLevel", position, created_at AS "createdAt", updated_at AS "updatedAt"`;

const SPACE_COLUMNS = `id, organization_id AS "organizationId", title, emoji, visibility, edit_mode AS "editMode",
  merge_rules AS "mergeRules", language, parent_id AS "parentId", default_level AS "defaultLevel", position,
  revision_id AS "revision", comments_count AS "comments", change_requests_count AS "changeRequests",
  change_requests_open_count AS "changeRequestsOpen", change_requests_draft_count AS "changeRequestsDraft",
  created_at AS "createdAt", updated_at AS "updatedAt", deleted_at AS "deletedAt"`;

/** Lists by creation time, then id. */
function byCreation<R extends { createdAt: Date; id: string }>(direction: 'asc' | 'desc' = 'asc'): Keyset<R> {
  return { columns: ['q."createdAt"', 'q.id'], shape: ['timestamp', 'text'], keyOf: (r) => [r.createdAt.toISOString(), r.id], direction };
}

/** The spaces of a collection, in the order `move` sets (fractional positions compare bytewise). */
const BY_POSITION: Keyset<SpaceRow> = {
  columns: ['q.position COLLATE "C"', 'q.id COLLATE "C"'],
  shape: ['text', 'text'],
  keyOf: (r) => [r.position, r.id],
};

@Injectable()
export class TypeOrmCollectionRepository extends CollectionRepository {
  constructor(private readonly dataSource: Db) {
    super();
  }
  private get rows(): Repository<CollectionRow> {
    return this.dataSource.repo(CollectionRow);
  }

  async findById(id: string): Promise<Collection | null> {
    const row = await this.rows.findOneBy({ id });
    return row ? collectionToDomain(row) : null;
  }
  async insert(collection: Collection): Promise<void> {
    await this.rows.insert(collection);
  }
  update(before: Collection, after: Collection): Promise<boolean> {
    return updateChanged(
      this.rows,
      { id: before.id },
      Object.assign(new CollectionRow(), before),
      Object.assign(new CollectionRow(), after),
      ['organizationId'],
    );
  }
  async tree(organizationId: string): Promise<CollectionTree> {
    // Read on every space list and space read: raw rows, no entity hydration.
    // The restricted spaces come in the same round trip (a partial index finds them): lists narrow only when some exist.
    const rows = await this.dataSource.namedQuery<{ id: string; parentId: string | null; defaultLevel: DefaultLevel; space: boolean }>(
      'collection_tree',
      `SELECT id, parent_id AS "parentId", default_level AS "defaultLevel", false AS space FROM collections WHERE organization_id = $1
       UNION ALL
       SELECT id, parent_id, NULL, true FROM spaces WHERE organization_id = $1 AND default_level IS NULL AND deleted_at IS NULL`,
      [organizationId],
    );
    return new CollectionTree(
      rows.filter((r) => !r.space),
      rows.filter((r) => r.space).map((r) => ({ id: r.id, parentId: r.parentId })),
    );
  }
  list(organizationId: string, topLevelOnly: boolean, page: PageRequest, narrowing: Narrowing = null): Promise<Page<Collection>> {
    const params: unknown[] = [organizationId];
    const base = `SELECT ${COLLECTION_COLUMNS} FROM collections WHERE organization_id = $1${topLevelOnly ? ' AND parent_id IS NULL' : ''}${narrowingSql('id', narrowing, params)}`;
    return keysetPage<CollectionRow>(this.dataSource, base, params, byCreation(), page).then((p) => mapPage(p, collectionToDomain));
  }
  async deleteTree(organizationId: string, collectionIds: string[]): Promise<void> {
    await this.rows.delete({ organizationId, id: In(collectionIds) });
  }
  async transferTree(
    fromOrganizationId: string,
    collectionIds: string[],
    root: { id: string; position: string },
    toOrganizationId: string,
    at: Date,
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await em.update(
        CollectionRow,
        { organizationId: fromOrganizationId, id: In(collectionIds) },
        { organizationId: toOrganizationId, updatedAt: at },
      );
      await em.update(CollectionRow, { id: root.id }, { parentId: null, position: root.position });
    });
  }
}

/** Selects every column under its entity property name, so the row maps like a hydrated entity. */
const SPACE_BY_ID = `SELECT ${SPACE_COLUMNS} FROM spaces WHERE id = $1`;

@Injectable()
export class TypeOrmSpaceRepository extends SpaceRepository {
  constructor(private readonly dataSource: Db) {
    super();
  }
  private get rows(): Repository<SpaceRow> {
    return this.dataSource.repo(SpaceRow);
  }

  /**
   * The hottest read (every space operation): a named (prepared) statement on TypeORM's own pg pool,
   * without a query runner or entity hydration (see docs/benchmarks.md for what it saves).
   */
  async findById(id: string): Promise<Space | null> {
    const rows = await this.dataSource.namedQuery<SpaceRow>('space_by_id', SPACE_BY_ID, [id]);
    return rows.length ? spaceToDomain(rows[0]) : null;
  }
  async insert(space: Space): Promise<void> {
    await this.rows.insert(spaceToRow(space));
  }
  /**
   * Writes the space's own fields. The revision pointer and the counters are not written here: they
   * move only through compareAndSetRevision and setCounters, so a concurrent PATCH cannot undo a merge.
   */
  update(before: Space, after: Space): Promise<boolean> {
    const own = (s: Space) => {
      const {
        revision: _revision,
        comments: _c,
        changeRequests: _cr,
        changeRequestsOpen: _o,
        changeRequestsDraft: _d,
        ...fields
      } = spaceToRow(s);
      return fields as SpaceRow;
    };
    return updateChanged(this.rows, { id: before.id }, own(before), own(after), ['organizationId', 'deletedAt']);
  }
  async findLive(organizationId: string, ids: string[]): Promise<Space[]> {
    if (!ids.length) return [];
    const rows: SpaceRow[] = await this.dataSource.query(
      `SELECT ${SPACE_COLUMNS} FROM spaces WHERE organization_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL`,
      [organizationId, ids],
    );
    return rows.map(spaceToDomain);
  }

  listByOrganization(organizationId: string, page: PageRequest, narrowing: Narrowing[] = []): Promise<Page<Space>> {
    return this.narrowedPage('organization_id = $1', [organizationId], narrowing, byCreation(), page);
  }
  listByOrganizationDesc(organizationId: string, page: PageRequest, narrowing: Narrowing[] = []): Promise<Page<Space>> {
    return this.narrowedPage('organization_id = $1', [organizationId], narrowing, byCreation('desc'), page);
  }
  listByParent(organizationId: string, parentId: string, page: PageRequest, narrowing: Narrowing[] = []): Promise<Page<Space>> {
    return this.narrowedPage('organization_id = $1 AND parent_id = $2', [organizationId, parentId], narrowing, BY_POSITION, page);
  }
  async idsIn(organizationId: string, collectionIds: string[], inheritOnly: boolean): Promise<string[]> {
    if (collectionIds.length === 0) return [];
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM spaces WHERE organization_id = $1 AND parent_id = ANY($2::text[]) AND deleted_at IS NULL${inheritOnly ? " AND default_level = 'inherit'" : ''}`,
      [organizationId, collectionIds],
    );
    return rows.map((r) => r.id);
  }
  /** Live spaces matching `where`, narrowed to what the caller may read. */
  private narrowedPage(
    where: string,
    params: unknown[],
    narrowing: Narrowing[],
    keyset: Keyset<SpaceRow>,
    page: PageRequest,
  ): Promise<Page<Space>> {
    const all = [...params];
    const narrowed = narrowing.map((n) => narrowingSql('id', n, all)).join('');
    return this.spacePage(`SELECT ${SPACE_COLUMNS} FROM spaces WHERE ${where} AND deleted_at IS NULL${narrowed}`, all, keyset, page);
  }
  private async spacePage(base: string, params: unknown[], keyset: Keyset<SpaceRow>, page: PageRequest): Promise<Page<Space>> {
    return mapPage(await keysetPage<SpaceRow>(this.dataSource, base, params, keyset, page), spaceToDomain);
  }
  async siblings(
    organizationId: string,
    parentId: string | null,
  ): Promise<{ kind: 'space' | 'collection'; id: string; position: string }[]> {
    const parentClause = parentId === null ? 'parent_id IS NULL' : 'parent_id = $2';
    const params = parentId === null ? [organizationId] : [organizationId, parentId];
    return this.dataSource.query(
      `SELECT 'space' AS kind, id, position FROM spaces WHERE organization_id = $1 AND ${parentClause} AND deleted_at IS NULL
       UNION ALL
       SELECT 'collection' AS kind, id, position FROM collections WHERE organization_id = $1 AND ${parentClause}
       ORDER BY position, id`,
      params,
    );
  }
  async lockForWrite(spaceId: string): Promise<void> {
    await this.dataSource.query('SELECT 1 FROM spaces WHERE id = $1 FOR UPDATE', [spaceId]);
  }
  async compareAndSetRevision(spaceId: string, expected: string, next: string, at: Date): Promise<boolean> {
    const affected = await this.dataSource.execute(
      'UPDATE spaces SET revision_id = $3, updated_at = $4 WHERE id = $1 AND revision_id = $2',
      [spaceId, expected, next, at],
    );
    return affected === 1;
  }
  async setCounters(
    spaceId: string,
    counters: Partial<{ comments: number; changeRequests: number; changeRequestsOpen: number; changeRequestsDraft: number }>,
  ): Promise<void> {
    const set: Partial<SpaceRow> = {};
    if (counters.comments !== undefined) set.comments = counters.comments;
    if (counters.changeRequests !== undefined) set.changeRequests = counters.changeRequests;
    if (counters.changeRequestsOpen !== undefined) set.changeRequestsOpen = counters.changeRequestsOpen;
    if (counters.changeRequestsDraft !== undefined) set.changeRequestsDraft = counters.changeRequestsDraft;
    if (Object.keys(set).length) await this.rows.update({ id: spaceId }, set);
  }
  /** Removes the spaces and their revisions (page bodies are shared by hash and stay). */
  async deleteInCollections(organizationId: string, collectionIds: string[], at: Date): Promise<string[]> {
    const [rows]: [{ id: string }[], number] = await this.dataSource.query(
      `UPDATE spaces SET deleted_at = $3, updated_at = $3
       WHERE organization_id = $1 AND parent_id = ANY($2::text[]) AND deleted_at IS NULL RETURNING id`,
      [organizationId, collectionIds, at],
    );
    return rows.map((r) => r.id);
  }

  async transferInCollections(fromOrganizationId: string, collectionIds: string[], toOrganizationId: string, at: Date): Promise<string[]> {
    return this.dataSource.transaction(async (em) => {
      const [moved]: [{ id: string }[], number] = await em.query(
        `UPDATE spaces SET organization_id = $3, updated_at = $4
         WHERE organization_id = $1 AND parent_id = ANY($2::text[]) AND deleted_at IS NULL RETURNING id`,
        [fromOrganizationId, collectionIds, toOrganizationId, at],
      );
      await em.query(
        'UPDATE spaces SET parent_id = NULL WHERE organization_id = $1 AND parent_id = ANY($2::text[]) AND deleted_at IS NOT NULL',
        [fromOrganizationId, collectionIds],
      );
      return moved.map((r) => r.id);
    });
  }

  async purgeDeletedBefore(cutoff: Date): Promise<{ id: string; organizationId: string }[]> {
    const rows: { id: string; organization_id: string }[] = await this.dataSource.query(
      `WITH gone AS (DELETE FROM spaces WHERE deleted_at <= $1 RETURNING id, organization_id),
            revs AS (DELETE FROM revisions WHERE space_id IN (SELECT id FROM gone)),
            idx AS (DELETE FROM search_sections WHERE space_id IN (SELECT id FROM gone)),
            st AS (DELETE FROM search_state WHERE space_id IN (SELECT id FROM gone)),
            sw AS (DELETE FROM search_words WHERE space_id IN (SELECT id FROM gone))
       SELECT id, organization_id FROM gone`,
      [cutoff],
    );
    return rows.map((r) => ({ id: r.id, organizationId: r.organization_id }));
  }
}
