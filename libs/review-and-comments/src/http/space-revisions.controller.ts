import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, RequestLinks, VisitorReadable } from '@app/http-kit';
import { RevisionPresenter, RevisionScope } from '@app/spaces-and-content';
import {
  ChangesQueryDto,
  ContentQueryDto,
  DocumentQueryDto,
  RevisionDto,
  RevisionReusableContentDto,
  RevisionSemanticChangesDto,
} from '@app/wire';
import { ChangeRequestOrigins } from './change-request-presenter';

/**
 * The reads of a space's revisions that show where a merge came from (`mergedFrom`: the change request,
 * as the caller may see it): the current revision, a revision by id, and its semantic changes. Served by
 * this context, which owns change requests and depends on the content context (whose RevisionPresenter does
 * the rest); the other reads of a space's content are the content context's (ContentController).
 */
@ApiTags('space-content')
@ApiStandardErrors()
@Controller('spaces/:spaceId')
export class SpaceRevisionsController {
  constructor(
    private readonly presenter: RevisionPresenter,
    private readonly origins: ChangeRequestOrigins,
  ) {}

  private scope(actor: Actor, spaceId: string, revisionId?: string): Promise<RevisionScope> {
    return this.presenter.spaceScope(actor, spaceId, revisionId);
  }

  @Get('content')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getCurrentRevision', summary: 'Get the current revision of a space' })
  @ApiOkResponse({ type: RevisionDto })
  async current(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() _q: ContentQueryDto, @RequestLinks() links: Links) {
    return this.presenter.revision(await this.scope(actor, id), links, this.origins.for(actor, id, links));
  }

  @Get('revisions/:revisionId')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getRevisionById', summary: 'Get a revision of a space' })
  @ApiOkResponse({ type: RevisionDto })
  async revision(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Query() _q: ContentQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.presenter.revision(await this.scope(actor, id, revisionId), links, this.origins.for(actor, id, links));
  }

  @Get('revisions/:revisionId/reusable-contents/:reusableContentId')
  @ApiOperation({ operationId: 'getReusableContentInRevisionById', summary: 'A reusable content of a revision' })
  @ApiOkResponse({ type: RevisionReusableContentDto })
  async reusableContent(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() _q: ContentQueryDto,
  ) {
    return this.presenter.reusableContent(await this.scope(actor, id, revisionId), reusableContentId);
  }

  @Get('revisions/:revisionId/reusable-contents/:reusableContentId/document')
  @ApiOperation({ operationId: 'getReusableContentDocumentInRevisionById', summary: "A reusable content's document in a revision" })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true, description: 'The official JSONDocument' } })
  async reusableContentDocument(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() _q: DocumentQueryDto,
  ) {
    return this.presenter.reusableContentDocument(await this.scope(actor, id, revisionId), reusableContentId);
  }

  @Get('revisions/:revisionId/changes')
  @ApiOperation({
    operationId: 'getRevisionSemanticChanges',
    summary: 'What changed in a revision against its first parent: pages created, edited, moved, deleted; files',
  })
  @ApiOkResponse({ type: RevisionSemanticChangesDto })
  async changes(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @Param('revisionId') revisionId: string,
    @Query() q: ChangesQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.presenter.changes(
      await this.scope(actor, id, revisionId),
      q.limit ?? 10,
      links,
      undefined,
      this.origins.for(actor, id, links),
    );
  }
}
