import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiParam,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor, Clock } from '@app/shared-kernel';
import type { JsonDocument } from '@app/content-model';
import {
  ApiStandardErrors,
  CurrentActor,
  ErrorDto,
  ListOf,
  listEnvelope,
  ListQueryDto,
  Links,
  ReadsOnly,
  RequestLinks,
  WriteTransaction,
} from '@app/http-kit';
import { FilesService, RevisionPresenter, RevisionScope } from '@app/spaces-and-content';
import { ChangeRequestsService, type ChangeRequestView } from '../application/change-requests.service';
import { ExportsService } from '../application/exports.service';
import { baseOf } from '../domain/change-request';
import { ChangeRequestOrigins, ChangeRequestPresenter } from './change-request-presenter';
import {
  ChangeRequestDto,
  ContentChangesDto,
  ContentChangesQueryDto,
  CreateChangeRequestDto,
  ListChangeRequestsQueryDto,
  MergeResultDto,
  PdfQueryDto,
  PdfUrlDto,
  UpdateChangeRequestDto,
  UpdateResultDto,
} from './change-request.dto';
import {
  PagePreviewDto,
  RenderedDescriptionDto,
  RenderedPageDiffDto,
  RenderedPageDto,
  ContentLocationDto,
  ChangesQueryDto,
  ContentQueryDto,
  RevisionSemanticChangesDto,
  fileDto,
  LinksQueryDto,
  ChangeRequestLinksQueryDto,
  ListContentQueryDto,
  PageByPathQueryDto,
  LinksResponseDto,
  PageQueryDto,
  PagesDto,
  RevisionDto,
  RevisionFileDto,
  RevisionReusableContentDto,
  RevisionPageDto,
} from '@app/wire';

@ApiTags('change-requests')
@ApiStandardErrors()
@Controller('spaces/:spaceId/change-requests')
export class ChangeRequestsController {
  constructor(
    private readonly changeRequests: ChangeRequestsService,
    private readonly presenter: ChangeRequestPresenter,
    private readonly origins: ChangeRequestOrigins,
    private readonly revisions: RevisionPresenter,
    private readonly filesService: FilesService,
    private readonly clock: Clock,
    private readonly exports: ExportsService,
  ) {}

  /** A change request's head revision, addressed as its content (`/s/{space}/~/changes/{number}`). */
  private async scope(actor: Actor, spaceId: string, ref: string, toEdit = false): Promise<RevisionScope> {
    return this.scopeOf(
      actor,
      toEdit ? await this.changeRequests.editableView(actor, spaceId, ref) : await this.changeRequests.view(actor, spaceId, ref),
    );
  }

  private scopeOf(actor: Actor, v: ChangeRequestView): RevisionScope {
    const cr = v.changeRequest;
    return {
      actor,
      space: v.space,
      role: v.role,
      revisionId: cr.revision,
      appBase: `/s/${v.space.id}/~/changes/${cr.number}`,
      linksBase: baseOf(cr),
    };
  }

