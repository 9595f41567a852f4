import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiParam, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, listEnvelope, ListOf, ListQueryDto, RequestLinks, VisitorReadable } from '@app/http-kit';
import { SpacesService } from '../application/spaces.service';
import { ContentService } from '../application/content.service';
import {
  RevisionFileDto,
  ContentLocationDto,
  LinksQueryDto,
  LinksResponseDto,
  ContentQueryDto,
  DocumentQueryDto,
  PageQueryDto,
  PageByPathQueryDto,
  ListContentQueryDto,
  PagesDto,
  RevisionPageDto,
  RevisionHistoryItemDto,
  RevisionReusableContentDto,
} from '@app/wire';
import { RevisionPresenter, RevisionScope } from './revision-presenter';
import { DocumentByIdQueryDto } from './content.dto';
import { RenderedPageDto } from '@app/wire';

/** Reads of a space's content: its current revision, or any revision by id (spec part 1 §4.4). */
@ApiTags('space-content')
@ApiStandardErrors()
@Controller('spaces/:spaceId')
export class ContentController {
  constructor(
    private readonly spaces: SpacesService,
    private readonly presenter: RevisionPresenter,
    private readonly content: ContentService,
  ) {}

  private scope(actor: Actor, spaceId: string, revisionId?: string): Promise<RevisionScope> {
    return this.presenter.spaceScope(actor, spaceId, revisionId);
  }

  @Get('content/pages')
  @VisitorReadable()
  @ApiOperation({ operationId: 'listPages', summary: 'List the pages of the current revision (tree)' })
  @ApiOkResponse({ type: PagesDto })
  async pages(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Query() _q: ContentQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    res.type('application/json').send(await this.presenter.pagesJson(await this.scope(actor, id), links));
  }

  @Get('content/page/:pageId')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getPageById', summary: 'Get a page of the current revision, with its body as a document or markdown' })
  @ApiOkResponse({ type: RevisionPageDto })
  async page(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('pageId') pageId: string,
    @Query() q: PageQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    res.type('application/json').send(await this.presenter.pageJson(await this.scope(actor, id), pageId, q, links));
  }

  @Get('content/page/:pageId/rendered')
  @ApiOperation({
    operationId: 'getRenderedPageById',
    summary: 'Quire extension: a page of the current revision as the published site renders it (HTML), for the web app',
  })
  @ApiOkResponse({ type: RenderedPageDto })
  async rendered(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('pageId') pageId: string,
    @RequestLinks() links: Links,
  ): Promise<RenderedPageDto> {
    return this.presenter.pageHtml(await this.scope(actor, id), pageId, links);
  }

  @Get('content/path/*pagePath')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getPageByPath', summary: 'Get a page of the current revision by its path (slugs joined by /)' })
  @ApiParam({ name: 'pagePath', type: String, description: 'The page path, e.g. `guide/setup` (or `guide%2Fsetup`)' })
  @ApiOkResponse({ type: RevisionPageDto })
  async pageByPath(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('pagePath') pagePath: string | string[],
    @Query() q: PageByPathQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    res.type('application/json').send(await this.presenter.pageJsonByPath(await this.scope(actor, id), pagePath, q, links));
  }

  @Get('revisions')
  @ApiOperation({
    operationId: 'listRevisionsInSpace',
    summary: 'The history of a space: its current revision and the first parents before it, newest first (not in the official document)',
  })
  @ApiOkResponse({ type: ListOf(RevisionHistoryItemDto) })
  async history(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
    const { space } = await this.spaces.getLive(actor, id);
    const page = await this.content.history(space, q.toPageRequest());
    return listEnvelope(page, (r): RevisionHistoryItemDto => ({
      object: 'revision-summary',
      id: r.id,
      type: r.type,
      parents: r.parents,
      createdAt: r.createdAt.toISOString(),
      createdBy: r.createdBy,
      mergedFrom: r.mergedFrom,
      urls: { location: links.api(`/spaces/${space.id}/revisions/${r.id}`), app: links.app(`/s/${space.id}/~/revisions/${r.id}`) },
    }));
  }

  @Get('revisions/:revisionId/pages')
  @VisitorReadable()
  @ApiOperation({ operationId: 'listPagesInRevisionById', summary: 'List the pages of a revision' })
  @ApiOkResponse({ type: PagesDto })
  async revisionPages(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Query() _q: ContentQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    res.type('application/json').send(await this.presenter.pagesJson(await this.scope(actor, id, revisionId), links));
  }

  @Get('revisions/:revisionId/page/:pageId')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getPageInRevisionById', summary: 'Get a page of a revision' })
  @ApiOkResponse({ type: RevisionPageDto })
  async revisionPage(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
    @Query() q: PageQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    res.type('application/json').send(await this.presenter.pageJson(await this.scope(actor, id, revisionId), pageId, q, links));
  }

  @Get('revisions/:revisionId/path/*pagePath')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getPageInRevisionByPath', summary: 'Get a page of a revision by its path (slugs joined by /)' })
  @ApiParam({ name: 'pagePath', type: String, description: 'The page path in that revision, e.g. `guide/setup`' })
  @ApiOkResponse({ type: RevisionPageDto })
  async revisionPageByPath(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Param('pagePath') pagePath: string | string[],
    @Query() q: PageByPathQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    res.type('application/json').send(await this.presenter.pageJsonByPath(await this.scope(actor, id, revisionId), pagePath, q, links));
  }

