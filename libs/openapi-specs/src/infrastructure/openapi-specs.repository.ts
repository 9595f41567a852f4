import { Injectable } from '@nestjs/common';
import { Db, keysetPage, SqlTable } from '@app/persistence';
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

/** The columns of a spec, one place for the insert and for updates (which write only what changed). */
const SPECS = new SqlTable<OpenApiSpec>('openapi_specs', {
  id: (s) => s.id,
  organization_id: (s) => s.organizationId,
  slug: (s) => s.slug,
  visibility: (s) => s.visibility,
  source_kind: (s) => s.source.kind,
  source_url: (s) => (s.source.kind === 'url' ? s.source.url : null),
  source_text: (s) => (s.source.kind === 'text' ? s.source.text : null),
  source_revision: (s) => s.sourceRevision,
  processing_state: (s) => s.processingState,
  last_processed_at: (s) => s.lastProcessedAt,
  last_process_error_code: (s) => s.lastProcessErrorCode,
  last_processed_errors: (s) => JSON.stringify(s.lastProcessedErrors),
  last_processed_error_count: (s) => s.lastProcessedErrorCount,
  last_version_id: (s) => s.lastVersionId,
  created_at: (s) => s.createdAt,
  updated_at: (s) => s.updatedAt,
});

@Injectable()
export class SqlOpenApiSpecRepository extends OpenApiSpecRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(s: OpenApiSpec): Promise<boolean> {
    const { sql, params } = SPECS.insert(s, 'ON CONFLICT (organization_id, slug) DO NOTHING RETURNING id');
    const rows: unknown[] = await this.db.query(sql, params);
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

  async update(before: OpenApiSpec, after: OpenApiSpec): Promise<void> {
    // A run's claim ends with it: leaving `progress` clears the claim time.
    const leftProgress = after.processingState !== before.processingState && after.processingState !== 'progress';
    await SPECS.update(this.db, before, after, { id: before.id }, { also: leftProgress ? ['claimed_at = NULL'] : [] });
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
