import { Injectable } from '@nestjs/common';
import { Actor } from '@app/shared-kernel';
import { Links } from '@app/http-kit';
import { MembersService } from '../application/members.service';
import { MemberDto, toMemberDto } from './people.dto';

export { MemberDto } from './people.dto';

/**
 * Members as the official `OrganizationMember`, for other contexts' lists of people (the commenters of a space
 * or a change request). The context that asks checks the caller may read what names them; members' details
 * are for the organization's members only (a guest gets 403, as from the member list).
 */
@Injectable()
export class MembersPresenter {
  constructor(private readonly members: MembersService) {}

  /** Each of these users who is a member of the organization, by id (a user who left it is not there). */
  async organizationMembers(actor: Actor, organizationId: string, userIds: string[], links: Links): Promise<Map<string, MemberDto>> {
    const views = await this.members.viewsOf(actor, organizationId, userIds);
    return new Map([...views].map(([id, v]) => [id, toMemberDto(v, links)]));
  }
}
