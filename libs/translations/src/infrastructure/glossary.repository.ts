import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import type { Language } from '@app/shared-kernel';
import { GlossaryEntry, GlossaryRepository } from '../domain/glossary';

interface Row {
  id: string;
  seq: string;
  organization_id: string;
  translations: Partial<Record<Language, string>>;
  created_at: Date;
  updated_at: Date;
}

const toEntry = (r: Row): GlossaryEntry => ({
  id: r.id,
  seq: Number(r.seq),
  organizationId: r.organization_id,
  translations: r.translations,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

@Injectable()
export class SqlGlossaryRepository extends GlossaryRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async lock(organizationId: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('glossary:' || $1))`, [organizationId]);
  }

  async all(organizationId: string): Promise<GlossaryEntry[]> {
    const rows: Row[] = await this.db.query('SELECT * FROM translation_glossary WHERE organization_id = $1 ORDER BY seq', [organizationId]);
    return rows.map(toEntry);
  }

  async find(organizationId: string, id: string): Promise<GlossaryEntry | null> {
    const rows: Row[] = await this.db.query('SELECT * FROM translation_glossary WHERE organization_id = $1 AND id = $2', [
      organizationId,
      id,
    ]);
    return rows[0] ? toEntry(rows[0]) : null;
  }

  async insert(e: GlossaryEntry): Promise<void> {
    await this.db.query(
      'INSERT INTO translation_glossary (id, organization_id, translations, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)',
      [e.id, e.organizationId, JSON.stringify(e.translations), e.createdAt, e.updatedAt],
    );
  }

  async update(e: GlossaryEntry): Promise<void> {
    await this.db.query('UPDATE translation_glossary SET translations = $3, updated_at = $4 WHERE organization_id = $1 AND id = $2', [
      e.organizationId,
      e.id,
      JSON.stringify(e.translations),
      e.updatedAt,
    ]);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.db.query('DELETE FROM translation_glossary WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  }
}
