import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, ListOf, listEnvelope, Links, RequestLinks } from '@app/http-kit';
import { ContentSearch } from '../application/content-search';
import { pageHit, SearchPageDto, SearchQueryDto, SearchSpaceDto } from './search.dto';
import { spaceResult } from './search-presenter';

@ApiTags('search')
@ApiStandardErrors()
@Controller()
export class SearchController {
  constructor(private readonly search: ContentSearch) {}

  @Get('spaces/:spaceId/search')
  @ApiOperation({ operationId: 'searchSpaceContent', summary: 'Full-text search in the current content of a space' })
  @ApiOkResponse({ type: ListOf(SearchPageDto) })
  async searchSpace(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() q: SearchQueryDto, @RequestLinks() links: Links) {
    const { spaceId, page } = await this.search.inSpace(actor, id, q.query, q.toPageRequest());
    return listEnvelope(page, (h) => pageHit(spaceId, h, h.position, links));
  }

  @Get('orgs/:organizationId/search')
  @ApiOperation({
    operationId: 'searchOrganizationContent',
    summary: 'Full-text search in every space of an organization the caller can read',
  })
  @ApiOkResponse({ type: ListOf(SearchSpaceDto) })
  async searchOrganization(
    @CurrentActor() actor: Actor,
    @Param('organizationId') id: string,
    @Query() q: SearchQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.search.inOrganization(actor, id, q.query, q.toPageRequest());
    return listEnvelope(page, (s) => spaceResult(s, links));
  }
}
