import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrganizationsService, toOrganizationDto } from '@app/organizations-and-teams';
import { Actor, ApiStandardErrors, Clock, CurrentActor, Links, ListOf, ListQueryDto, NotFoundError, RequestLinks, TtlCache } from '@app/shared-kernel';
import { LinksService } from '../application/links.service';
import { ContentAccess } from '../application/content-access';
import { FilesService } from '../application/files.service';
import { fileDto, RevisionFileDto } from './files.dto';
import { filesPage } from './files-page';
import { backlinksResponse, ContentLocationDto, linksResponse, LinksQueryDto, LinksResponseDto, LocationContext } from './links.dto';
import { toSpaceDto } from './content-response.dto';
import { ContentService } from '../application/content.service';
import { SpacesService } from '../application/spaces.service';
import type { Space } from '../domain/space';
import { ContentQueryDto, PageQueryDto, pagesDto, PagesDto, pageWithBody, RevisionDto, revisionDto, RevisionPageDto, relativeRefs } from './revision.dto';
import { refToUrl } from '../domain/content/markdown';
import { RevisionOrigins } from './revision-origins';

/** Reads of a space's content: its current revision, or any revision by id (spec part 1 §4.4). */
@ApiTags('space-content')
@ApiStandardErrors()
@Controller('spaces/:spaceId')
export class ContentController {
  constructor(
    private readonly spaces: SpacesService,
    private readonly content: ContentService,
    private readonly origins: RevisionOrigins,
    private readonly linksService: LinksService,
    private readonly organizations: OrganizationsService,
    private readonly filesService: FilesService,
    private readonly clock: Clock,
    private readonly access: ContentAccess,
  ) {}

  private async revisionBody(actor: Actor, space: Space, revisionId: string, links: Links) {
    const rev = await this.content.revision(space.id, revisionId);
    return revisionDto(rev, `/s/${space.id}`, links, await this.origins.mergedFrom(actor, space.id, rev.mergedFrom, links));
  }

  private async live(actor: Actor, spaceId: string): Promise<Space> {
    const { space } = await this.spaces.get(actor, spaceId);
    if (space.deletedAt) throw new NotFoundError('Space', spaceId);
    return space;
  }

  @Get('content')
  @ApiOperation({ operationId: 'getCurrentRevision', summary: 'Get the current revision of a space' })
  @ApiOkResponse({ type: RevisionDto })
  async current(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() _q: ContentQueryDto, @RequestLinks() links: Links) {
    const space = await this.live(actor, id);
    return this.revisionBody(actor, space, space.revision, links);
  }

  /** Rendered page trees by revision and origin: revisions are immutable, so the JSON never goes stale. */
  private readonly renderedTrees = new TtlCache<string, string>(10 * 60_000, 32);

  @Get('content/pages')
  @ApiOperation({ operationId: 'listPages', summary: 'List the pages of the current revision (tree)' })
  @ApiOkResponse({ type: PagesDto })
  async pages(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() _q: ContentQueryDto, @RequestLinks() links: Links, @Res() res: Response): Promise<void> {
    const space = await this.live(actor, id);
    const key = `${space.revision} ${links.origin} ${links.appOrigin}`;
    let body = this.renderedTrees.get(key, Date.now());
    if (!body) {
      body = JSON.stringify({ pages: pagesDto((await this.content.revision(space.id, space.revision)).tree, `/s/${space.id}`, links) });
      this.renderedTrees.set(key, body, Date.now());
    }
    res.type('application/json').send(body);
  }

  @Get('content/page/:pageId')
  @ApiOperation({ operationId: 'getPageById', summary: 'Get a page of the current revision, with its body as a document or markdown' })
  @ApiOkResponse({ type: RevisionPageDto })
  async page(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Param('pageId') pageId: string, @Query() q: PageQueryDto, @RequestLinks() links: Links) {
    const space = await this.live(actor, id);
    return this.pageIn(space, space.revision, pageId, q, links);
  }

  @Get('revisions/:revisionId')
  @ApiOperation({ operationId: 'getRevisionById', summary: 'Get a revision of a space' })
  @ApiOkResponse({ type: RevisionDto })
  async revision(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Param('revisionId') revisionId: string, @Query() _q: ContentQueryDto, @RequestLinks() links: Links) {
    const space = await this.live(actor, id);
    return this.revisionBody(actor, space, revisionId, links);
  }

  @Get('revisions/:revisionId/pages')
  @ApiOperation({ operationId: 'listPagesInRevisionById', summary: 'List the pages of a revision' })
  @ApiOkResponse({ type: PagesDto })
  async revisionPages(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Query() _q: ContentQueryDto,
    @RequestLinks() links: Links,
  ): Promise<PagesDto> {
    const space = await this.live(actor, id);
    return { pages: pagesDto((await this.content.revision(space.id, revisionId)).tree, `/s/${space.id}`, links) };
  }

