import { Injectable } from '@nestjs/common';
import { Db, keysetPage } from '@app/persistence';
import { mapPage, Page, PageRequest } from '@app/shared-kernel';
import { CustomFont, CustomFontRepository, FontFaceFile } from '../domain/custom-fonts';

interface FontRow {
  id: string;
  organization_id: string;
  seq: string;
  font_family: string;
  faces: FontFaceFile[];
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

const toFont = (r: FontRow): CustomFont => ({
  id: r.id,
  organizationId: r.organization_id,
  fontFamily: r.font_family,
  faces: r.faces.map((f) => ({ weight: f.weight, storageKey: f.storageKey })),
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

@Injectable()
export class PgCustomFontRepository extends CustomFontRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(f: CustomFont, max: number): Promise<boolean> {
    // One organization's fonts are counted under a lock of their own, so two requests cannot both pass the bound.
    await this.db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`custom-fonts:${f.organizationId}`]);
    const rows: { n: number }[] = await this.db.query('SELECT count(*)::int AS n FROM custom_fonts WHERE organization_id = $1', [
      f.organizationId,
    ]);
    if (rows[0].n >= max) return false;
    await this.db.query(
      `INSERT INTO custom_fonts (id, organization_id, font_family, faces, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)`,
      [f.id, f.organizationId, f.fontFamily, JSON.stringify(f.faces), f.createdBy, f.createdAt, f.updatedAt],
    );
    return true;
  }

  async get(organizationId: string, id: string, forUpdate = false): Promise<CustomFont | null> {
    const rows: FontRow[] = await this.db.query(
      `SELECT * FROM custom_fonts WHERE organization_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [organizationId, id],
    );
    return rows[0] ? toFont(rows[0]) : null;
  }

  async list(organizationId: string, page: PageRequest): Promise<Page<CustomFont>> {
    const result = await keysetPage<FontRow>(
      this.db,
      'SELECT * FROM custom_fonts WHERE organization_id = $1',
      [organizationId],
      { columns: ['q.seq'], shape: ['int'], keyOf: (r) => [Number(r.seq)] },
      page,
    );
    return mapPage(result, toFont);
  }

  async update(f: CustomFont): Promise<void> {
    await this.db.query(
      'UPDATE custom_fonts SET font_family = $3, faces = $4::jsonb, updated_at = $5 WHERE organization_id = $1 AND id = $2',
      [f.organizationId, f.id, f.fontFamily, JSON.stringify(f.faces), f.updatedAt],
    );
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'WITH d AS (DELETE FROM custom_fonts WHERE organization_id = $1 AND id = $2 RETURNING 1) SELECT 1 FROM d',
      [organizationId, id],
    );
    return rows.length === 1;
  }
}
