import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  Links,
  listEnvelope,
  ListOf,
  ListQueryDto,
  Public,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { OpenApiSpecsService } from '../application/openapi-specs.service';
import {
  CreateSpecDto,
  OpenApiSpecDto,
  PutSpecDto,
  SpecContentDto,
  SpecRawContentDto,
  SpecVersionDto,
  toContentDto,
  toSpecDto,
  toVersionDto,
  UpdateSpecDto,
} from './openapi-spec.dto';

/** OpenAPI specifications of an organization and their versions (official operations). */
@ApiTags('openapi')
@ApiStandardErrors()
@Controller('orgs/:organizationId/openapi')
export class OpenApiSpecsController {
  constructor(private readonly specs: OpenApiSpecsService) {}

  @Get()
  @ApiOperation({ operationId: 'listOpenAPISpecs', summary: 'List the OpenAPI specifications of an organization' })
  @ApiOkResponse({ type: ListOf(OpenApiSpecDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.specs.list(actor, organizationId, q.toPageRequest());
    return listEnvelope(page, (v) => toSpecDto(v.spec, v.role, links));
  }

  @WriteTransaction()
  @Post()
  @ApiOperation({
    operationId: 'createOpenAPISpec',
    summary: 'Register a specification from a URL or text (409 when the slug is taken); it is processed in the background',
  })
  @ApiCreatedResponse({ type: OpenApiSpecDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateSpecDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OpenApiSpecDto> {
    const v = await this.specs.create(actor, organizationId, body.slug, body.source);
    const dto = toSpecDto(v.spec, v.role, links);
    res.location(dto.urls.location);
    return dto;
  }

  @Get(':specSlug')
  @ApiOperation({ operationId: 'getOpenAPISpecBySlug', summary: 'Get a specification with its processing state and errors' })
  @ApiOkResponse({ type: OpenApiSpecDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @RequestLinks() links: Links,
  ) {
    const v = await this.specs.get(actor, organizationId, slug);
    return toSpecDto(v.spec, v.role, links);
  }

  @WriteTransaction()
  @Put(':specSlug')
  @ApiOperation({
    operationId: 'createOrUpdateOpenAPISpecBySlug',
    summary: 'Create the specification (201) or give it a new source (200); it is processed again in the background',
  })
  @ApiOkResponse({ type: OpenApiSpecDto })
  @ApiCreatedResponse({ type: OpenApiSpecDto })
  async put(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Body() body: PutSpecDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OpenApiSpecDto> {
    const v = await this.specs.put(actor, organizationId, slug, body.source);
    const dto = toSpecDto(v.spec, v.role, links);
    if (v.created) res.status(201).location(dto.urls.location);
    return dto;
  }

  @WriteTransaction()
  @Patch(':specSlug')
  @ApiOperation({ operationId: 'updateOpenAPISpecBySlug', summary: 'Make a specification private or public' })
  @ApiOkResponse({ type: OpenApiSpecDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Body() body: UpdateSpecDto,
    @RequestLinks() links: Links,
  ): Promise<OpenApiSpecDto> {
    const v = await this.specs.setVisibility(actor, organizationId, slug, body.visibility);
    return toSpecDto(v.spec, v.role, links);
  }

  @WriteTransaction()
  @Delete(':specSlug')
  @ApiDeleteOperation('deleteOpenAPISpecBySlug', 'Delete a specification and its versions', 'The specification')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.specs.delete(actor, organizationId, slug));
  }

  @Get(':specSlug/versions')
  @ApiOperation({ operationId: 'listOpenAPISpecVersions', summary: 'List the versions of a specification, newest first' })
  @ApiOkResponse({ type: ListOf(SpecVersionDto) })
  async versions(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const { spec, page } = await this.specs.versions(actor, organizationId, slug, q.toPageRequest());
    return listEnvelope(page, (v) => toVersionDto(spec, v, links));
  }

  @Get(':specSlug/versions/latest')
  @ApiOperation({ operationId: 'getLatestOpenAPISpecVersion', summary: 'The latest version (404 before the first successful run)' })
  @ApiOkResponse({ type: SpecVersionDto })
  async latest(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @RequestLinks() links: Links,
  ) {
    const { spec, version } = await this.specs.version(actor, organizationId, slug, 'latest');
    return toVersionDto(spec, version, links);
  }

  @Get(':specSlug/versions/latest/content')
  @ApiOperation({ operationId: 'getLatestOpenAPISpecVersionContent', summary: 'The content of the latest version' })
  @ApiOkResponse({ type: SpecContentDto })
  async latestContent(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @RequestLinks() links: Links,
  ) {
    const { spec, version } = await this.specs.version(actor, organizationId, slug, 'latest');
    return toContentDto(spec, version, links);
  }

  @Get(':specSlug/versions/latest/content/raw')
  @ApiOperation({ operationId: 'getLatestOpenAPISpecVersionContentRaw', summary: 'The text of the latest version, exactly as submitted' })
  @ApiOkResponse({ type: SpecRawContentDto })
  async latestRaw(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
  ): Promise<SpecRawContentDto> {
    const { version } = await this.specs.version(actor, organizationId, slug, 'latest');
    return { text: version.text, format: version.format };
  }

  @Get(':specSlug/versions/:versionId')
  @ApiOperation({ operationId: 'getOpenAPISpecVersionById', summary: 'A version of a specification' })
  @ApiOkResponse({ type: SpecVersionDto })
  async version(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Param('versionId') versionId: string,
    @RequestLinks() links: Links,
  ) {
    const { spec, version } = await this.specs.version(actor, organizationId, slug, versionId);
    return toVersionDto(spec, version, links);
  }

  @Get(':specSlug/versions/:versionId/content')
  @ApiOperation({ operationId: 'getOpenAPISpecVersionContentById', summary: 'The content of a version' })
  @ApiOkResponse({ type: SpecContentDto })
  async versionContent(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
    @Param('versionId') versionId: string,
    @RequestLinks() links: Links,
  ) {
    const { spec, version } = await this.specs.version(actor, organizationId, slug, versionId);
    return toContentDto(spec, version, links);
  }
}

/** The public link of a public specification: its latest version's text, no token needed (404 when private). */
@ApiTags('openapi')
@Controller('openapi/public')
export class PublicOpenApiController {
  constructor(private readonly specs: OpenApiSpecsService) {}

  @Public()
  @Get(':specId')
  @ApiOperation({ operationId: 'getPublicOpenAPISpec', summary: 'The latest version of a public specification (Quire; no token)' })
  @ApiProduces('application/json', 'application/yaml')
  @ApiOkResponse({ description: 'The document, as submitted' })
  async get(@Param('specId') specId: string, @Res() res: Response): Promise<void> {
    const version = await this.specs.publicLatest(specId);
    res.type(version.format === 'json' ? 'application/json' : 'application/yaml').send(version.text);
  }
}
