import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SSO identities and token scopes (docs/permissions.md, "SSO identities"):
 * - `sso_identities`: the pair (provider, NameID) linked to a user; an SSO login signs in the linked user.
 * - `api_tokens.organization_id`: a token issued by an SSO login reaches only that organization.
 * - `users.email_asserted_by`: the organization whose identity provider created the user; such an
 *   email is not a verified email for joining other organizations by email domain.
 */
export class SsoIdentities1764633600000 implements MigrationInterface {
  name = 'SsoIdentities1764633600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sso_identities (
        provider_id text NOT NULL REFERENCES saml_providers (id) ON DELETE CASCADE,
        name_id text NOT NULL,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        organization_id text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (provider_id, name_id)
      );
      CREATE INDEX sso_identities_user_idx ON sso_identities (user_id);
      ALTER TABLE api_tokens ADD COLUMN organization_id text;
      ALTER TABLE users ADD COLUMN email_asserted_by text;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE users DROP COLUMN email_asserted_by; ALTER TABLE api_tokens DROP COLUMN organization_id; DROP TABLE sso_identities;',
    );
  }
}
