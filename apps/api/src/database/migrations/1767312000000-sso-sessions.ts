import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SAML sign-in to the web app (#50): a session can begin with an SSO login (`method` sso), and is then limited to
 * that organization (`scope`), as the API token an SSO login issues is. Ends with the organization.
 */
export class SsoSessions1767312000000 implements MigrationInterface {
  name = 'SsoSessions1767312000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE sessions ADD COLUMN scope text REFERENCES organizations (id) ON DELETE CASCADE');
    await q.query('ALTER TABLE sessions DROP CONSTRAINT sessions_method_check');
    await q.query(`ALTER TABLE sessions ADD CONSTRAINT sessions_method_check CHECK (method IN ('password', 'link', 'sso'))`);
    await q.query(`ALTER TABLE sessions ADD CONSTRAINT sessions_sso_scoped CHECK ((method = 'sso') = (scope IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sessions WHERE method = 'sso'`);
    await q.query('ALTER TABLE sessions DROP CONSTRAINT sessions_sso_scoped');
    await q.query('ALTER TABLE sessions DROP CONSTRAINT sessions_method_check');
    await q.query(`ALTER TABLE sessions ADD CONSTRAINT sessions_method_check CHECK (method IN ('password', 'link'))`);
    await q.query('ALTER TABLE sessions DROP COLUMN scope');
  }
}
