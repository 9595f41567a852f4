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

  async write(organizationId: string, batch: { deleted: string[]; updated: GlossaryEntry[]; inserted: GlossaryEntry[] }): Promise<void> {
    const { deleted, updated, inserted } = batch;
    if (deleted.length)
      await this.db.query('DELETE FROM translation_glossary WHERE organization_id = $1 AND id = ANY($2::text[])', [
        organizationId,
        deleted,
      ]);
    if (updated.length)
      await this.db.query(
        `UPDATE translation_glossary g SET translations = u.translations, updated_at = u.updated_at
           FROM unnest($2::text[], $3::jsonb[], $4::timestamptz[]) AS u(id, translations, updated_at)
          WHERE g.organization_id = $1 AND g.id = u.id`,
        [organizationId, updated.map((e) => e.id), updated.map((e) => JSON.stringify(e.translations)), updated.map((e) => e.updatedAt)],
      );
    if (inserted.length)
      // Rows are numbered (seq) in the order given: the list shows entries in the order they were made.
      await this.db.query(
        `INSERT INTO translation_glossary (id, organization_id, translations, created_at, updated_at)
         SELECT u.id, $1, u.translations, u.created_at, u.created_at
           FROM unnest($2::text[], $3::jsonb[], $4::timestamptz[]) WITH ORDINALITY AS u(id, translations, created_at, n)
          ORDER BY u.n`,
        [organizationId, inserted.map((e) => e.id), inserted.map((e) => JSON.stringify(e.translations)), inserted.map((e) => e.createdAt)],
      );
  }
}
