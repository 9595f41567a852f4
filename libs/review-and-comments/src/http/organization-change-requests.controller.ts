import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, Clock } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, ListOf, listEnvelope, Links, RequestLinks } from '@app/http-kit';
import { ChangeRequestsService } from '../application/change-requests.service';
import { ChangeRequestPresenter } from './change-request-presenter';
import { ChangeRequestDto, ListOrganizationChangeRequestsQueryDto } from './change-request.dto';
import { RenderedLists } from '@app/http-kit';

@ApiTags('change-requests')
@ApiStandardErrors()
@Controller('orgs/:organizationId/change-requests')
export class OrganizationChangeRequestsController {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly presenter: ChangeRequestPresenter,
    private readonly cache: RenderedLists,
    private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listChangeRequestsForOrganization',
    summary: "List the change requests of the organization's spaces the caller can read (open by default, most recently updated first)",
  })
  @ApiOkResponse({ type: ListOf(ChangeRequestDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListOrganizationChangeRequestsQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    const minute = Math.floor(this.clock.now().getTime() / 60_000);
    const key = [
      await this.changeRequests.organizationListKey(actor, organizationId),
      JSON.stringify(q),
      links.origin,
      links.appOrigin,
      minute,
    ];
    res.type('application/json').send(await this.cache.get(key.join(' '), () => this.render(actor, organizationId, q, links)));
  }

  private async render(actor: Actor, organizationId: string, q: ListOrganizationChangeRequestsQueryDto, links: Links) {
    const page = await this.changeRequests.listInOrganization(
      actor,
      organizationId,
      {
        statuses: q.status,
        creator: q.creator,
        contributor: q.contributor,
        requestedReviewer: q.requestedReviewer,
        space: q.space,
        conversationsIssuesCluster: q.conversationsIssuesCluster,
        unlinked: [q.site, q.topic, q.styleguideRun].some((x) => x !== undefined),
        orderBy: q.orderBy,
      },
      q.toPageRequest(),
    );
    const users = await this.presenter.users(page.items);
    return listEnvelope(page, (v) => this.presenter.dtoWith(v, users, links));
  }
}
