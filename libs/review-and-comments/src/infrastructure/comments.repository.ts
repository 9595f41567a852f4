import { Injectable } from '@nestjs/common';
import { Db, keysetPage } from '@app/persistence';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import { Comment, Commenter, CommentFilter, CommentRepository, Reaction, ReplyStats, Thread } from '../domain/comment';

interface Row {
  id: string;
  seq: string;
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  parent_id: string | null;
  body_document: object;
  body_markdown: string;
  posted_by: string;
  posted_at: Date;
  edited_at: Date | null;
  target_page: string | null;
  target_node: string | null;
  target_table_record: string | null;
  target_table_definition: string | null;
  target_review: string | null;
  target_revision: string;
  status: string;
  resolved_at: Date | null;
  resolved_by: string | null;
}

function toDomain(r: Row): Comment {
  return {
    id: r.id,
    organizationId: r.organization_id,
    spaceId: r.space_id,
    changeRequestId: r.change_request_id,
    parentId: r.parent_id,
    body: { document: r.body_document, markdown: r.body_markdown },
    postedBy: r.posted_by,
    postedAt: r.posted_at,
    editedAt: r.edited_at,
    target: {
      page: r.target_page,
      node: r.target_node,
      tableCell:
        r.target_table_record !== null && r.target_table_definition !== null
          ? { record: r.target_table_record, definition: r.target_table_definition }
          : null,
      review: r.target_review,
      revision: r.target_revision,
    },
    status: r.status as Comment['status'],
    resolvedAt: r.resolved_at,
    resolvedBy: r.resolved_by,
  };
}

/** In the order they were posted (`seq`: timestamps of quick posts can tie). */
const keyset = (direction: 'asc' | 'desc') => ({
  columns: ['q.seq'],
  shape: ['int' as const],
  keyOf: (r: Row) => [Number(r.seq)],
  direction,
});