  @Get('revisions/:revisionId/page/:pageId/rendered')
  @ApiOperation({
    operationId: 'getRenderedPageInRevisionById',
    summary: 'Quire extension: a page of a revision as the published site renders it (HTML), for the web app',
  })
  @ApiOkResponse({ type: RenderedPageDto })
  async revisionRendered(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
    @RequestLinks() links: Links,
  ): Promise<RenderedPageDto> {
    const scope = await this.scope(actor, id, revisionId);
    // Its pages link to their screens in that revision of the app, not to the space's current content.
    return this.presenter.pageHtml(
      { ...scope, appBase: `/s/${scope.space.id}/~/revisions/${encodeURIComponent(revisionId)}` },
      pageId,
      links,
    );
  }

  @Get('documents/:documentId')
  @ApiOperation({
    operationId: 'getDocumentById',
    summary: "A body by its documentId (a page's or a reusable content's, in the space's current content or its history)",
  })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  async documentById(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('documentId') documentId: string,
    @Query() _q: DocumentByIdQueryDto,
  ) {
    const { space } = await this.spaces.getLive(actor, id);
    return this.content.documentById(space, documentId);
  }

  @Get('revisions/:revisionId/page/:pageId/document')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getPageDocumentInRevisionById', summary: 'The body of a page in a revision, as a JSON document' })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  async revisionPageDocument(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
    @Query() _q: DocumentQueryDto,
  ) {
    return this.presenter.pageDocument(await this.scope(actor, id, revisionId), pageId);
  }

  @Get('revisions/:revisionId/files')
  @ApiOperation({ operationId: 'listFilesInRevisionById', summary: 'The files of a revision' })
  @ApiOkResponse({ type: ListOf(RevisionFileDto) })
  async revisionFiles(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Query() q: ListContentQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.presenter.fileList(await this.scope(actor, id, revisionId), q, links);
  }

  @Get('revisions/:revisionId/files/:fileId')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getFileInRevisionById', summary: 'A file of a revision, with a signed download URL' })
  @ApiOkResponse({ type: RevisionFileDto })
  async revisionFile(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Param('fileId') fileId: string,
    @Query() _q: ContentQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.presenter.file(await this.scope(actor, id, revisionId), fileId, links);
  }

  @Get('content/files')
  @ApiOperation({ operationId: 'listFiles', summary: 'The files of the current revision' })
  @ApiOkResponse({ type: ListOf(RevisionFileDto) })
  async files(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() q: ListContentQueryDto, @RequestLinks() links: Links) {
    return this.presenter.fileList(await this.scope(actor, id), q, links);
  }

  @Get('content/files/:fileId')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getFileById', summary: 'A file of the current revision, with a signed download URL' })
  @ApiOkResponse({ type: RevisionFileDto })
  async file(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('fileId') fileId: string,
    @Query() _q: ContentQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.presenter.file(await this.scope(actor, id), fileId, links);
  }

  @Get('content/reusable-contents/:reusableContentId')
  @ApiOperation({ operationId: 'getReusableContentById', summary: 'A reusable content of the current revision' })
  @ApiOkResponse({ type: RevisionReusableContentDto })
  async reusableContent(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() _q: ContentQueryDto,
  ) {
    return this.presenter.reusableContent(await this.scope(actor, id), reusableContentId);
  }

  @Get('content/files/:fileId/backlinks')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listSpaceFileBacklinks', summary: 'The pages that link to or show a file' })
  @ApiOkResponse({ type: ListOf(ContentLocationDto) })
  async fileBacklinks(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('fileId') fileId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.presenter.fileBacklinks(await this.scope(actor, id), fileId, q, links);
  }

  @Get('links')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listSpaceLinks', summary: 'Every link in the current content, with its status and where it appears' })
  @ApiOkResponse({ type: LinksResponseDto })
  async spaceLinks(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() q: LinksQueryDto, @RequestLinks() links: Links) {
    return this.presenter.links(await this.scope(actor, id), q, links);
  }

  @Get('content/broken-links')
  @ApiTags('links')
  @ApiOperation({
    operationId: 'listSpaceBrokenLinks',
    summary:
      'Quire extension: the broken links of the current content (a page or file that is gone, a relative link an import could not resolve), each with the pages it appears on',
  })
  @ApiOkResponse({ type: LinksResponseDto })
  async brokenLinks(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
    return this.presenter.links(await this.scope(actor, id), Object.assign(new LinksQueryDto(), q, { status: 'broken' as const }), links);
  }

  @Get('content/page/:pageId/links')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listSpacePageLinks', summary: 'The links of a page, with their status' })
  @ApiOkResponse({ type: LinksResponseDto })
  async pageLinks(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('pageId') pageId: string,
    @Query() q: LinksQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.presenter.links(await this.scope(actor, id), q, links, pageId);
  }

  @Get('content/page/:pageId/backlinks')
  @ApiTags('links')
  @ApiOperation({ operationId: 'listSpacePageBacklinks', summary: 'The pages that link to a page' })
  @ApiOkResponse({ type: ListOf(ContentLocationDto) })
  async pageBacklinks(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('pageId') pageId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.presenter.pageBacklinks(await this.scope(actor, id), pageId, q, links);
  }
}
