import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, RequestLinks } from '@app/http-kit';
import { SitePreviewLinks } from '../application/site-preview-links';
import { SitePreviewQueryDto, SitePreviewUrlDto } from './site-preview.dto';

@ApiTags('site-preview')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites/:siteId/publishing/preview')
export class SitePreviewController {
  constructor(private readonly previews: SitePreviewLinks) {}

  @Get()
  @ApiOperation({
    operationId: 'getSitePublishingPreviewById',
    summary: "Generate a temporary preview URL for a site's published content",
    description:
      'A link (valid for an hour) that shows the site as it is now, published or not, to whoever opens it: on the ' +
      'path of `siteSpace`, or the page `target` names (a URL of the site), as a visitor with `claims` (rison; unsigned ' +
      'claims, checked against the adaptive schema). Members with the site’s read role.',
  })
  @ApiOkResponse({ type: SitePreviewUrlDto })
  async preview(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: SitePreviewQueryDto,
    @RequestLinks() links: Links,
  ): Promise<SitePreviewUrlDto> {
    return { url: await this.previews.link(actor, organizationId, siteId, q, links.origin) };
  }
}
