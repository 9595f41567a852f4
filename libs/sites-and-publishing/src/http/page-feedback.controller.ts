import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, listEnvelope, ListOf } from '@app/http-kit';
import { PageFeedbackService } from '../application/page-feedback.service';
import { ListPageFeedbackQueryDto, PageFeedbackDto, toPageFeedbackDto } from './page-feedback.dto';

/** The feedback visitors gave on a site's pages (a Quire extension: the official API has it only as insights events). */
@ApiTags('sites')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites/:siteId/page-feedback')
export class PageFeedbackController {
  constructor(private readonly feedback: PageFeedbackService) {}

  @Get()
  @ApiOperation({
    operationId: 'listSitePageFeedback',
    summary: 'List the feedback visitors gave on the site’s pages, newest first (role read; a Quire extension)',
  })
  @ApiOkResponse({ type: ListOf(PageFeedbackDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: ListPageFeedbackQueryDto,
  ) {
    const { rating, spaceId, pageId, commented } = q;
    const page = await this.feedback.list(actor, organizationId, siteId, { rating, spaceId, pageId, commented }, q.toPageRequest());
    return listEnvelope(page, toPageFeedbackDto);
  }
}
