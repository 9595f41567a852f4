import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Access } from '@app/access';
import { Actor, Clock, IdGenerator, InvalidInputError, JobQueue, NotFoundError, Role, strongestRole, UnitOfWork } from '@app/shared-kernel';
import {
  INVITATION_EMAILS_MAX,
  INVITATION_LINK_MS,
  InvitationEmailRepository,
  invitationMessage,
  Mailer,
} from '../domain/invitation-email';
import { MemberRepository } from '../domain/member';
import { InviteRepository } from '../domain/invite';
import { OrganizationRepository } from '../domain/organization';
import { PasswordRepository } from '../domain/session';
import { isEmail, normalizeEmail, UserRepository } from '../domain/user';
import { IdentityService } from './identity.service';
import { MailSettings } from './mail-settings';
import { SessionsService } from './sessions.service';

export const INVITATION_QUEUE = 'invitation-emails';
export const INVITATION_SWEEP_QUEUE = 'invitation-emails-sweep';
/** An email not sent after this is sent again by the sweep (a lost job, a server that was down). */
const SWEEP_AFTER_MS = 60_000;

export interface InviteInput {
  emails: (string | { email: string; role: Role | null })[];
  /** The role of those given without one (absent: `read`; null: guest). */
  role?: Role | null;
  sso?: boolean;
}

/**
 * Official inviteUsersToOrganization (admins): each address becomes a member at once (a user is made for an
 * address Quire does not know; an existing member's role is raised, never lowered), and each person added or
 * raised gets an email through SMTP with the link they follow: a one-time sign-in link (7 days) for someone who
 * has no other way in, else the organization in the web app. Without an SMTP server (QUIRE_SMTP_URL), a 400 says
 * so and nothing is written. Emails go through an outbox: written with the memberships, sent by a job after the
 * commit, retried by a sweep (docs/invitations.md).
 */
@Injectable()
export class EmailInvitationsService implements OnModuleInit {
  private readonly logger = new Logger('Invitations');

