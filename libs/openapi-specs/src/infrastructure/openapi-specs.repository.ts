import { Injectable } from '@nestjs/common';
import { Db, keysetPage } from '@app/persistence';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import {
  OpenApiSpec,
  OpenApiSpecRepository,
  ProcessErrorCode,
  ProcessingError,
  ProcessingState,
  SpecVersion,
  SpecVisibility,
} from '../domain/openapi-spec';

interface SpecRow {
  id: string;
  seq: string;
  organization_id: string;
  slug: string;
  visibility: string;
  source_kind: 'url' | 'text';
  source_url: string | null;
  source_text: string | null;
  source_revision: number;
  processing_state: string;
  last_processed_at: Date | null;
  last_process_error_code: string | null;
  last_processed_errors: ProcessingError[];
  last_processed_error_count: number;
  last_version_id: string | null;
  created_at: Date;
  updated_at: Date;
}

interface VersionRow {
  id: string;
  seq: string;
  spec_id: string;
  organization_id: string;
  source_url: string | null;
  format: 'json' | 'yaml';
  content_hash: string;
  text?: string;
  created_at: Date;
}

const toSpec = (r: SpecRow): OpenApiSpec => ({
  id: r.id,
  organizationId: r.organization_id,
  slug: r.slug,
  visibility: r.visibility as SpecVisibility,
  source: r.source_kind === 'url' ? { kind: 'url', url: r.source_url! } : { kind: 'text', text: r.source_text! },
  sourceRevision: r.source_revision,
  processingState: r.processing_state as ProcessingState,
  lastProcessedAt: r.last_processed_at,
  lastProcessErrorCode: r.last_process_error_code as ProcessErrorCode | null,
  lastProcessedErrors: r.last_processed_errors,
  lastProcessedErrorCount: r.last_processed_error_count,
  lastVersionId: r.last_version_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toVersion = (r: VersionRow): SpecVersion => ({
  id: r.id,
  specId: r.spec_id,
  organizationId: r.organization_id,
  createdAt: r.created_at,
  sourceUrl: r.source_url,
  format: r.format,
  contentHash: r.content_hash,
  text: r.text ?? '',
});

const bySeq = <R extends { seq: string }>(direction: 'asc' | 'desc') => ({
  columns: ['q.seq'],
  shape: ['int' as const],
  keyOf: (r: R) => [Number(r.seq)],
  direction,
});

@Injectable()
export class SqlOpenApiSpecRepository extends OpenApiSpecRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(s: OpenApiSpec): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO openapi_specs (id, organization_id, slug, visibility, source_kind, source_url, source_text, source_revision,
         processing_state, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (organization_id, slug) DO NOTHING RETURNING id`,
      [
        s.id,
        s.organizationId,
        s.slug,
        s.visibility,
        s.source.kind,
        s.source.kind === 'url' ? s.source.url : null,
        s.source.kind === 'text' ? s.source.text : null,
        s.sourceRevision,
        s.processingState,
        s.createdAt,
        s.updatedAt,
      ],
    );
    return rows.length === 1;
  }

  async findBySlug(organizationId: string, slug: string): Promise<OpenApiSpec | null> {
    const rows: SpecRow[] = await this.db.query('SELECT * FROM openapi_specs WHERE organization_id = $1 AND slug = $2', [
      organizationId,
      slug,
    ]);
    return rows[0] ? toSpec(rows[0]) : null;
  }

  async findById(specId: string): Promise<OpenApiSpec | null> {
    const rows: SpecRow[] = await this.db.query('SELECT * FROM openapi_specs WHERE id = $1', [specId]);
    return rows[0] ? toSpec(rows[0]) : null;
  }

  async lockById(specId: string): Promise<OpenApiSpec | null> {
    const rows: SpecRow[] = await this.db.query('SELECT * FROM openapi_specs WHERE id = $1 FOR UPDATE', [specId]);
    return rows[0] ? toSpec(rows[0]) : null;
  }

  async update(s: OpenApiSpec): Promise<void> {
    await this.db.query(
      `UPDATE openapi_specs SET visibility = $2, source_kind = $3, source_url = $4, source_text = $5, source_revision = $6,
         processing_state = $7, last_processed_at = $8, last_process_error_code = $9, last_processed_errors = $10,
         last_processed_error_count = $11, last_version_id = $12, updated_at = $13,
         claimed_at = CASE WHEN $7 = 'progress' THEN claimed_at ELSE NULL END
       WHERE id = $1`,
      [
        s.id,
        s.visibility,
        s.source.kind,
        s.source.kind === 'url' ? s.source.url : null,
        s.source.kind === 'text' ? s.source.text : null,
        s.sourceRevision,
        s.processingState,
        s.lastProcessedAt,
        s.lastProcessErrorCode,
        JSON.stringify(s.lastProcessedErrors),
        s.lastProcessedErrorCount,
        s.lastVersionId,
        s.updatedAt,
      ],
    );
  }

  async delete(organizationId: string, slug: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'WITH d AS (DELETE FROM openapi_specs WHERE organization_id = $1 AND slug = $2 RETURNING id) SELECT id FROM d',
      [organizationId, slug],
    );
    return rows.length === 1;
  }

  async list(organizationId: string, page: PageRequest): Promise<Page<OpenApiSpec>> {
    const result = await keysetPage<SpecRow>(
      this.db,
      'SELECT * FROM openapi_specs WHERE organization_id = $1',
      [organizationId],
      bySeq('asc'),
      page,
    );
    return mapPage(result, toSpec);
  }

  async claim(specId: string, sourceRevision: number, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH c AS (UPDATE openapi_specs SET processing_state = 'progress', claimed_at = $3
         WHERE id = $1 AND source_revision = $2 AND processing_state = 'pending' RETURNING id) SELECT id FROM c`,
      [specId, sourceRevision, now],
    );
    return rows.length === 1;
  }

  async stale(pendingBefore: Date, stuckBefore: Date, limit: number): Promise<{ id: string; sourceRevision: number }[]> {
    // A run that died in progress goes back to pending, so its next run can claim it.
    await this.db.query(
      `UPDATE openapi_specs SET processing_state = 'pending', claimed_at = NULL WHERE processing_state = 'progress' AND claimed_at < $1`,
      [stuckBefore],
    );
    const rows: { id: string; source_revision: number }[] = await this.db.query(
      `SELECT id, source_revision FROM openapi_specs WHERE processing_state = 'pending' AND updated_at < $1 ORDER BY updated_at LIMIT $2`,
      [pendingBefore, limit],
    );
    return rows.map((r) => ({ id: r.id, sourceRevision: r.source_revision }));
  }

  async insertVersion(v: SpecVersion): Promise<void> {
    await this.db.query(
      `INSERT INTO openapi_spec_versions (id, spec_id, organization_id, source_url, format, content_hash, text, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [v.id, v.specId, v.organizationId, v.sourceUrl, v.format, v.contentHash, v.text, v.createdAt],
    );
  }

  async latestVersion(specId: string): Promise<SpecVersion | null> {
    const rows: VersionRow[] = await this.db.query('SELECT * FROM openapi_spec_versions WHERE spec_id = $1 ORDER BY seq DESC LIMIT 1', [
      specId,
    ]);
    return rows[0] ? toVersion(rows[0]) : null;
  }

  async version(specId: string, versionId: string): Promise<SpecVersion | null> {
    const rows: VersionRow[] = await this.db.query('SELECT * FROM openapi_spec_versions WHERE spec_id = $1 AND id = $2', [
      specId,
      versionId,
    ]);
    return rows[0] ? toVersion(rows[0]) : null;
  }

  async listVersions(specId: string, page: PageRequest): Promise<Page<Omit<SpecVersion, 'text'>>> {
    const result = await keysetPage<VersionRow>(
      this.db,
      'SELECT id, seq, spec_id, organization_id, source_url, format, content_hash, created_at FROM openapi_spec_versions WHERE spec_id = $1',
      [specId],
      bySeq('desc'),
      page,
    );
    return mapPage(result, (r) => {
      const { text: _text, ...rest } = toVersion(r);
      return rest;
    });
  }
}
