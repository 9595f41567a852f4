import { Injectable } from '@nestjs/common';
import { Actor } from '@app/shared-kernel';
import { Links } from '@app/http-kit';
import { MembersService } from '../application/members.service';
import { MemberDto, toMemberDto } from './people.dto';

export { MemberDto } from './people.dto';

/**
 * Members as the official `OrganizationMember`, for other contexts' lists of people (the commenters of a space
 * or a change request). The caller's right to see them is checked by the context that asks: it names users it
 * shows anyway (the authors of comments the caller can read).
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