  constructor(
    private readonly access: Access,
    private readonly organizations: OrganizationRepository,
    private readonly members: MemberRepository,
    private readonly invites: InviteRepository,
    private readonly users: UserRepository,
    private readonly passwords: PasswordRepository,
    private readonly identity: IdentityService,
    private readonly sessions: SessionsService,
    private readonly outbox: InvitationEmailRepository,
    private readonly mailer: Mailer,
    private readonly settings: MailSettings,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  onModuleInit(): void {
    this.jobs.work(INVITATION_QUEUE, async (data) => {
      await this.deliver(String(data.id));
    });
    this.jobs.work(INVITATION_SWEEP_QUEUE, async () => {
      await this.sweep();
    });
    this.jobs.schedule(INVITATION_SWEEP_QUEUE, '* * * * *');
  }

  async invite(actor: Actor, organizationId: string, input: InviteInput): Promise<{ users: string[]; invited: number }> {
    await this.access.require(organizationId, actor, 'admin');
    if (!this.mailer.configured)
      throw new InvalidInputError(
        'Email invitations need an SMTP server: this instance has none (set QUIRE_SMTP_URL); invite links work without one',
      );
    const fallback = input.role === undefined ? 'read' : input.role;
    const wanted = new Map<string, Role | null>();
    for (const item of input.emails) {
      const raw = typeof item === 'string' ? item : item.email;
      const email = normalizeEmail(raw);
      if (!isEmail(email)) throw new InvalidInputError(`"${raw}" is not an email address`);
      const role = typeof item === 'string' ? fallback : item.role;
      // The same address twice: the stronger role.
      wanted.set(email, wanted.has(email) ? strongestRole(wanted.get(email), role) : role);
    }
    if (wanted.size === 0) throw new InvalidInputError('emails must name one address at least');
    if (wanted.size > INVITATION_EMAILS_MAX) throw new InvalidInputError(`At most ${INVITATION_EMAILS_MAX} addresses at once`);

    const organization = await this.organizations.findById(organizationId);
    return this.uow.run(async () => {
      const now = this.clock.now();
      const users: string[] = [];
      let invited = 0;
      const outbox = async (userId: string, email: string, withSignInLink: boolean, inviteId: string | null) => {
        const id = this.ids.next();
        await this.outbox.insert({
          id,
          organizationId,
          userId,
          email,
          invitedBy: actor.userId,
          withSignInLink,
          inviteId,
          createdAt: now,
          sentAt: null,
          attempts: 0,
          lastError: null,
        });
        this.jobs.send(INVITATION_QUEUE, { id });
      };
      for (const [email, role] of wanted) {
        let user = await this.users.findByEmail(email);
        const made = !user;
        user ??= await this.identity.createUser({ email });
        const existing = await this.members.find(organizationId, user.id);
        if (!made && !existing) {
          // Someone with an account joins only if they accept: an invite only they may use, by email.
          const inviteId = this.ids.next();
          await this.invites.insert({ id: inviteId, organizationId, role, createdBy: actor.userId, createdAt: now, email });
          await outbox(user.id, email, false, inviteId);
          invited++;
          continue;
        }
        users.push(user.id);
        const next = existing ? strongestRole(existing.role, role) : role;
        const changed = !existing || next !== existing.role;
        if (changed)
          await this.members.upsert({
            organizationId,
            userId: user.id,
            role: next,
            joinedAt: existing?.joinedAt ?? now,
            sso: existing?.sso ?? false,
            disabled: existing?.disabled ?? false,
          });
        if (input.sso && !(existing?.sso ?? false)) await this.members.markSso(organizationId, user.id);
        if (!existing) invited++;
        await this.access.forget(organizationId, user.id);
        if (!changed) continue;
        // An organization that enforces SSO refuses sign-in links: its people come in through its identity provider.
        const withSignInLink = !organization?.sso && (made || (await this.passwords.get(user.id)) === null);
        await outbox(user.id, email, withSignInLink, null);
      }
      return { users, invited };
    });
  }

  /** Sends one invitation email (the job): at most one attempt at a time; a failure is recorded and thrown (the job retries). */
  async deliver(id: string): Promise<'sent' | 'skipped'> {
    return this.uow.run(async () => {
      const row = await this.outbox.claim(id);
      if (!row) return 'skipped';
      const [organization, inviter, user] = await Promise.all([
        this.organizations.findById(row.organizationId),
        this.users.findById(row.invitedBy),
        this.users.findById(row.userId),
      ]);
      if (!organization || !user) throw new NotFoundError('Invitation', id);
      const app = this.settings.appUrl.replace(/\/+$/, '');
      let link = row.inviteId ? `${app}/o/${organization.id}/join/${row.inviteId}` : `${app}/o/${organization.id}`;
      let expiresAt: Date | undefined;
      if (row.withSignInLink) {
        const issued = await this.sessions.issueLink(user.id, INVITATION_LINK_MS);
        link = `${app}/sign-in/link#${issued.token}`;
        expiresAt = issued.expiresAt;
      }
      const message = invitationMessage({
        to: row.email,
        inviter: inviter?.displayName ?? 'Someone',
        organization: organization.title,
        link,
        expiresAt,
        accept: row.inviteId !== null,
      });
      try {
        await this.mailer.send(message);
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        this.logger.warn(`invitation ${id} to ${row.email}: ${error}`);
        await this.outbox.markFailed(id, error);
        return 'skipped';
      }
      await this.outbox.markSent(id, this.clock.now());
      return 'sent';
    });
  }

  /** Sends again what a lost job or a failed attempt left unsent. */
  async sweep(): Promise<number> {
    const ids = await this.outbox.unsent(new Date(this.clock.now().getTime() - SWEEP_AFTER_MS), 100);
    let sent = 0;
    for (const id of ids) if ((await this.deliver(id)) === 'sent') sent++;
    return sent;
  }
}
