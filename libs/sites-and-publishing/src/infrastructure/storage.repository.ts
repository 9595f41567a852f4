import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import { StorageFile, StorageRepository, StorageUploadKind } from '../domain/storage';

interface StorageRow {
  key: string;
  organization_id: string;
  kind: string;
  name: string;
  content_type: string;
  size: number;
  token_hash: string;
  expires_at: Date;
  created_by: string;
  created_at: Date;
  uploaded_at: Date | null;
}

const COLUMNS = 'key, organization_id, kind, name, content_type, size, token_hash, expires_at, created_by, created_at, uploaded_at';

const toFile = (r: StorageRow): StorageFile => ({
  key: r.key,
  organizationId: r.organization_id,
  kind: r.kind as StorageUploadKind,
  name: r.name,
  contentType: r.content_type,
  size: Number(r.size),
  tokenHash: r.token_hash,
  expiresAt: r.expires_at,
  createdBy: r.created_by,
  createdAt: r.created_at,
  uploadedAt: r.uploaded_at,
});

@Injectable()
export class PgStorageRepository extends StorageRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(f: StorageFile, maxBytes: number): Promise<boolean> {
    // One organization's uploads are counted under a lock of their own, so two requests cannot both pass the bound.
    await this.db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`storage:${f.organizationId}`]);
    await this.db.query('DELETE FROM storage_files WHERE organization_id = $1 AND uploaded_at IS NULL AND expires_at < $2', [
      f.organizationId,
      f.createdAt,
    ]);
    const rows: { used: string }[] = await this.db.query(
      'SELECT coalesce(sum(size), 0) AS used FROM storage_files WHERE organization_id = $1',
      [f.organizationId],
    );
    if (Number(rows[0].used) + f.size > maxBytes) return false;
    await this.db.query(`INSERT INTO storage_files (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, [
      f.key,
      f.organizationId,
      f.kind,
      f.name,
      f.contentType,
      f.size,
      f.tokenHash,
      f.expiresAt,
      f.createdBy,
      f.createdAt,
      f.uploadedAt,
    ]);
    return true;
  }

  async pending(tokenHash: string): Promise<StorageFile | null> {
    const rows: StorageRow[] = await this.db.query(`SELECT ${COLUMNS} FROM storage_files WHERE token_hash = $1 AND uploaded_at IS NULL`, [
      tokenHash,
    ]);
    return rows[0] ? toFile(rows[0]) : null;
  }

  async complete(key: string, bytes: Buffer, at: Date): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'WITH u AS (UPDATE storage_files SET bytes = $2, uploaded_at = $3 WHERE key = $1 AND uploaded_at IS NULL AND expires_at > $3 RETURNING 1) SELECT 1 FROM u',
      [key, bytes, at],
    );
    return rows.length === 1;
  }

  async uploaded(organizationId: string, keys: string[]): Promise<StorageFile[]> {
    if (keys.length === 0) return [];
    const rows: StorageRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM storage_files WHERE organization_id = $1 AND key = ANY($2::text[]) AND uploaded_at IS NOT NULL`,
      [organizationId, keys],
    );
    return rows.map(toFile);
  }

  async read(key: string): Promise<{ file: StorageFile; bytes: Buffer } | null> {
    const rows: (StorageRow & { bytes: Buffer })[] = await this.db.query(
      `SELECT ${COLUMNS}, bytes FROM storage_files WHERE key = $1 AND uploaded_at IS NOT NULL`,
      [key],
    );
    return rows[0] ? { file: toFile(rows[0]), bytes: rows[0].bytes } : null;
  }
}
