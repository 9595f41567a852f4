import { Db, keysetPage } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { mapPage, Page, PageRequest, TtlCache } from '@app/shared-kernel';
import type { JsonDocument } from '@app/content-model';
import { Revision, RevisionEditor, RevisionRepository, RevisionSummary } from '../domain/content/revision';
import { extractLinks, ExtractedLink } from '@app/content-model';

interface RevisionRow {
  id: string;
  organization_id: string;
  space_id: string;
  parents: string[];
  type: string;
  tree: Revision['tree'];
  files: Revision['files'];
  created_at: Date;
  created_by: string | null;
  merged_from: string | null;
  git: Revision['git'];
  reusable_contents: Revision['reusableContents'] | null;
  variables: Revision['variables'] | null;
}

/** The bodies a space's revisions reference ($1: the space): page documents at any depth, reusable contents. */
const SPACE_DOCUMENTS = `
  SELECT jsonb_path_query(r.tree::jsonb, 'strict $.**.document') #>> '{}' FROM revisions r WHERE r.space_id = $1
  UNION SELECT rc->>'document' FROM revisions r, jsonb_array_elements(COALESCE(r.reusable_contents, '[]'::jsonb)) rc WHERE r.space_id = $1`;

@Injectable()
export class SqlRevisionRepository extends RevisionRepository {
  constructor(private readonly db: Db) {
    super();
  }

  /**
   * Revisions never change, so parsed ones are kept in process (a 5,000-page tree is a megabyte of
   * JSON to fetch and parse). Callers must not mutate what they get (the domain copies before writing).
   */
  private readonly cache = new TtlCache<string, Revision>(10 * 60_000, 64);

  async history(spaceId: string, head: string, page: PageRequest): Promise<Page<RevisionSummary>> {
    const result = await keysetPage<{
      id: string;
      parents: string[];
      type: string;
      created_at: Date;
      created_by: string | null;
      merged_from: string | null;
      seq: string;
    }>(
      this.db,
      `WITH RECURSIVE main (id) AS (
         SELECT $2::text
         UNION
         SELECT r.parents[1] FROM revisions r JOIN main m ON r.id = m.id WHERE r.space_id = $1 AND cardinality(r.parents) > 0
       )
       SELECT r.id, r.parents, r.type, r.created_at, r.created_by, r.merged_from, r.seq FROM revisions r JOIN main m ON m.id = r.id
       WHERE r.space_id = $1`,
      [spaceId, head],
      { columns: ['q.seq'], shape: ['int'], keyOf: (r) => [Number(r.seq)], direction: 'desc' },
      page,
    );
    return mapPage(result, (r) => ({
      id: r.id,
      parents: r.parents,
      type: r.type as Revision['type'],
      createdAt: r.created_at,
      createdBy: r.created_by,
      mergedFrom: r.merged_from,
    }));
  }

  async editors(spaceId: string, head: string, base: string, start: string): Promise<RevisionEditor[]> {
    // The work's line and main's line at its base, both back to where the work started: what is on the first
    // and not on the second is the work's own (a fast-forward to main's revisions does not make them its own).
    const rows: { created_by: string; count: number; updated_at: Date }[] = await this.db.query(
      `WITH RECURSIVE work (id) AS (
         SELECT $2::text WHERE $2::text <> $4
         UNION
         SELECT r.parents[1] FROM revisions r JOIN work w ON r.id = w.id
          WHERE r.space_id = $1 AND cardinality(r.parents) > 0 AND r.parents[1] <> $4
       ), main (id) AS (
         SELECT $3::text WHERE $3::text <> $4
         UNION
         SELECT r.parents[1] FROM revisions r JOIN main m ON r.id = m.id
          WHERE r.space_id = $1 AND cardinality(r.parents) > 0 AND r.parents[1] <> $4
       )
       SELECT r.created_by, count(*)::int AS count, max(r.created_at) AS updated_at FROM revisions r JOIN work w ON w.id = r.id
        WHERE r.space_id = $1 AND r.type = 'edits' AND r.created_by IS NOT NULL AND r.id NOT IN (SELECT id FROM main)
        GROUP BY r.created_by ORDER BY max(r.created_at) DESC, r.created_by`,
      [spaceId, head, base, start],
    );
    return rows.map((r) => ({ userId: r.created_by, count: r.count, updatedAt: new Date(r.updated_at) }));
  }

