import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, ApiStandardErrors, CurrentActor, ListOf, listEnvelope, Links, NotFoundError, RequestLinks } from '@app/shared-kernel';
import { SearchService } from '../application/search.service';
import { SpacesService } from '../application/spaces.service';
import { pageHit, SearchPageDto, SearchQueryDto, SearchSpaceDto } from './search.dto';
import { ContentAccess } from '../application/content-access';

@ApiTags('search')
@ApiStandardErrors()
@Controller()
export class SearchController {
  constructor(
    private readonly spaces: SpacesService,
    private readonly search: SearchService,
    private readonly access: ContentAccess,
  ) {}

  @Get('spaces/:spaceId/search')
  @ApiOperation({ operationId: 'searchSpaceContent', summary: 'Full-text search in the current content of a space' })
  @ApiOkResponse({ type: ListOf(SearchPageDto) })
  async searchSpace(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() q: SearchQueryDto, @RequestLinks() links: Links) {
    const { space } = await this.spaces.get(actor, id);
    if (space.deletedAt) throw new NotFoundError('Space', id);
    const page = await this.search.searchSpace(space, q.query, q.toPageRequest());
    return listEnvelope(page, (h) => pageHit(space.id, h, h.position, links));
  }

  @Get('orgs/:organizationId/search')
  @ApiOperation({ operationId: 'searchOrganizationContent', summary: 'Full-text search in every space of an organization the caller can read' })
  @ApiOkResponse({ type: ListOf(SearchSpaceDto) })
  async searchOrganization(@CurrentActor() actor: Actor, @Param('organizationId') id: string, @Query() q: SearchQueryDto, @RequestLinks() links: Links) {
    await this.access.memberRole(id, actor, 'Organization', id);
    const page = await this.search.searchOrganization(id, q.query, q.toPageRequest());
    return listEnvelope(page, (s) => ({
      type: 'space' as const,
      id: s.spaceId,
      title: s.spaceTitle,
      score: Number(s.rank),
      pages: s.pages.map((p, i) => pageHit(s.spaceId, p, i + 1, links)),
    }));
  }
}
