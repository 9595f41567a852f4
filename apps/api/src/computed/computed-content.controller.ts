import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, Clock, InvalidInputError } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, ReadsOnly, RequestLinks } from '@app/http-kit';
import { fileDto, pageDto, reusableContentDto, type RevisionPageDto } from '@app/wire';
import { pathIndex, type PageNode } from '@app/content-model';
import {
  FilesService,
  SpacesService,
  type ComputedContext,
  type ComputedSource,
  type ComputedSourceHandler,
} from '@app/spaces-and-content';
import { ComputedReference } from '@app/openapi-specs';
import { ComputedTranslation } from '@app/translations';
import { ComputeContentDto, ComputedRevisionDto, SchemaQueryDto } from './computed-content.dto';

/**
 * Computed content (the official getComputedDocument, getComputedRevision): a document or a revision made from a
 * built-in source, for a space the caller reads. Nothing is written. Each source is computed by the context that
 * owns it (`builtin:openapi`: openapi-specs; `builtin:translation`: translations): a response that joins contexts
 * is served here, by the app that depends on them all, so no context calls another through a port.
 * docs/conventions.md, "Computed content".
 */
@ApiTags('space-content')
@ApiStandardErrors()
@Controller('spaces/:spaceId/content/computed')
export class ComputedContentController {
  private readonly sources: ReadonlyMap<string, ComputedSourceHandler>;

  constructor(
    private readonly spaces: SpacesService,
    private readonly files: FilesService,
    private readonly clock: Clock,
    reference: ComputedReference,
    translation: ComputedTranslation,
  ) {
    this.sources = new Map<string, ComputedSourceHandler>([
      ['builtin:openapi', reference],
      ['builtin:translation', translation],
    ]);
  }

  @ReadsOnly()
  @Post('document')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'getComputedDocument',
    summary: 'A document computed from a built-in source: an OpenAPI spec’s operation, tag, info or models; a document translated now',
  })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true }, description: 'The computed JSON document' })
  async document(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Query() _q: SchemaQueryDto,
    @Body() body: ComputeContentDto,
    @RequestLinks() links: Links,
  ) {
    const context = await this.context(actor, spaceId, body.seed, links);
    const source = sourceOf(body);
    return this.handler(source).document(context, source);
  }

  @ReadsOnly()
  @Post('revision')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'getComputedRevision',
    summary:
      'The pages, files and reusable contents computed from a built-in source: an OpenAPI spec’s reference; a translation’s latest result',
  })
  @ApiOkResponse({ type: ComputedRevisionDto })
  async revision(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Body() body: ComputeContentDto,
    @RequestLinks() links: Links,
  ): Promise<ComputedRevisionDto> {
    const context = await this.context(actor, spaceId, body.seed, links);
    const source = sourceOf(body);
    const revision = await this.handler(source).revision(context, source);
    const base = `/s/${revision.spaceId ?? context.space.id}`;
    const paths = new Map([...pathIndex(revision.tree)].map(([path, id]) => [id, path]));
    const withBodies = (node: PageNode, dto: RevisionPageDto): RevisionPageDto => {
      const document = revision.documents.get(node.id);
      return {
        ...dto,
        ...(document ? { document } : {}),
        pages: node.pages.map((child, i) => withBodies(child, dto.pages[i])),
      };
    };
    const now = this.clock.now().getTime();
    return {
      pages: revision.tree.map((node) => withBodies(node, pageDto(node, node.slug, base, links, paths))),
      files: revision.files.map((f) => fileDto(f, this.files.downloadPath(context.space.organizationId, f, now), links)),
      reusableContents: revision.reusableContents.map(reusableContentDto),
    };
  }

  /** The context that computes this type of source; `integration:…` sources need GitBook's integrations, which Quire does not have. */
  private handler(source: ComputedSource): ComputedSourceHandler {
    const found = this.sources.get(source.type);
    if (found) return found;
    const types = [...this.sources.keys()].join(', ');
    if (source.type.startsWith('integration:'))
      throw new InvalidInputError(`source.type "${source.type}": Quire has no integrations; its built-in sources are ${types}`);
    throw new InvalidInputError(`source.type must be one of ${types}`);
  }

  private async context(actor: Actor, spaceId: string, seed: string, links: Links): Promise<ComputedContext> {
    const { space } = await this.spaces.getLive(actor, spaceId);
    return { actor, space, seed, api: (path) => links.api(path) };
  }
}

function sourceOf(body: ComputeContentDto): ComputedSource {
  return { type: body.source.type, props: body.source.props ?? {}, dependencies: body.source.dependencies ?? {} };
}
