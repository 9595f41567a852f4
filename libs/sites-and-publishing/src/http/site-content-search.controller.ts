import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, listEnvelope, ListOf, ListQueryDto, Links, ReadsOnly, RequestLinks } from '@app/http-kit';
import { ContentSearch, SearchSpaceDto, spaceResult } from '@app/spaces-and-content';
import { SitesService } from '../application/sites.service';
import { SiteContentSearchDto } from './site-content-search.dto';

@ApiTags('sites')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteContentSearchController {
  constructor(
    private readonly sites: SitesService,
    private readonly search: ContentSearch,
  ) {}

  /**
   * The official searchSiteContent: the full-text search of the spaces the site shows (their current content,
   * as the published site shows it), in the scope asked, among those the caller may read; members with the
   * site's read role.
   */
  @ReadsOnly()
  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'searchSiteContent',
    summary: 'Full-text search across all content in a site',
    description:
      'Searches the spaces the site shows, in `scope`: `default` (each section’s default site space, and `currentSiteSpace`), ' +
      '`specific` (the site spaces listed) or `all`. Without a scope (or a deprecated `mode`), the default scope. ' +
      'Results are grouped by space, best first.',
  })
  @ApiOkResponse({ type: ListOf(SearchSpaceDto) })
  async searchSite(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() list: ListQueryDto,
    @Body() body: SiteContentSearchDto,
    @RequestLinks() links: Links,
  ) {
    const spaces = await this.sites.searchedSpaces(actor, organizationId, siteId, body);
    const page = await this.search.inSpaces(actor, organizationId, spaces, body.query, list.toPageRequest());
    return listEnvelope(page, (s) => spaceResult(s, links));
  }
}
