import { Injectable } from '@nestjs/common';
import {
  Actor,
  Clock,
  ForbiddenError,
  IdGenerator,
  NotFoundError,
  Page,
  PageRequest,
  Role,
  strongestRole,
  reaches,
} from '@app/shared-kernel';
import { emailInviteExpired, Invite, InviteRepository } from '../domain/invite';
import { MemberRepository } from '../domain/member';
import { UserRepository } from '../domain/user';
import { OrganizationRepository } from '../domain/organization';
import { Access } from '@app/access';

/** Link invites: admins create them; anyone holding an invite's id joins with its role. */
@Injectable()
export class InvitesService {
  constructor(
    private readonly invites: InviteRepository,
    private readonly organizations: OrganizationRepository,
    private readonly members: MemberRepository,
    private readonly users: UserRepository,
    private readonly access: Access,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  private async requireEnabled(organizationId: string): Promise<void> {
    const org = await this.organizations.findById(organizationId);
    if (!org) throw new NotFoundError('Organization', organizationId);
    if (!org.inviteLinks) throw new ForbiddenError('Invite links are disabled for this organization (inviteLinks: false)');
  }

  async list(actor: Actor, organizationId: string, page: PageRequest): Promise<Page<Invite>> {
    await this.access.require(organizationId, actor, 'admin');
    return this.invites.list(organizationId, page);
  }

  async get(actor: Actor, organizationId: string, inviteId: string): Promise<Invite> {
    await this.access.require(organizationId, actor, 'admin');
    const invite = await this.invites.find(organizationId, inviteId);
    if (!invite) throw new NotFoundError('Invite', inviteId);
    return invite;
  }

  async create(actor: Actor, organizationId: string, role: Role | null): Promise<Invite> {
    await this.access.require(organizationId, actor, 'admin');
    await this.requireEnabled(organizationId);
    const invite: Invite = { id: this.ids.next(), organizationId, role, createdBy: actor.userId, createdAt: this.clock.now() };
    await this.invites.insert(invite);
    return invite;
  }

  async updateRole(actor: Actor, organizationId: string, inviteId: string, role: Role | null): Promise<Invite> {
    const invite = await this.get(actor, organizationId, inviteId);
    await this.invites.updateRole(organizationId, inviteId, role);
    return { ...invite, role };
  }

  async delete(actor: Actor, organizationId: string, inviteId: string): Promise<'deleted' | 'absent'> {
    const role = await this.access.roleOf(organizationId, actor);
    if (role === null) return 'absent';
    await this.access.require(organizationId, actor, 'admin');
    return (await this.invites.delete(organizationId, inviteId)) ? 'deleted' : 'absent';
  }

  /** Joins (or raises the caller's role to) the invite's role (null: as a guest). Never lowers an existing role. */
  async join(actor: Actor, organizationId: string, inviteId: string): Promise<void> {
    const invite = reaches(actor, organizationId) ? await this.invites.find(organizationId, inviteId) : null;
    if (!invite) throw new NotFoundError('Invite', inviteId);
    if (invite.email) {
      // An email invitation's invite: its addressee's alone (anyone else: as if there were none), used once, within 30 days.
      if ((await this.users.findById(actor.userId))?.email !== invite.email) throw new NotFoundError('Invite', inviteId);
      if (emailInviteExpired(invite, this.clock.now())) throw new NotFoundError('Invite (expired)', inviteId);
      // Once: of two accepts at the same moment, the one whose delete found nothing is told there is none.
      if (!(await this.invites.delete(organizationId, invite.id))) throw new NotFoundError('Invite', inviteId);
    } else await this.requireEnabled(organizationId);
    const existing = await this.members.find(organizationId, actor.userId);
    const role = strongestRole(existing?.role, invite.role);
    await this.members.upsert({
      organizationId,
      userId: actor.userId,
      role,
      joinedAt: existing?.joinedAt ?? this.clock.now(),
      sso: existing?.sso ?? false,
      disabled: existing?.disabled ?? false,
    });
    await this.access.forget(organizationId, actor.userId);
  }

  /** `redundant`: the caller already has at least the invite's role (a guest invite: any membership). */
  async redundantFor(actor: Actor, invite: Invite): Promise<boolean> {
    const membership = await this.access.membershipOf(invite.organizationId, actor);
    if (membership === null) return false;
    return invite.role === null || (membership !== 'guest' && strongestRole(membership, invite.role) === membership);
  }
}
