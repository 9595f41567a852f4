import type { Page, PageRequest, Role } from '@app/shared-kernel';

/** A link invite to an organization: whoever has its id (a random secret) can join with `role`. */
export interface Invite {
  id: string;
  organizationId: string;
  /** null: whoever joins is a guest. */
  role: Role | null;
  createdBy: string;
  createdAt: Date;
  /**
   * An email invitation's invite (inviteUsersToOrganization, for someone who has an account): only the user with
   * this email may use it, once, within 30 days, whether or not the organization allows invite links; not listed
   * among the links.
   */
  email?: string | null;
}

/** How long an email invitation's invite may be accepted; older, it is as if there were none. */
export const EMAIL_INVITE_MS = 30 * 24 * 60 * 60_000;

/** Whether an email invitation's invite can no longer be accepted (link invites do not expire). */
export function emailInviteExpired(invite: Invite, now: Date): boolean {
  return !!invite.email && now.getTime() - invite.createdAt.getTime() >= EMAIL_INVITE_MS;
}

export abstract class InviteRepository {
  abstract list(organizationId: string, page: PageRequest): Promise<Page<Invite>>;
  abstract find(organizationId: string, id: string): Promise<Invite | null>;
  abstract insert(invite: Invite): Promise<void>;
  abstract updateRole(organizationId: string, id: string, role: Role | null): Promise<void>;
  abstract delete(organizationId: string, id: string): Promise<boolean>;
}
