import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing in to the web app (#50): a user's password (argon2id hash), server-side sessions (the SHA-256 of the
 * cookie's secret; revoked, expired or in use), and one-time sign-in links (the SHA-256 of their token, used
 * once). Nothing here can sign anyone in by itself.
 */
export class Sessions1767225600000 implements MigrationInterface {
  name = 'Sessions1767225600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_passwords (
        user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        hash text NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE sessions (
        id text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        user_agent text CHECK (char_length(user_agent) <= 200),
        method text NOT NULL CHECK (method IN ('password', 'link'))
      )`);
    await q.query('CREATE INDEX sessions_user ON sessions (user_id, created_at)');
    await q.query(`
      CREATE TABLE sign_in_links (
        hash text PRIMARY KEY,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sign_in_links');
    await q.query('DROP TABLE sessions');
    await q.query('DROP TABLE user_passwords');
  }
}
