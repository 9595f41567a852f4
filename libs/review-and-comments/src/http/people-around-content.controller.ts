import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, pageInMemory } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, ListOf, listEnvelope, ListQueryDto, Links, RequestLinks } from '@app/http-kit';
import { IdentityService, MemberDto, MembersPresenter } from '@app/organizations-and-teams';
import { ChangeRequestsService } from '../application/change-requests.service';
import { CommentsService, Where } from '../application/comments.service';
import { ChangeRequestUserContributorDto } from './comment.dto';
import { userDtos } from './user-dtos';

/**
 * The people around content, for whoever may read it: the official `listCommentersInSpace` and
 * `listCommentersInChangeRequest` (the members who posted a comment or a reply there, as `OrganizationMember`,
 * in the order they first posted; someone who has left the organization is not listed, their comments still
 * name them) and `getContributorsByChangeRequestId` (who wrote into a change request and who commented on it).
 */
@ApiTags('comments')
@ApiStandardErrors()
@Controller('spaces/:spaceId')
export class PeopleAroundContentController {
  constructor(
    private readonly comments: CommentsService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly members: MembersPresenter,
    private readonly identity: IdentityService,
  ) {}

  private async commenters(actor: Actor, where: Where, q: ListQueryDto, links: Links) {
    const { organizationId, commenters } = await this.comments.commenters(actor, where);
    const ids = commenters.map((c) => c.userId);
    const members = await this.members.organizationMembers(actor, organizationId, ids, links);
    // The key is the position of their first post (fixed width): it survives the cursor, and deleting someone
    // else's posts meanwhile does not shift a page.
    const listed = commenters.flatMap((c) => {
      const member = members.get(c.userId);
      return member ? [{ key: String(c.first).padStart(20, '0'), member }] : [];
    });
    return listEnvelope(
      pageInMemory(listed, (c) => c.key, q.toPageRequest()),
      (c) => c.member,
    );
  }

  @Get('commenters')
  @ApiOperation({
    operationId: 'listCommentersInSpace',
    summary: 'List the members who commented on the space (not on its change requests)',
  })
  @ApiOkResponse({ type: ListOf(MemberDto) })
  async inSpace(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
    return this.commenters(actor, { spaceId }, q, links);
  }

  @Get('change-requests/:changeRequestId/commenters')
  @ApiOperation({ operationId: 'listCommentersInChangeRequest', summary: 'List the members who commented on a change request' })
  @ApiOkResponse({ type: ListOf(MemberDto) })
  async inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.commenters(actor, { spaceId, changeRequest: changeRequestId }, q, links);
  }

  @Get('change-requests/:changeRequestId/contributors')
  @ApiOperation({
    operationId: 'getContributorsByChangeRequestId',
    summary:
      'Who wrote into the change request (edit: its own edits, how many, when last) and who commented on it (comment: comments and replies), the latest first',
  })
  @ApiOkResponse({ type: ListOf(ChangeRequestUserContributorDto) })
  async contributors(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @RequestLinks() links: Links,
  ) {
    const editors = await this.changeRequests.editors(actor, spaceId, changeRequestId);
    const { commenters } = await this.comments.commenters(actor, { spaceId, changeRequest: changeRequestId });
    const all = [
      ...editors.map((e) => ({ ...e, actionType: 'edit' as const })),
      ...commenters.map((c) => ({ ...c, actionType: 'comment' as const })),
    ].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.actionType < b.actionType ? 1 : -1));
    const user = userDtos(await this.identity.usersByIds(all.map((c) => c.userId)), links);
    // The official operation has no pages: one page holds them all (a change request's people are few).
    return listEnvelope({ items: all, count: all.length, next: undefined }, (c) => ({
      updatedAt: c.updatedAt.toISOString(),
      count: c.count,
      user: user(c.userId),
      actionType: c.actionType,
    }));
  }
}