  @Get()
  @ApiOperation({ operationId: 'listChangeRequestsForSpace', summary: 'List change requests (status open by default), newest first' })
  @ApiOkResponse({ type: ListOf(ChangeRequestDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Query() q: ListChangeRequestsQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.changeRequests.list(
      actor,
      spaceId,
      {
        status: q.status,
        creator: q.creator,
        contributor: q.contributor,
        requestedReviewer: q.requestedReviewer,
        conversationsIssuesCluster: q.conversationsIssuesCluster,
        unlinked: q.topic !== undefined,
        orderBy: q.orderBy,
      },
      q.toPageRequest(),
    );
    const users = await this.presenter.users(page.items);
    return listEnvelope(page, (v) => this.presenter.dtoWith(v, users, links));
  }

  @WriteTransaction()
  @Post()
  @ApiOperation({ operationId: 'createChangeRequest', summary: 'Create a change request from the current content' })
  @ApiCreatedResponse({ type: ChangeRequestDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Body() body: CreateChangeRequestDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ) {
    const dto = await this.presenter.dto(await this.changeRequests.create(actor, spaceId, body), links);
    res.location(dto.urls.location);
    return dto;
  }

  @Get(':changeRequestId')
  @ApiOperation({ operationId: 'getChangeRequestById', summary: 'Get a change request by id or number' })
  @ApiOkResponse({ type: ChangeRequestDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @RequestLinks() links: Links,
  ) {
    return this.presenter.dto(await this.changeRequests.view(actor, spaceId, ref), links);
  }

  @WriteTransaction()
  @Patch(':changeRequestId')
  @ApiOperation({ operationId: 'updateChangeRequestById', summary: 'Update subject, description or status' })
  @ApiOkResponse({ type: ChangeRequestDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Body() body: UpdateChangeRequestDto,
    @RequestLinks() links: Links,
  ) {
    // Markdown (Quire extension) becomes the document a write of it would: links resolved in the change request.
    const given = body.description as { markdown?: string } | null | undefined;
    const description =
      given && typeof given.markdown === 'string'
        ? await this.revisions.looseDocumentFromMarkdown(await this.scope(actor, spaceId, ref), given.markdown)
        : body.description;
    return this.presenter.dto(await this.changeRequests.update(actor, spaceId, ref, { ...body, description }), links);
  }

  @Get(':changeRequestId/description')
  @ApiOperation({
    operationId: 'getChangeRequestDescription',
    summary: "Quire extension: a change request's description as markdown (to edit) and as the site renders it (HTML), for the web app",
  })
  @ApiOkResponse({ type: RenderedDescriptionDto })
  async description(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @RequestLinks() links: Links,
  ): Promise<RenderedDescriptionDto> {
    const v = await this.changeRequests.view(actor, spaceId, ref);
    const read = await this.revisions.looseDocument(
      this.scopeOf(actor, v),
      (v.changeRequest.description as JsonDocument | null) ?? null,
      links,
    );
    return { object: 'change-request-description', ...read };
  }

  @Get(':changeRequestId/pdf')
  @ApiOperation({
    operationId: 'getChangeRequestPDF',
    summary: "A temporary URL (1 hour) of the change request's content as PDF; `page` (with subpages) or `page` alone with `only`",
  })
  @ApiOkResponse({ type: PdfUrlDto })
  async pdf(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Query() q: PdfQueryDto,
    @RequestLinks() links: Links,
  ): Promise<PdfUrlDto> {
    return { url: links.api(await this.exports.changeRequestPdf(actor, spaceId, ref, q)) };
  }

  @WriteTransaction()
  @Post(':changeRequestId/merge')
  @HttpCode(200)
  @ApiOperation({ operationId: 'mergeChangeRequest', summary: 'Merge the change request into the space (three-way merge)' })
  @ApiOkResponse({ type: MergeResultDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Conflicts (listed in error.conflicts), or already merged' })
  @ApiPreconditionFailedResponse({ type: ErrorDto, description: 'The space is locked' })
  merge(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Param('changeRequestId') ref: string): Promise<MergeResultDto> {
    return this.changeRequests.merge(actor, spaceId, ref);
  }

  @WriteTransaction()
  @Post(':changeRequestId/update')
  @HttpCode(200)
  @ApiOperation({ operationId: 'updateChangeRequest', summary: "Bring the space's main content into the change request" })
  @ApiOkResponse({ type: UpdateResultDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Conflicts (listed in error.conflicts)' })
  updateFromMain(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
  ): Promise<UpdateResultDto> {
    return this.changeRequests.updateFromMain(actor, spaceId, ref);
  }

  @WriteTransaction()
  @Post(':changeRequestId/content')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'updateChangeRequestContent',
    summary: 'Write pages into the change request: 1 to 50 changes, all or nothing',
  })
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
    const changeRequest = await this.presenter.dto(view, links);
    if (q.compat !== 'false') return changeRequest;
    const pageRef = (id: string) => ({
      object: 'page',
      id,
      urls: { location: links.api(`/spaces/${spaceId}/change-requests/${view.changeRequest.id}/content/page/${id}`) },
    });
    return {
      changeRequest,
      changes: outcomes.map((o) =>
        o.object === 'deleted_page'
          ? { object: o.object, page: o.page }
          : {
              object: o.object,
              ...(o.ref ? { ref: o.ref } : {}),
              page: pageRef(o.page),
              ...(o.normalized ? { normalized: o.normalized } : {}),
            },
      ),
      insertedFiles: insertedFiles.map((f) =>
        fileDto(f, this.filesService.downloadPath(view.space.organizationId, f, this.clock.now().getTime()), links),
      ),
    };
  }

  @Get(':changeRequestId/content/files')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'listFilesInChangeRequestById', summary: 'The files of a change request' })
  @ApiOkResponse({ type: ListOf(RevisionFileDto) })
  async files(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Query() q: ListContentQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.revisions.fileList(await this.scope(actor, spaceId, ref), q, links);
  }

  @Get(':changeRequestId/content/files/:fileId')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'getFileInChangeRequestById', summary: 'A file of a change request' })
  @ApiOkResponse({ type: RevisionFileDto })
  async file(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('fileId') fileId: string,
    @Query() _q: ContentQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.revisions.file(await this.scope(actor, spaceId, ref), fileId, links);
  }

  @Get(':changeRequestId/content/reusable-contents/:reusableContentId')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'getReusableContentInChangeRequestById', summary: 'A reusable content of a change request' })
  @ApiOkResponse({ type: RevisionReusableContentDto })
  async reusableContent(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() _q: ContentQueryDto,
  ) {
    return this.revisions.reusableContent(await this.scope(actor, spaceId, ref), reusableContentId);
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
    return this.revisions.fileBacklinks(await this.scope(actor, spaceId, ref), fileId, q, links);
  }

