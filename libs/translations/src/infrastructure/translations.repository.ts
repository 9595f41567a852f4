import { Injectable } from '@nestjs/common';
import { Db, isoSortKey, keysetPage, SqlTable } from '@app/persistence';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import type { JsonDocument } from '@app/content-model';
import {
  Translation,
  TranslationRepository,
  TranslationRun,
  TranslationStats,
  TranslationStatus,
  TranslatedPage,
} from '../domain/translation';
import type { Language } from '@app/shared-kernel';

interface Row {
  id: string;
  organization_id: string;
  source_space_id: string;
  source_language: Language;
  language: Language;
  instructions: JsonDocument;
  status: TranslationStatus;
  target_space_id: string | null;
  result_revision: string | null;
  stats: TranslationStats;
  latest_run: (Omit<TranslationRun, 'startedAt' | 'finishedAt'> & { startedAt: string; finishedAt: string }) | null;
  pages: Record<string, TranslatedPage>;
  glossary: string;
  requested_at: Date | null;
  run_started_at: Date | null;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  sort_key?: string;
}

const toTranslation = (r: Row): Translation => ({
  id: r.id,
  organizationId: r.organization_id,
  sourceSpaceId: r.source_space_id,
  sourceLanguage: r.source_language,
  language: r.language,
  instructions: r.instructions,
  status: r.status,
  targetSpaceId: r.target_space_id,
  resultRevision: r.result_revision,
  stats: r.stats,
  latestRun: r.latest_run
    ? { ...r.latest_run, startedAt: new Date(r.latest_run.startedAt), finishedAt: new Date(r.latest_run.finishedAt) }
    : null,
  pages: r.pages,
  glossary: r.glossary,
  requestedAt: r.requested_at,
  runStartedAt: r.run_started_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  createdBy: r.created_by,
});

/** The columns of a translation, one place for the insert and the end of a run. */
const TRANSLATIONS = new SqlTable<Translation>('translations', {
  id: (t) => t.id,
  organization_id: (t) => t.organizationId,
  source_space_id: (t) => t.sourceSpaceId,
  source_language: (t) => t.sourceLanguage,
  language: (t) => t.language,
  instructions: (t) => JSON.stringify(t.instructions),
  status: (t) => t.status,
  target_space_id: (t) => t.targetSpaceId,
  result_revision: (t) => t.resultRevision,
  stats: (t) => JSON.stringify(t.stats),
  latest_run: (t) => (t.latestRun ? JSON.stringify(t.latestRun) : null),
  pages: (t) => JSON.stringify(t.pages),
  glossary: (t) => t.glossary,
  requested_at: (t) => t.requestedAt,
  run_started_at: (t) => t.runStartedAt,
  created_at: (t) => t.createdAt,
  updated_at: (t) => t.updatedAt,
  created_by: (t) => t.createdBy,
});

@Injectable()
export class SqlTranslationRepository extends TranslationRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(t: Translation): Promise<void> {
    const { sql, params } = TRANSLATIONS.insert(t);
    await this.db.query(sql, params);
  }

  async find(organizationId: string, id: string): Promise<Translation | null> {
    const rows: Row[] = await this.db.query('SELECT * FROM translations WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return rows[0] ? toTranslation(rows[0]) : null;
  }

  async findById(id: string): Promise<Translation | null> {
    const rows: Row[] = await this.db.query('SELECT * FROM translations WHERE id = $1', [id]);
    return rows[0] ? toTranslation(rows[0]) : null;
  }

  async list(organizationId: string, page: PageRequest): Promise<Page<Translation>> {
    const result = await keysetPage<Row>(
      this.db,
      `SELECT *, ${isoSortKey('created_at')} AS sort_key FROM translations WHERE organization_id = $1`,
      [organizationId],
      { columns: ['q.sort_key', 'q.id'], shape: ['text', 'text'], keyOf: (r) => [r.sort_key ?? '', r.id] },
      page,
    );
    return mapPage(result, toTranslation);
  }

  async setInstructions(id: string, instructions: JsonDocument, now: Date): Promise<Translation | null> {
    const rows: Row[] = await this.db.query(
      'WITH u AS (UPDATE translations SET instructions = $2, updated_at = $3 WHERE id = $1 RETURNING *) SELECT * FROM u',
      [id, JSON.stringify(instructions), now],
    );
    return rows[0] ? toTranslation(rows[0]) : null;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'WITH d AS (DELETE FROM translations WHERE organization_id = $1 AND id = $2 RETURNING id) SELECT id FROM d',
      [organizationId, id],
    );
    return rows.length > 0;
  }

  async versionsOf(organizationId: string, spaceId: string): Promise<string[]> {
    const rows: { space: string }[] = await this.db.query(
      `WITH mine AS (
         SELECT * FROM translations WHERE organization_id = $1
       ), sources AS (
         SELECT source_space_id AS s FROM mine WHERE source_space_id = $2 OR target_space_id = $2
       )
       SELECT DISTINCT space FROM (
         SELECT s AS space FROM sources
         UNION SELECT target_space_id FROM mine WHERE source_space_id IN (SELECT s FROM sources) AND target_space_id IS NOT NULL
       ) v WHERE space <> $2`,
      [organizationId, spaceId],
    );
    return rows.map((r) => r.space);
  }

  async request(id: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH u AS (UPDATE translations SET requested_at = COALESCE(requested_at, $2), updated_at = $2,
         status = CASE WHEN status = 'running' THEN status ELSE 'pending' END
       WHERE id = $1 RETURNING id) SELECT id FROM u`,
      [id, now],
    );
    return rows.length > 0;
  }

  async claim(id: string, now: Date, staleBefore: Date): Promise<Translation | null> {
    const rows: Row[] = await this.db.query(
      `WITH u AS (UPDATE translations SET status = 'running', requested_at = NULL, run_started_at = $2, updated_at = $2
       WHERE id = $1 AND (
         (requested_at IS NOT NULL AND (run_started_at IS NULL OR run_started_at < $3))
         OR (run_started_at IS NOT NULL AND run_started_at < $3))
       RETURNING *) SELECT * FROM u`,
      [id, now, staleBefore],
    );
    return rows[0] ? toTranslation(rows[0]) : null;
  }

  async finish(t: Translation, startedAt: Date): Promise<boolean> {
    // A run wanted meanwhile leaves the status pending (its requested_at is kept).
    const rows: unknown[] = await this.db.query(
      `WITH u AS (UPDATE translations SET status = CASE WHEN requested_at IS NOT NULL THEN 'pending' ELSE $2 END,
         target_space_id = $3, result_revision = $4, stats = $5, latest_run = $6, pages = $7, glossary = $8, run_started_at = NULL,
         updated_at = $9
       WHERE id = $1 AND run_started_at = $10 RETURNING id) SELECT id FROM u`,
      [
        ...TRANSLATIONS.values(t, [
          'id',
          'status',
          'target_space_id',
          'result_revision',
          'stats',
          'latest_run',
          'pages',
          'glossary',
          'updated_at',
        ]),
        startedAt,
      ],
    );
    return rows.length > 0;
  }

  async waiting(before: Date, staleBefore: Date): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM translations
       WHERE (requested_at IS NOT NULL AND requested_at < $1 AND (run_started_at IS NULL OR run_started_at < $2))
          OR (run_started_at IS NOT NULL AND run_started_at < $2)
       LIMIT 1000`,
      [before, staleBefore],
    );
    return rows.map((r) => r.id);
  }
}