  async find(spaceId: string, id: string): Promise<Revision | null> {
    const key = `${spaceId}/${id}`;
    const cached = this.cache.get(key, Date.now());
    if (cached) return cached;
    const rows: RevisionRow[] = await this.db.query('SELECT * FROM revisions WHERE space_id = $1 AND id = $2', [spaceId, id]);
    if (!rows.length) return null;
    const r = rows[0];
    const rev: Revision = {
      id: r.id,
      organizationId: r.organization_id,
      spaceId: r.space_id,
      parents: r.parents,
      type: r.type as Revision['type'],
      tree: r.tree,
      files: r.files,
      createdAt: r.created_at,
      createdBy: r.created_by,
      mergedFrom: r.merged_from,
      git: r.git ?? null,
      reusableContents: r.reusable_contents ?? [],
      variables: r.variables ?? {},
    };
    this.cache.set(key, rev, Date.now());
    return rev;
  }

  async insert(rev: Revision, documents: Map<string, JsonDocument>): Promise<void> {
    await this.insertRows(rev, documents);
    // A revision that inherits its reusable contents is read back once (the row holds what it inherited).
    if (rev.reusableContents !== undefined && rev.variables !== undefined) this.cache.set(`${rev.spaceId}/${rev.id}`, rev, Date.now());
  }

  private async insertRows(rev: Revision, documents: Map<string, JsonDocument>): Promise<void> {
    await this.db.transaction(async (em) => {
      if (documents.size) {
        const hashes = [...documents.keys()].sort();
        // A body the collector marked unreferenced is claimed first (its row held until this commits: the
        // collector then sees the mark cleared and keeps it); then the new ones are written.
        await em.query(
          `UPDATE documents SET unreferenced_since = NULL
           WHERE organization_id = $1 AND hash = ANY($2::text[]) AND unreferenced_since IS NOT NULL`,
          [rev.organizationId, hashes],
        );
        await em.query(
          `INSERT INTO documents (organization_id, hash, body)
           SELECT $1, h, b FROM unnest($2::text[], $3::jsonb[]) AS t(h, b)
           ON CONFLICT (organization_id, hash) DO NOTHING`,
          [rev.organizationId, hashes, hashes.map((h) => JSON.stringify(documents.get(h)))],
        );
        const links = hashes.flatMap((h) => extractLinks(documents.get(h)!).map((l, seq) => ({ h, seq, ...l })));
        if (links.length) {
          await em.query(
            `INSERT INTO document_links (organization_id, hash, seq, kind, target, anchor)
             SELECT $1, h, s, k, t, a FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[]) AS x(h, s, k, t, a)
             ON CONFLICT DO NOTHING`,
            [
              rev.organizationId,
              links.map((l) => l.h),
              links.map((l) => l.seq),
              links.map((l) => l.kind),
              links.map((l) => l.target),
              links.map((l) => l.anchor),
            ],
          );
        }
      }
      await em.query(
        `INSERT INTO revisions (id, organization_id, space_id, parents, type, tree, created_at, created_by, merged_from, files, git,
           reusable_contents, variables)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
           COALESCE($12::jsonb, (SELECT p.reusable_contents FROM revisions p WHERE p.space_id = $3 AND p.id = ($4::text[])[1])),
           COALESCE($13::jsonb, (SELECT p.variables FROM revisions p WHERE p.space_id = $3 AND p.id = ($4::text[])[1])))`,
        [
          rev.id,
          rev.organizationId,
          rev.spaceId,
          rev.parents,
          rev.type,
          JSON.stringify(rev.tree),
          rev.createdAt,
          rev.createdBy,
          rev.mergedFrom ?? null,
          JSON.stringify(rev.files ?? []),
          rev.git ? JSON.stringify(rev.git) : null,
          rev.reusableContents === undefined ? null : JSON.stringify(rev.reusableContents),
          rev.variables === undefined ? null : JSON.stringify(rev.variables),
        ],
      );
    });
  }

  async documents(organizationId: string, hashes: string[]): Promise<Map<string, JsonDocument>> {
    if (!hashes.length) return new Map();
    const rows: { hash: string; body: JsonDocument }[] = await this.db.query(
      'SELECT hash, body FROM documents WHERE organization_id = $1 AND hash = ANY($2::text[])',
      [organizationId, [...new Set(hashes)]],
    );
    return new Map(rows.map((r) => [r.hash, r.body]));
  }

