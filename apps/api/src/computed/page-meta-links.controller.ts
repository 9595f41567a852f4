import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor } from '@app/http-kit';
import { RevisionPageMetaLinksDto } from '@app/wire';
import { SpacesService } from '@app/spaces-and-content';
import { ChangeRequestsService } from '@app/review-and-comments';
import { TranslationVersions } from '@app/translations';

/**
 * A page's meta links (the official listSpacePageMetaLinks, listRevisionPageMetaLinks,
 * listChangeRequestPageMetaLinks): its alternates, the same page in its translations. A response that joins the
 * content (or review) context and the translations context, served here, by the app that depends on them all.
 * docs/conventions.md, "Translations".
 */
@ApiStandardErrors()
@Controller('spaces/:spaceId')
export class PageMetaLinksController {
  constructor(
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly versions: TranslationVersions,
  ) {}

  @Get('content/page/:pageId/meta-links')
  @ApiTags('space-content')
  @ApiOperation({
    operationId: 'listSpacePageMetaLinks',
    summary: 'A page’s meta links: its alternates, the same page in the spaces that translate this one or that it translates',
  })
  @ApiOkResponse({ type: RevisionPageMetaLinksDto })
  async current(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('pageId') pageId: string,
  ): Promise<RevisionPageMetaLinksDto> {
    const { space } = await this.spaces.getLive(actor, spaceId);
    return this.versions.metaLinks(actor, space, space.revision, pageId);
  }

  @Get('revisions/:revisionId/page/:pageId/meta-links')
  @ApiTags('space-content')
  @ApiOperation({
    operationId: 'listRevisionPageMetaLinks',
    summary: 'A page’s meta links in a revision: its alternates, the same page in its translations (the current content of each)',
  })
  @ApiOkResponse({ type: RevisionPageMetaLinksDto })
  async inRevision(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('pageId') pageId: string,
  ): Promise<RevisionPageMetaLinksDto> {
    const { space } = await this.spaces.getLive(actor, spaceId);
    return this.versions.metaLinks(actor, space, revisionId, pageId);
  }

  @Get('change-requests/:changeRequestId/content/page/:pageId/meta-links')
  @ApiTags('change-request-content')
  @ApiOperation({
    operationId: 'listChangeRequestPageMetaLinks',
    summary: 'A page’s meta links in a change request: its alternates, the same page in the translations (their current content)',
  })
  @ApiOkResponse({ type: RevisionPageMetaLinksDto })
  async inChangeRequest(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') ref: string,
    @Param('pageId') pageId: string,
  ): Promise<RevisionPageMetaLinksDto> {
    const view = await this.changeRequests.view(actor, spaceId, ref);
    return this.versions.metaLinks(actor, view.space, view.changeRequest.revision, pageId);
  }
}
