import { Body, Controller, Get, HttpCode, OnModuleInit, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiPreconditionFailedResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { IdentityService, OrganizationsService, toOrganizationDto, User } from '@app/organizations-and-teams';
import { Actor, ApiStandardErrors, Clock, CurrentActor, ErrorDto, ListOf, listEnvelope, ListQueryDto, Links, NotFoundError, RequestLinks } from '@app/shared-kernel';
import {
  ContentQueryDto,
  ContentService,
  PageQueryDto,
  pagesDto,
  PagesDto,
  pageWithBody,
  refToUrl,
  relativeRefs,
  RevisionDto,
  revisionDto,
  RevisionPageDto,
  RevisionOrigins,
  LinksService,
  linksResponse,
  backlinksResponse,
  LinksQueryDto,
  LinksResponseDto,
  ContentLocationDto,
  LocationContext,
  toSpaceDto,
  FilesService,
  fileDto,
  filesPage,
  RevisionFileDto,
} from '@app/spaces-and-content';
import { ChangeRequestsService, ChangeRequestView } from '../application/change-requests.service';
import {
  ChangeRequestDto,
  ContentChangesDto,
  ContentChangesQueryDto,
  CreateChangeRequestDto,
  ListChangeRequestsQueryDto,
  MergeResultDto,
  toChangeRequestDto,
  UpdateChangeRequestDto,
  UpdateResultDto,
} from './change-request.dto';

@ApiTags('change-requests')
@ApiStandardErrors()
@Controller('spaces/:spaceId/change-requests')
export class ChangeRequestsController implements OnModuleInit {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly content: ContentService,
    private readonly identity: IdentityService,
    private readonly origins: RevisionOrigins,
    private readonly linksService: LinksService,
    private readonly organizations: OrganizationsService,
    private readonly filesService: FilesService,
    private readonly clock: Clock,
  ) {}

  /** Merge revisions of the content engine show the change request they came from (`mergedFrom`). */
  onModuleInit(): void {
    this.origins.register(async (actor, spaceId, changeRequestId, links) => {
      // A change request the caller cannot see (or gone) is simply not shown; any other failure is a failure.
      try {
        return await this.dto(await this.changeRequests.view(actor, spaceId, changeRequestId), links);
      } catch (e) {
        if (e instanceof NotFoundError) return null;
        throw e;
      }
    });
  }

  /** Users named by change requests, loaded once per response. */
  private users(views: ChangeRequestView[]): Promise<Map<string, User>> {
    return this.identity.usersByIds(views.flatMap((v) => [v.changeRequest.createdBy, v.changeRequest.mergedBy].filter((x): x is string => !!x)));
  }

  private async dto(v: ChangeRequestView, links: Links): Promise<ChangeRequestDto> {
    return toChangeRequestDto(v.changeRequest, this.changeRequests.outdated(v), await this.users([v]), links);
  }

  @Get()
  @ApiOperation({ operationId: 'listChangeRequestsForSpace', summary: 'List change requests (status open by default), newest first' })
  @ApiOkResponse({ type: ListOf(ChangeRequestDto) })
  async list(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() q: ListChangeRequestsQueryDto, @RequestLinks() links: Links) {
    const page = await this.changeRequests.list(
      actor,
      spaceId,
      { status: q.status, creator: q.creator, contributor: q.contributor, requestedReviewer: q.requestedReviewer, conversationsIssuesCluster: q.conversationsIssuesCluster },
      q.toPageRequest(),
    );
    const users = await this.users(page.items);
    return listEnvelope(page, (v) => toChangeRequestDto(v.changeRequest, this.changeRequests.outdated(v), users, links));
  }

  @Post()
  @ApiOperation({ operationId: 'createChangeRequest', summary: 'Create a change request from the current content' })
  @ApiCreatedResponse({ type: ChangeRequestDto })
  async create(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Body() body: CreateChangeRequestDto, @RequestLinks() links: Links, @Res({ passthrough: true }) res: Response) {
    const dto = await this.dto(await this.changeRequests.create(actor, spaceId, body), links);
    res.location(dto.urls.location);
    return dto;
  }

  @Get(':changeRequestId')
  @ApiOperation({ operationId: 'getChangeRequestById', summary: 'Get a change request by id or number' })
  @ApiOkResponse({ type: ChangeRequestDto })
  async get(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string, @RequestLinks() links: Links) {
    return this.dto(await this.changeRequests.view(actor, spaceId, ref), links);
  }

  @Patch(':changeRequestId')
  @ApiOperation({ operationId: 'updateChangeRequestById', summary: 'Update subject, description or status' })
  @ApiOkResponse({ type: ChangeRequestDto })
  async update(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string, @Body() body: UpdateChangeRequestDto, @RequestLinks() links: Links) {
    return this.dto(await this.changeRequests.update(actor, spaceId, ref, body), links);
  }

  @Post(':changeRequestId/merge')
  @HttpCode(200)
  @ApiOperation({ operationId: 'mergeChangeRequest', summary: 'Merge the change request into the space (three-way merge)' })
  @ApiOkResponse({ type: MergeResultDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Conflicts (listed in error.conflicts), or already merged' })
  @ApiPreconditionFailedResponse({ type: ErrorDto, description: 'The space is locked' })
  merge(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string): Promise<MergeResultDto> {
    return this.changeRequests.merge(actor, spaceId, ref);
  }

  @Post(':changeRequestId/update')
  @HttpCode(200)
  @ApiOperation({ operationId: 'updateChangeRequest', summary: "Bring the space's main content into the change request" })
  @ApiOkResponse({ type: UpdateResultDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Conflicts (listed in error.conflicts)' })
  updateFromMain(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string): Promise<UpdateResultDto> {
    return this.changeRequests.updateFromMain(actor, spaceId, ref);
  }

  @Post(':changeRequestId/content')
  @HttpCode(200)
  @ApiOperation({ operationId: 'updateChangeRequestContent', summary: 'Write pages into the change request: 1 to 50 changes, all or nothing' })
  @ApiOkResponse({ type: ChangeRequestDto })
  @ApiPreconditionFailedResponse({ type: ErrorDto, description: 'The space is locked' })
  async writeContent(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Query() q: ContentChangesQueryDto,
    @Body() body: ContentChangesDto,
    @RequestLinks() links: Links,
  ) {
    const { view, outcomes, insertedFiles } = await this.changeRequests.writeContent(actor, spaceId, ref, body.changes);
    const changeRequest = await this.dto(view, links);
    if (q.compat !== 'false') return changeRequest;
    const pageRef = (id: string) => ({ object: 'page', id, urls: { location: links.api(`/spaces/${spaceId}/change-requests/${view.changeRequest.id}/content/page/${id}`) } });
    return {
      changeRequest,
      changes: outcomes.map((o) => (o.object === 'deleted_page' ? { object: o.object, page: o.page } : { object: o.object, ...(o.ref ? { ref: o.ref } : {}), page: pageRef(o.page) })),
      insertedFiles: insertedFiles.map((f) => fileDto(f, view.space.organizationId, this.filesService, links, this.clock.now().getTime())),
    };
  }

  @Get(':changeRequestId/content/files')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'listFilesInChangeRequestById', summary: 'The files of a change request' })
  @ApiOkResponse({ type: ListOf(RevisionFileDto) })
  async files(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const rev = await this.content.revision(v.space.id, v.changeRequest.revision);
    return filesPage(rev.files, q, (f) => fileDto(f, v.space.organizationId, this.filesService, links, this.clock.now().getTime()));
  }

  @Get(':changeRequestId/content/files/:fileId')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'getFileInChangeRequestById', summary: 'A file of a change request' })
  @ApiOkResponse({ type: RevisionFileDto })
  async file(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string, @Param('fileId') fileId: string, @RequestLinks() links: Links) {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const rev = await this.content.revision(v.space.id, v.changeRequest.revision);
    const file = rev.files.find((f) => f.id === fileId);
    if (!file) throw new NotFoundError('File', fileId);
    return fileDto(file, v.space.organizationId, this.filesService, links, this.clock.now().getTime());
  }

  @Get(':changeRequestId/content/files/:fileId/backlinks')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listChangeRequestFileBacklinks', summary: 'The pages of a change request that link to or show a file' })
  @ApiOkResponse({ type: ListOf(ContentLocationDto) })
  async fileBacklinks(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('fileId') fileId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const page = await this.linksService.fileBacklinks(v.space, v.changeRequest.revision, fileId, q.toPageRequest());
    return backlinksResponse(page, await this.locationContext(actor, v, links));
  }

  private async locationContext(actor: Actor, v: ChangeRequestView, links: Links): Promise<LocationContext> {
    const org = await this.organizations.get(actor, v.space.organizationId);
    return {
      organization: toOrganizationDto(org.organization, org.role, links, org.ownTeam),
      space: toSpaceDto(v.space, v.role, links),
      base: `/s/${v.space.id}/~/changes/${v.changeRequest.number}`,
      links,
    };
  }

  @Get(':changeRequestId/links')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listChangeRequestLinks', summary: 'Every link in the change request; stats.broken.changeRequest counts the ones it broke' })
  @ApiOkResponse({ type: LinksResponseDto })
  async links(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string, @Query() q: LinksQueryDto, @RequestLinks() links: Links) {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const base = v.changeRequest.revisionMergedAncestor ?? v.changeRequest.revisionInitial;
    const page = await this.linksService.list(v.space, v.changeRequest.revision, { appOrigin: links.app(''), status: q.status, base }, q.toPageRequest());
    return linksResponse(page, await this.locationContext(actor, v, links));
  }

  @Get(':changeRequestId/content/page/:pageId/links')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listChangeRequestPageLinks', summary: 'The links of a page of the change request' })
  @ApiOkResponse({ type: LinksResponseDto })
  async pageLinks(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('pageId') pageId: string,
    @Query() q: LinksQueryDto,
    @RequestLinks() links: Links,
  ) {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const base = v.changeRequest.revisionMergedAncestor ?? v.changeRequest.revisionInitial;
    const page = await this.linksService.list(v.space, v.changeRequest.revision, { appOrigin: links.app(''), status: q.status, fromPage: pageId, base }, q.toPageRequest());
    return linksResponse(page, await this.locationContext(actor, v, links));
  }

  @Get(':changeRequestId/content/page/:pageId/backlinks')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listChangeRequestPageBacklinks', summary: 'The pages of the change request that link to a page' })
  @ApiOkResponse({ type: ListOf(ContentLocationDto) })
  async pageBacklinks(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('pageId') pageId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const page = await this.linksService.backlinks(v.space, v.changeRequest.revision, pageId, q.toPageRequest());
    return backlinksResponse(page, await this.locationContext(actor, v, links));
  }

  @Get(':changeRequestId/content')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'getRevisionOfChangeRequestById', summary: 'The head revision of a change request' })
  @ApiOkResponse({ type: RevisionDto })
  async revision(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string, @Query() _q: ContentQueryDto, @RequestLinks() links: Links) {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const rev = await this.content.revision(v.space.id, v.changeRequest.revision);
    return revisionDto(rev, `/s/${v.space.id}/~/changes/${v.changeRequest.number}`, links, await this.origins.mergedFrom(actor, v.space.id, rev.mergedFrom, links));
  }

  @Get(':changeRequestId/content/pages')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'listPagesInChangeRequest', summary: 'The pages of a change request' })
  @ApiOkResponse({ type: PagesDto })
  async pages(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string, @Query() _q: ContentQueryDto, @RequestLinks() links: Links): Promise<PagesDto> {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const rev = await this.content.revision(v.space.id, v.changeRequest.revision);
    return { pages: pagesDto(rev.tree, `/s/${v.space.id}/~/changes/${v.changeRequest.number}`, links) };
  }

  @Get(':changeRequestId/content/page/:pageId')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'getPageInChangeRequestById', summary: 'A page of a change request, with its body' })
  @ApiOkResponse({ type: RevisionPageDto })
  async page(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('pageId') pageId: string,
    @Query() q: PageQueryDto,
    @RequestLinks() links: Links,
  ) {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const { revision, node, path, document } = await this.content.page(v.space, v.changeRequest.revision, pageId);
    const refs = q['format.markdown.refs'] === 'stable' ? refToUrl : relativeRefs(revision.tree, path);
    return pageWithBody(node, path, `/s/${v.space.id}/~/changes/${v.changeRequest.number}`, links, document, q.format ?? 'document', refs);
  }
}
