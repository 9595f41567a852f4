import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every process keeps the states of the sites it serves in memory (#48: a warm page asks PostgreSQL nothing).
 * A change to a site's row (published, visibility, version, visitor key; share links, redirects, settings and
 * the spaces it shows all move the version) notifies `quire_site_states` with the site's id when it commits,
 * whatever wrote it: each process drops that site's state (PgSiteStateChanges).
 */
export class SiteStateNotify1766966400000 implements MigrationInterface {
  name = 'SiteStateNotify1766966400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION quire_site_state_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('quire_site_states', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER sites_state_notify AFTER INSERT OR UPDATE OR DELETE ON sites
      FOR EACH ROW EXECUTE FUNCTION quire_site_state_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER sites_state_notify ON sites');
    await q.query('DROP FUNCTION quire_site_state_notify()');
  }
}
