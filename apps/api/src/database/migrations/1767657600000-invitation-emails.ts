import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email invitations (#52, the official inviteUsersToOrganization): the outbox of invitation emails, written with
 * the membership and sent by a job after the commit (docs/invitations.md). Only the address and who invited whom
 * are kept; a sign-in link is made when the email is sent, and only its hash is stored (sign_in_links).
 */
export class InvitationEmails1767657600000 implements MigrationInterface {
  name = 'InvitationEmails1767657600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invitation_emails (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email text NOT NULL,
        invited_by text NOT NULL,
        with_sign_in_link boolean NOT NULL,
        invite_id text,
        created_at timestamptz NOT NULL,
        sent_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      )`);
    await q.query('CREATE INDEX invitation_emails_unsent ON invitation_emails (created_at) WHERE sent_at IS NULL');
    // An invitation to someone who has an account is an invite only they may accept (no membership without it).
    await q.query('ALTER TABLE organization_invites ADD COLUMN email text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE organization_invites DROP COLUMN email');
    await q.query('DROP TABLE invitation_emails');
  }
}