  async spaceDocument(organizationId: string, spaceId: string, hash: string): Promise<JsonDocument | null> {
    const rows: { body: JsonDocument }[] = await this.db.query(
      `SELECT body FROM documents WHERE organization_id = $2 AND hash = $3 AND $3 IN (${SPACE_DOCUMENTS})`,
      [spaceId, organizationId, hash],
    );
    return rows[0]?.body ?? null;
  }

  async links(organizationId: string, hashes: string[]): Promise<Map<string, ExtractedLink[]>> {
    const m = new Map<string, ExtractedLink[]>();
    if (!hashes.length) return m;
    const rows: { hash: string; kind: ExtractedLink['kind']; target: string; anchor: string | null }[] = await this.db.query(
      'SELECT hash, kind, target, anchor FROM document_links WHERE organization_id = $1 AND hash = ANY($2::text[]) ORDER BY hash, seq',
      [organizationId, [...new Set(hashes)]],
    );
    for (const r of rows) m.set(r.hash, [...(m.get(r.hash) ?? []), { kind: r.kind, target: r.target, anchor: r.anchor }]);
    return m;
  }

  async hashesLinkingTo(organizationId: string, kind: 'page' | 'file', target: string): Promise<Set<string>> {
    const rows: { hash: string }[] = await this.db.query(
      'SELECT DISTINCT hash FROM document_links WHERE organization_id = $1 AND kind = $2 AND target = $3',
      [organizationId, kind, target],
    );
    return new Set(rows.map((r) => r.hash));
  }

  async copy(
    source: Revision,
    target: { id: string; spaceId: string; organizationId: string; createdAt: Date; createdBy: string | null },
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO revisions (id, organization_id, space_id, parents, type, tree, files, created_at, created_by, reusable_contents, variables)
       SELECT $1, $2, $3, '{}', 'edits', tree, files, $4, $5, reusable_contents, variables FROM revisions WHERE id = $6`,
      [target.id, target.organizationId, target.spaceId, target.createdAt, target.createdBy, source.id],
    );
  }

  async moveSpace(spaceId: string, fromOrganizationId: string, toOrganizationId: string): Promise<void> {
    this.cache.clear();
    await this.db.transaction(async (em) => {
      // The target organization's bodies and bytes the space needs: claimed (see insertRows), then copied.
      await em.query(
        `UPDATE documents SET unreferenced_since = NULL
         WHERE organization_id = $2 AND unreferenced_since IS NOT NULL AND hash IN (
           ${SPACE_DOCUMENTS})`,
        [spaceId, toOrganizationId],
      );
      await em.query(
        `UPDATE file_blobs SET unreferenced_since = NULL
         WHERE organization_id = $2 AND unreferenced_since IS NOT NULL AND hash IN (
           SELECT f->>'hash' FROM revisions r, jsonb_array_elements(r.files) f WHERE r.space_id = $1)`,
        [spaceId, toOrganizationId],
      );
      await em.query(
        `INSERT INTO file_blobs (organization_id, hash)
         SELECT DISTINCT $2, f->>'hash' FROM revisions r, jsonb_array_elements(r.files) f WHERE r.space_id = $1 AND f->>'hash' IS NOT NULL
         ON CONFLICT DO NOTHING`,
        [spaceId, toOrganizationId],
      );
      await em.query(
        `INSERT INTO documents (organization_id, hash, body)
         SELECT $3, d.hash, d.body FROM documents d
         WHERE d.organization_id = $2 AND d.hash IN (
           ${SPACE_DOCUMENTS})
         ON CONFLICT DO NOTHING`,
        [spaceId, fromOrganizationId, toOrganizationId],
      );
      await em.query(
        `INSERT INTO document_links (organization_id, hash, seq, kind, target, anchor)
         SELECT $3, l.hash, l.seq, l.kind, l.target, l.anchor FROM document_links l
         WHERE l.organization_id = $2 AND l.hash IN (
           ${SPACE_DOCUMENTS})
         ON CONFLICT DO NOTHING`,
        [spaceId, fromOrganizationId, toOrganizationId],
      );
      await em.query('UPDATE revisions SET organization_id = $2 WHERE space_id = $1', [spaceId, toOrganizationId]);
    });
  }

  async fileHashes(spaceId: string): Promise<string[]> {
    const rows: { hash: string }[] = await this.db.query(
      `SELECT DISTINCT f->>'hash' AS hash FROM revisions r, jsonb_array_elements(r.files) f WHERE r.space_id = $1 AND f->>'hash' IS NOT NULL`,
      [spaceId],
    );
    return rows.map((r) => r.hash);
  }
}