  @Get('revisions/:revisionId/page/:pageId')
  @ApiOperation({ operationId: 'getPageInRevisionById', summary: 'Get a page of a revision' })
  @ApiOkResponse({ type: RevisionPageDto })
  async revisionPage(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
    @Query() q: PageQueryDto,
    @RequestLinks() links: Links,
  ) {
    const space = await this.live(actor, id);
    return this.pageIn(space, revisionId, pageId, q, links);
  }

  /** The organization and space objects that official ContentLocations embed. */
  private async locationContext(actor: Actor, space: Space, base: string, links: Links): Promise<LocationContext> {
    const org = await this.organizations.get(actor, space.organizationId);
    const role = await this.access.spaceRole(space, actor);
    return { organization: toOrganizationDto(org.organization, org.role, links, org.ownTeam), space: toSpaceDto(space, role, links), base, links };
  }

  @Get('content/files')
  @ApiOperation({ operationId: 'listFiles', summary: 'The files of the current revision' })
  @ApiOkResponse({ type: ListOf(RevisionFileDto) })
  async files(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
    const space = await this.live(actor, id);
    const rev = await this.content.revision(space.id, space.revision);
    return filesPage(rev.files, q, (f) => fileDto(f, space.organizationId, this.filesService, links, this.clock.now().getTime()));
  }

  @Get('content/files/:fileId')
  @ApiOperation({ operationId: 'getFileInRevisionById', summary: 'A file of the current revision, with a signed download URL' })
  @ApiOkResponse({ type: RevisionFileDto })
  async file(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Param('fileId') fileId: string, @Query() _q: ContentQueryDto, @RequestLinks() links: Links) {
    const space = await this.live(actor, id);
    const rev = await this.content.revision(space.id, space.revision);
    const file = rev.files.find((f) => f.id === fileId);
    if (!file) throw new NotFoundError('File', fileId);
    return fileDto(file, space.organizationId, this.filesService, links, this.clock.now().getTime());
  }

  @Get('content/files/:fileId/backlinks')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listSpaceFileBacklinks', summary: 'The pages that link to or show a file' })
  @ApiOkResponse({ type: ListOf(ContentLocationDto) })
  async fileBacklinks(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Param('fileId') fileId: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
    const space = await this.live(actor, id);
    const page = await this.linksService.fileBacklinks(space, space.revision, fileId, q.toPageRequest());
    return backlinksResponse(page, await this.locationContext(actor, space, `/s/${space.id}`, links));
  }

  @Get('links')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listSpaceLinks', summary: 'Every link in the current content, with its status and where it appears' })
  @ApiOkResponse({ type: LinksResponseDto })
  async spaceLinks(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() q: LinksQueryDto, @RequestLinks() links: Links) {
    const space = await this.live(actor, id);
    const page = await this.linksService.list(space, space.revision, { appOrigin: links.app(''), status: q.status }, q.toPageRequest());
    return linksResponse(page, await this.locationContext(actor, space, `/s/${space.id}`, links));
  }

  @Get('content/page/:pageId/links')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listSpacePageLinks', summary: 'The links of a page, with their status' })
  @ApiOkResponse({ type: LinksResponseDto })
  async pageLinks(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Param('pageId') pageId: string, @Query() q: LinksQueryDto, @RequestLinks() links: Links) {
    const space = await this.live(actor, id);
    const page = await this.linksService.list(space, space.revision, { appOrigin: links.app(''), status: q.status, fromPage: pageId }, q.toPageRequest());
    return linksResponse(page, await this.locationContext(actor, space, `/s/${space.id}`, links));
  }

  @Get('content/page/:pageId/backlinks')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listSpacePageBacklinks', summary: 'The pages that link to a page' })
  @ApiOkResponse({ type: ListOf(ContentLocationDto) })
  async pageBacklinks(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Param('pageId') pageId: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
    const space = await this.live(actor, id);
    const page = await this.linksService.backlinks(space, space.revision, pageId, q.toPageRequest());
    return backlinksResponse(page, await this.locationContext(actor, space, `/s/${space.id}`, links));
  }

  private async pageIn(space: Space, revisionId: string, pageId: string, q: PageQueryDto, links: Links) {
    const { revision, node, path, document } = await this.content.page(space, revisionId, pageId);
    const refs = q['format.markdown.refs'] === 'stable' ? refToUrl : relativeRefs(revision.tree, path);
    return pageWithBody(node, path, `/s/${space.id}`, links, document, q.format ?? 'document', refs);
  }
}
