/**
 * Email invitations (official inviteUsersToOrganization): each person invited is a member at once, and gets an
 * email with the link they follow to come in. The email is written to an outbox in the invitation's transaction
 * and sent by a job after it commits, retried until it goes or gives up: an invitation is never lost to an SMTP
 * server that is down, and never sent for a membership that was rolled back.
 */
export interface InvitationEmail {
  id: string;
  organizationId: string;
  userId: string;
  email: string;
  invitedBy: string;
  /** The person had no way in yet (made by this invitation, no password): the email carries a sign-in link. */
  withSignInLink: boolean;
  /** Someone who has an account is not made a member: the email carries this invite, which only they may accept. */
  inviteId: string | null;
  createdAt: Date;
  sentAt: Date | null;
  attempts: number;
  lastError: string | null;
}

/** Sending gives up after this many attempts (the row stays, with its last error). */
export const INVITATION_ATTEMPTS_MAX = 8;
/** How long the sign-in link of an invitation works. */
export const INVITATION_LINK_MS = 7 * 24 * 3600_000;
/** How many people one call invites. */
export const INVITATION_EMAILS_MAX = 100;

export abstract class InvitationEmailRepository {
  abstract insert(e: InvitationEmail): Promise<void>;
  abstract find(id: string): Promise<InvitationEmail | null>;
  /** Claims an unsent row for one attempt (row lock, skipped by others); null when it is sent, gone or claimed. */
  abstract claim(id: string): Promise<InvitationEmail | null>;
  abstract markSent(id: string, at: Date): Promise<void>;
  abstract markFailed(id: string, error: string): Promise<void>;
  /** Unsent rows made before `before` with attempts left (what a lost job left behind). */
  abstract unsent(before: Date, limit: number): Promise<string[]>;
}

/** An email to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Port: the SMTP server (QUIRE_SMTP_URL). `configured` false: no server, so nothing can be sent. */
export abstract class Mailer {
  abstract readonly configured: boolean;
  abstract send(message: MailMessage): Promise<void>;
}

/** What the invitation says: who invited them where, and the link. Plain text (no markup to escape or spoof). */
export function invitationMessage(input: {
  to: string;
  inviter: string;
  organization: string;
  link: string;
  expiresAt?: Date;
  /** The link accepts an invite (someone with an account), rather than opening what they are a member of. */
  accept?: boolean;
}): MailMessage {
  const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  const lines = [
    `${clean(input.inviter)} invited you to ${clean(input.organization)} on Quire.`,
    '',
    input.expiresAt
      ? `Follow this link to sign in (it works once, until ${input.expiresAt.toISOString()}):`
      : input.accept
        ? 'Follow this link to accept the invitation within 30 days (sign in first if you are asked to):'
        : 'Open it here:',
    input.link,
    '',
    'If you did not expect this invitation, you can ignore this email.',
  ];
  return {
    to: input.to,
    subject: `${clean(input.inviter)} invited you to ${clean(input.organization)} on Quire`,
    text: `${lines.join('\n')}\n`,
  };
}
