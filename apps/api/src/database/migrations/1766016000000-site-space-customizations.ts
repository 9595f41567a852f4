import { MigrationInterface, QueryRunner } from 'typeorm';

/** `sites.site_space_customizations`: each site space's customization override, by site space id. */
export class SiteSpaceCustomizations1766016000000 implements MigrationInterface {
  name = 'SiteSpaceCustomizations1766016000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sites ADD COLUMN site_space_customizations jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE sites DROP COLUMN site_space_customizations');
  }
}
