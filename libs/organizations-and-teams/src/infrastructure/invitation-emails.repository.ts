import { Injectable } from '@nestjs/common';
import { Db } from '@app/persistence';
import { InvitationEmail, InvitationEmailRepository, INVITATION_ATTEMPTS_MAX } from '../domain/invitation-email';

interface Row {
  id: string;
  organization_id: string;
  user_id: string;
  email: string;
  invited_by: string;
  with_sign_in_link: boolean;
  invite_id: string | null;
  created_at: Date;
  sent_at: Date | null;
  attempts: number;
  last_error: string | null;
}

const toEmail = (r: Row): InvitationEmail => ({
  id: r.id,
  organizationId: r.organization_id,
  userId: r.user_id,
  email: r.email,
  invitedBy: r.invited_by,
  withSignInLink: r.with_sign_in_link,
  inviteId: r.invite_id,
  createdAt: r.created_at,
  sentAt: r.sent_at,
  attempts: r.attempts,
  lastError: r.last_error,
});

@Injectable()
export class SqlInvitationEmailRepository extends InvitationEmailRepository {
  constructor(private readonly db: Db) {
    super();
  }

  async insert(e: InvitationEmail): Promise<void> {
    await this.db.query(
      `INSERT INTO invitation_emails
         (id, organization_id, user_id, email, invited_by, with_sign_in_link, invite_id, created_at, sent_at, attempts, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        e.id,
        e.organizationId,
        e.userId,
        e.email,
        e.invitedBy,
        e.withSignInLink,
        e.inviteId,
        e.createdAt,
        e.sentAt,
        e.attempts,
        e.lastError,
      ],
    );
  }

  async find(id: string): Promise<InvitationEmail | null> {
    const rows: Row[] = await this.db.query('SELECT * FROM invitation_emails WHERE id = $1', [id]);
    return rows[0] ? toEmail(rows[0]) : null;
  }

  async claim(id: string): Promise<InvitationEmail | null> {
    const rows: Row[] = await this.db.query(
      'SELECT * FROM invitation_emails WHERE id = $1 AND sent_at IS NULL AND attempts < $2 FOR UPDATE SKIP LOCKED',
      [id, INVITATION_ATTEMPTS_MAX],
    );
    return rows[0] ? toEmail(rows[0]) : null;
  }

  async markSent(id: string, at: Date): Promise<void> {
    await this.db.query('UPDATE invitation_emails SET sent_at = $2, attempts = attempts + 1, last_error = NULL WHERE id = $1', [id, at]);
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.db.query('UPDATE invitation_emails SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [id, error.slice(0, 1000)]);
  }

  async unsent(before: Date, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      'SELECT id FROM invitation_emails WHERE sent_at IS NULL AND attempts < $1 AND created_at < $2 ORDER BY created_at LIMIT $3',
      [INVITATION_ATTEMPTS_MAX, before, limit],
    );
    return rows.map((r) => r.id);
  }
}