  @Get(':changeRequestId/links')
  @ApiTags('links')
  @ApiOperation({
    operationId: 'listChangeRequestLinks',
    summary: 'Every link in the change request; stats.broken.changeRequest counts the ones it broke',
  })
  @ApiOkResponse({ type: LinksResponseDto })
  async links(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Query() q: ChangeRequestLinksQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.revisions.links(await this.scope(actor, spaceId, ref), q, links);
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
    return this.revisions.links(await this.scope(actor, spaceId, ref), q, links, pageId);
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
    return this.revisions.pageBacklinks(await this.scope(actor, spaceId, ref), pageId, q, links);
  }

  @Get(':changeRequestId/changes')
  @ApiTags('change-request-content')
  @ApiOperation({
    operationId: 'getChangeRequestChanges',
    summary: 'What the change request changes against its base: pages created, edited, moved, deleted; files',
  })
  @ApiOkResponse({ type: RevisionSemanticChangesDto })
  async changes(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Query() q: ChangesQueryDto,
    @RequestLinks() links: Links,
  ) {
    const scope = await this.scope(actor, spaceId, ref);
    return this.revisions.changes(scope, q.limit ?? 10, links, scope.linksBase);
  }

  @Get(':changeRequestId/content')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'getRevisionOfChangeRequestById', summary: 'The head revision of a change request' })
  @ApiOkResponse({ type: RevisionDto })
  async revision(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Query() _q: ContentQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.revisions.revision(await this.scope(actor, spaceId, ref), links, this.origins.for(actor, spaceId, links));
  }

  @Get(':changeRequestId/content/pages')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'listPagesInChangeRequest', summary: 'The pages of a change request' })
  @ApiOkResponse({ type: PagesDto })
  async pages(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Query() _q: ContentQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    res.type('application/json').send(await this.revisions.pagesJson(await this.scope(actor, spaceId, ref), links));
  }

  @Get(':changeRequestId/content/path/*pagePath')
  @ApiTags('change-request-content')
  @ApiOperation({ operationId: 'getPageInChangeRequestByPath', summary: 'A page of a change request by its path (slugs joined by /)' })
  @ApiParam({ name: 'pagePath', type: String, description: 'The page path in the change request, e.g. `guide/setup`' })
  @ApiOkResponse({ type: RevisionPageDto })
  async pageByPath(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('pagePath') pagePath: string | string[],
    @Query() q: PageByPathQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    res.type('application/json').send(await this.revisions.pageJsonByPath(await this.scope(actor, spaceId, ref), pagePath, q, links));
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
    @Res() res: Response,
  ): Promise<void> {
    res.type('application/json').send(await this.revisions.pageJson(await this.scope(actor, spaceId, ref), pageId, q, links));
  }

  @Get(':changeRequestId/content/page/:pageId/rendered')
  @ApiTags('change-request-content')
  @ApiOperation({
    operationId: 'getRenderedPageInChangeRequestById',
    summary: 'Quire extension: a page of a change request as the published site renders it (HTML), for the web app',
  })
  @ApiOkResponse({ type: RenderedPageDto })
  async rendered(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('pageId') pageId: string,
    @RequestLinks() links: Links,
  ): Promise<RenderedPageDto> {
    return this.revisions.pageHtml(await this.scope(actor, spaceId, ref), pageId, links);
  }

  @Post(':changeRequestId/content/page/:pageId/preview')
  @ReadsOnly()
  @HttpCode(200)
  @ApiTags('change-request-content')
  @ApiOperation({
    operationId: 'previewPageInChangeRequest',
    summary:
      "Quire extension: markdown not yet written, rendered as this page of the change request would show it (the editor's live preview; writes nothing)",
  })
  @ApiOkResponse({ type: RenderedPageDto })
  async preview(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('pageId') pageId: string,
    @Body() body: PagePreviewDto,
    @RequestLinks() links: Links,
  ): Promise<RenderedPageDto> {
    return this.revisions.pagePreview(await this.scope(actor, spaceId, ref, true), pageId, body.markdown, links);
  }

  @Get(':changeRequestId/content/page/:pageId/diff')
  @ApiTags('change-request-content')
  @ApiOperation({
    operationId: 'getRenderedPageDiffInChangeRequest',
    summary: "Quire extension: a page's change in a change request as rendered blocks (unchanged, added, deleted), for review",
  })
  @ApiOkResponse({ type: RenderedPageDiffDto })
  async diff(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('pageId') pageId: string,
    @RequestLinks() links: Links,
  ): Promise<RenderedPageDiffDto> {
    const scope = await this.scope(actor, spaceId, ref);
    return this.revisions.pageDiff(scope, pageId, scope.linksBase ?? scope.revisionId, links);
  }
}
