import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search that forgives typos (#49): the words of each space's page and section titles, with a trigram index
 * (PostgreSQL's pg_trgm, a trusted extension: the database's owner may create it). A query word that is no
 * title word is matched to the closest one (`%`, similarity), and the query is run as written OR corrected.
 * Filled from the index already built; kept by every index write from now on.
 */
export class SearchWords1767052800000 implements MigrationInterface {
  name = 'SearchWords1767052800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await q.query(`CREATE TABLE search_words (space_id text NOT NULL, word text NOT NULL, PRIMARY KEY (space_id, word))`);
    await q.query('CREATE INDEX search_words_trgm ON search_words USING gin (word gin_trgm_ops)');
    await q.query(`
      INSERT INTO search_words (space_id, word)
      SELECT DISTINCT s.space_id, w
      FROM search_sections s, regexp_split_to_table(lower(s.page_title || ' ' || s.title), '[^[:alnum:]]+') AS w
      WHERE length(w) >= 4
      ON CONFLICT DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE search_words');
  }
}