@Injectable()
export class SqlCommentRepository extends CommentRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(c: Comment): Promise<void> {
    await this.db.query(
      `INSERT INTO comments (id, organization_id, space_id, change_request_id, parent_id, body_document, body_markdown, posted_by, posted_at,
         target_page, target_node, target_table_record, target_table_definition, target_revision, status, target_review)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        c.id,
        c.organizationId,
        c.spaceId,
        c.changeRequestId,
        c.parentId,
        c.body.document,
        c.body.markdown,
        c.postedBy,
        c.postedAt,
        c.target.page,
        c.target.node,
        c.target.tableCell?.record ?? null,
        c.target.tableCell?.definition ?? null,
        c.target.revision,
        c.status,
        c.target.review,
      ],
    );
  }

  async find(thread: Thread, id: string, parentId: string | null): Promise<Comment | null> {
    const rows: Row[] = await this.db.query(
      `SELECT * FROM comments WHERE id = $1 AND space_id = $2 AND change_request_id IS NOT DISTINCT FROM $3
         AND parent_id IS NOT DISTINCT FROM $4`,
      [id, thread.spaceId, thread.changeRequestId, parentId],
    );
    return rows.length ? toDomain(rows[0]) : null;
  }

  async findMany(thread: Thread, ids: string[]): Promise<Comment[]> {
    const rows: Row[] = await this.db.query(
      `SELECT * FROM comments WHERE id = ANY($1::text[]) AND space_id = $2 AND change_request_id IS NOT DISTINCT FROM $3 AND parent_id IS NULL`,
      [ids, thread.spaceId, thread.changeRequestId],
    );
    return rows.map(toDomain);
  }

  async list(thread: Thread, filter: CommentFilter, page: PageRequest): Promise<Page<Comment>> {
    const params: unknown[] = [thread.spaceId, thread.changeRequestId];
    let where = 'space_id = $1 AND change_request_id IS NOT DISTINCT FROM $2 AND parent_id IS NULL';
    if (filter.status) where += ` AND status = $${params.push(filter.status)}`;
    if (filter.targetPage) where += ` AND target_page = $${params.push(filter.targetPage)}`;
    if (filter.authors?.length) where += ` AND posted_by = ANY($${params.push(filter.authors)}::text[])`;
    const result = await keysetPage<Row>(this.db, `SELECT * FROM comments WHERE ${where}`, params, keyset(filter.order), page);
    return mapPage(result, toDomain);
  }

  async listReplies(parentId: string, page: PageRequest): Promise<Page<Comment>> {
    const result = await keysetPage<Row>(this.db, 'SELECT * FROM comments WHERE parent_id = $1', [parentId], keyset('asc'), page);
    return mapPage(result, toDomain);
  }

  async update(before: Comment, after: Comment): Promise<boolean> {
    const sets: string[] = [];
    const params: unknown[] = [before.id, before.editedAt, before.status];
    if (after.body.markdown !== before.body.markdown || JSON.stringify(after.body.document) !== JSON.stringify(before.body.document)) {
      sets.push(`body_document = $${params.push(after.body.document)}`, `body_markdown = $${params.push(after.body.markdown)}`);
    }
    if (after.editedAt?.getTime() !== before.editedAt?.getTime()) sets.push(`edited_at = $${params.push(after.editedAt)}`);
    if (after.status !== before.status || after.resolvedAt?.getTime() !== before.resolvedAt?.getTime())
      sets.push(
        `status = $${params.push(after.status)}`,
        `resolved_at = $${params.push(after.resolvedAt)}`,
        `resolved_by = $${params.push(after.resolvedBy)}`,
      );
    if (sets.length === 0) return true;
    const affected = await this.db.execute(
      `UPDATE comments SET ${sets.join(', ')} WHERE id = $1 AND edited_at IS NOT DISTINCT FROM $2 AND status = $3`,
      params,
    );
    return affected === 1;
  }

  async commenters(thread: Thread, max: number): Promise<Commenter[]> {
    // Comments through the thread's index (its space), replies through their comment's id.
    const rows: { posted_by: string; count: number; updated_at: Date; first: string }[] = await this.db.query(
      `SELECT posted_by, count(*)::int AS count, max(posted_at) AS updated_at, min(seq) AS first FROM (
         SELECT c.posted_by, c.posted_at, c.seq FROM comments c
          WHERE c.space_id = $1 AND c.change_request_id IS NOT DISTINCT FROM $2 AND c.parent_id IS NULL
         UNION ALL
         SELECT r.posted_by, r.posted_at, r.seq FROM comments r JOIN comments c ON r.parent_id = c.id
          WHERE c.space_id = $1 AND c.change_request_id IS NOT DISTINCT FROM $2 AND c.parent_id IS NULL
       ) AS posts
       GROUP BY posted_by ORDER BY min(seq), posted_by LIMIT $3`,
      [thread.spaceId, thread.changeRequestId, max],
    );
    return rows.map((r) => ({ userId: r.posted_by, count: r.count, updatedAt: new Date(r.updated_at), first: Number(r.first) }));
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.execute('DELETE FROM comments WHERE id = $1', [id])) === 1;
  }

  async reactions(ids: string[]): Promise<Map<string, Reaction[]>> {
    const out = new Map<string, Reaction[]>();
    if (!ids.length) return out;
    const rows: { comment_id: string; user_id: string; emoji: string; reacted_at: Date }[] = await this.db.query(
      'SELECT comment_id, user_id, emoji, reacted_at FROM comment_reactions WHERE comment_id = ANY($1::text[]) ORDER BY reacted_at, user_id',
      [ids],
    );
    for (const r of rows) {
      const list = out.get(r.comment_id) ?? [];
      list.push({ emoji: r.emoji, userId: r.user_id, reactedAt: r.reacted_at });
      out.set(r.comment_id, list);
    }
    return out;
  }

  async react(id: string, userId: string, added: string[], removed: string[], at: Date): Promise<void> {
    if (removed.length)
      await this.db.query('DELETE FROM comment_reactions WHERE comment_id = $1 AND user_id = $2 AND emoji = ANY($3::text[])', [
        id,
        userId,
        removed,
      ]);
    if (added.length)
      await this.db.query(
        `INSERT INTO comment_reactions (comment_id, user_id, emoji, reacted_at)
         SELECT $1, $2, e, $4 FROM unnest($3::text[]) AS e ON CONFLICT DO NOTHING`,
        [id, userId, added, at],
      );
  }

  async replyStats(ids: string[]): Promise<Map<string, ReplyStats>> {
    const out = new Map<string, ReplyStats>();
    for (const id of ids) out.set(id, { count: 0, repliers: [] });
    if (!ids.length) return out;
    const rows: { parent_id: string; posted_by: string; count: number; updated_at: Date }[] = await this.db.query(
      `SELECT parent_id, posted_by, count(*)::int AS count, max(posted_at) AS updated_at FROM comments
       WHERE parent_id = ANY($1::text[]) GROUP BY parent_id, posted_by ORDER BY max(seq) DESC`,
      [ids],
    );
    for (const r of rows) {
      const s = out.get(r.parent_id)!;
      s.count += r.count;
      s.repliers.push({ userId: r.posted_by, count: r.count, updatedAt: r.updated_at });
    }
    return out;
  }

  async bump(thread: Thread): Promise<void> {
    await this.db.query(
      `INSERT INTO comment_threads (space_id, change_request_id, version) VALUES ($1, $2, 1)
       ON CONFLICT (space_id, change_request_id) DO UPDATE SET version = comment_threads.version + 1`,
      [thread.spaceId, thread.changeRequestId ?? ''],
    );
  }

  async version(thread: Thread): Promise<number> {
    const rows = await this.db.namedQuery<{ version: string }>(
      'comment_thread_version',
      'SELECT version FROM comment_threads WHERE space_id = $1 AND change_request_id = $2',
      [thread.spaceId, thread.changeRequestId ?? ''],
    );
    return rows.length ? Number(rows[0].version) : 0;
  }

  async recountChangeRequest(changeRequestId: string): Promise<void> {
    await this.db.query(
      `UPDATE change_requests SET comments_count =
         (SELECT count(*) FROM comments WHERE change_request_id = $1 AND parent_id IS NULL AND status = 'open')
       WHERE id = $1`,
      [changeRequestId],
    );
  }

  async countOpenOnSpaceLocked(spaceId: string): Promise<number> {
    await this.db.query("SELECT pg_advisory_xact_lock(hashtext('comments:' || $1))", [spaceId]);
    const [r] = await this.db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM comments WHERE space_id = $1 AND change_request_id IS NULL AND parent_id IS NULL AND status = 'open'`,
      [spaceId],
    );
    return r.n;
  }
}
