import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor, InvalidInputError } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  ErrorDto,
  Links,
  listEnvelope,
  ListOf,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { Delete } from '@nestjs/common';
import { SitesService } from '../application/sites.service';
import { PublishedSitesService } from '../application/published-sites.service';
import { PublishedSitePresenter } from './published-site.presenter';
import { customizationAnswerSchema } from './customization-openapi';
import { SitePreviews } from '../application/site-previews';
import { CustomizationQueryDto, CreateSiteDto, ListSitesQueryDto, SiteDto, toSiteDto, UpdateSiteDto } from './site.dto';
import { AdaptiveSchemaDto, TemplateConditionsDto, UpdateAdaptiveSchemaDto } from './adaptive-schema.dto';
import { PublishedQueryDto, PublishedSiteDto } from './published-site.dto';
import { PublishingAuthDto, toPublishingAuthDto, UpdatePublishingAuthDto } from './publishing-auth.dto';

@ApiTags('sites')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites')
export class SitesController {
  constructor(
    private readonly sites: SitesService,
    private readonly publishedSites: PublishedSitesService,
    private readonly presenter: PublishedSitePresenter,
    private readonly previews: SitePreviews,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listSites', summary: 'List the sites of an organization' })
  @ApiOkResponse({ type: ListOf(SiteDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListSitesQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.sites.list(
      actor,
      organizationId,
      { spaceId: q.space, title: q.title, published: q.published, types: q.type },
      q.toPageRequest(),
    );
    return listEnvelope(page, (v) => toSiteDto(v.site, v.role, links, this.previews));
  }

  @WriteTransaction()
  @Post()
  @ApiOperation({ operationId: 'createSite', summary: 'Create a site (type basic unless told; the spaces given become its site spaces)' })
  @ApiCreatedResponse({ type: SiteDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateSiteDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SiteDto> {
    const v = await this.sites.create(actor, organizationId, body);
    const dto = toSiteDto(v.site, v.role, links, this.previews);
    res.location(dto.urls.location);
    return dto;
  }

  @Get(':siteId')
  @ApiOperation({ operationId: 'getSiteById', summary: 'Get a site' })
  @ApiOkResponse({ type: SiteDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @RequestLinks() links: Links,
  ) {
    const v = await this.sites.get(actor, organizationId, siteId);
    return toSiteDto(v.site, v.role, links, this.previews);
  }

  @WriteTransaction()
  @Patch(':siteId')
  @ApiOperation({ operationId: 'updateSiteById', summary: 'Update a site (admin)' })
  @ApiOkResponse({ type: SiteDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: UpdateSiteDto,
    @RequestLinks() links: Links,
  ): Promise<SiteDto> {
    const v = await this.sites.update(actor, organizationId, siteId, body);
    return toSiteDto(v.site, v.role, links, this.previews);
  }

  @WriteTransaction()
  @Delete(':siteId')
  @ApiDeleteOperation('deleteSiteById', 'Delete a site with its structure and share links (admin)', 'The site')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.sites.delete(actor, organizationId, siteId));
  }

  @WriteTransaction()
  @Post(':siteId/template')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'applyTemplateToSite',
    summary: 'Apply the default documentation template to a site',
    description:
      'An empty site gets a space made from Quire’s `product-docs` template (an introduction, guides, a changelog), titled ' +
      'after the site, as its site space. A site that shows a space already is a 400. Needs the site’s structure role and the ' +
      'right to create a space.',
  })
  @ApiOkResponse({ description: 'Template applied to site.', schema: { type: 'object', properties: {} } })
  async applyTemplate(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
  ): Promise<Record<string, never>> {
    await this.sites.applyTemplate(actor, organizationId, siteId);
    return {};
  }

  @WriteTransaction()
  @Post(':siteId/publish')
  @HttpCode(200)
  @ApiOperation({ operationId: 'publishSite', summary: 'Publish a site: its audience (visibility) can read it (admin)' })
  @ApiOkResponse({ type: SiteDto })
  async publish(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @RequestLinks() links: Links,
  ) {
    const v = await this.sites.setPublished(actor, organizationId, siteId, true);
    return toSiteDto(v.site, v.role, links, this.previews);
  }

  @WriteTransaction()
  @Post(':siteId/unpublish')
  @HttpCode(200)
  @ApiOperation({ operationId: 'unpublishSite', summary: 'Unpublish a site (admin)' })
  @ApiOkResponse({ type: SiteDto })
  async unpublish(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @RequestLinks() links: Links,
  ) {
    const v = await this.sites.setPublished(actor, organizationId, siteId, false);
    return toSiteDto(v.site, v.role, links, this.previews);
  }

  @Get(':siteId/adaptive-schema')
  @ApiOperation({ operationId: 'getSiteAdaptiveSchema', summary: 'Get the visitor schema of an adaptive site (404 when it has none)' })
  @ApiOkResponse({ type: AdaptiveSchemaDto })
  async adaptiveSchema(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
  ): Promise<AdaptiveSchemaDto> {
    const s = await this.sites.adaptiveSchema(actor, organizationId, siteId);
    return { object: 'site-adaptive-schema', jsonSchema: s.jsonSchema, updatedAt: s.updatedAt.toISOString() };
  }

  @WriteTransaction()
  @Put(':siteId/adaptive-schema')
  @ApiOperation({
    operationId: 'updateSiteAdaptiveSchema',
    summary: 'Set the visitor schema (JSON Schema draft-07 of boolean claims, validated with Ajv; admin)',
  })
  @ApiOkResponse({ type: AdaptiveSchemaDto })
  async setAdaptiveSchema(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: UpdateAdaptiveSchemaDto,
  ): Promise<AdaptiveSchemaDto> {
    const s = await this.sites.setAdaptiveSchema(actor, organizationId, siteId, body.jsonSchema);
    return { object: 'site-adaptive-schema', jsonSchema: s.jsonSchema, updatedAt: s.updatedAt.toISOString() };
  }

  @Get(':siteId/adaptive-schema/template-conditions')
  @ApiOperation({
    operationId: 'listSiteAdaptiveTemplateConditions',
    summary: 'Conditions suggested by the visitor schema (one per claim)',
  })
  @ApiOkResponse({ type: TemplateConditionsDto })
  async templateConditions(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
  ): Promise<TemplateConditionsDto> {
    return { items: await this.sites.templateConditions(actor, organizationId, siteId) };
  }

  @Get(':siteId/customization')
  @ApiOperation({ operationId: 'getSiteCustomizationById', summary: 'Get the customization of a site (defaults until it is set)' })
  @ApiOkResponse({ schema: customizationAnswerSchema() })
  async customization(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() _q: CustomizationQueryDto,
  ) {
    const c = await this.sites.customization(actor, organizationId, siteId);
    return c.updatedAt ? { ...c.settings, updatedAt: c.updatedAt.toISOString() } : c.settings;
  }

  @WriteTransaction()
  @Put(':siteId/customization')
  @ApiOperation({
    operationId: 'updateSiteCustomizationById',
    summary: 'Replace the customization of a site (validated against the official SiteCustomizationSettingsInput schema; admin)',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({ schema: customizationAnswerSchema() })
  async setCustomization(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: unknown,
  ) {
    const c = await this.sites.setCustomization(actor, organizationId, siteId, body);
    return { ...c.settings, updatedAt: c.updatedAt.toISOString() };
  }

  @Get(':siteId/site-spaces/:siteSpaceId/customization')
  @ApiOperation({
    operationId: 'getSiteSpaceCustomizationById',
    summary: 'Get the customization of a site space: the site’s, with the site space’s override over it',
  })
  @ApiOkResponse({
    schema: customizationAnswerSchema(
      { hasOverrides: { type: 'boolean', description: "Whether the site space overrides the site's settings" } },
      ['hasOverrides'],
    ),
  })
  async siteSpaceCustomization(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Query() _q: CustomizationQueryDto,
  ) {
    return siteSpaceCustomizationBody(await this.sites.siteSpaceCustomization(actor, organizationId, siteId, siteSpaceId));
  }

  @WriteTransaction()
  @Patch(':siteId/site-spaces/:siteSpaceId/customization')
  @ApiOperation({
    operationId: 'overrideSiteSpaceCustomizationById',
    summary: 'Override the customization of a site space (a value replaces, null resets to the site’s; official override schema; admin)',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({
    schema: customizationAnswerSchema(
      { hasOverrides: { type: 'boolean', description: "Whether the site space overrides the site's settings" } },
      ['hasOverrides'],
    ),
  })
  async overrideSiteSpaceCustomization(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() body: unknown,
  ) {
    return siteSpaceCustomizationBody(await this.sites.overrideSiteSpaceCustomization(actor, organizationId, siteId, siteSpaceId, body));
  }

  @WriteTransaction()
  @Delete(':siteId/site-spaces/:siteSpaceId/customization')
  @ApiDeleteOperation('deleteSiteSpaceCustomizationById', 'Remove the customization override of a site space (admin)', 'The override')
  async deleteSiteSpaceCustomization(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.sites.deleteSiteSpaceCustomization(actor, organizationId, siteId, siteSpaceId));
  }

  @Get(':siteId/publishing/auth')
  @ApiOperation({
    operationId: 'getSitePublishingAuthById',
    summary: 'The key visitor tokens of a visitor-auth site are signed with (made on first read; admin)',
  })
  @ApiOkResponse({ type: PublishingAuthDto })
  async publishingAuth(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string) {
    return toPublishingAuthDto(await this.sites.publishingAuth(actor, organizationId, siteId));
  }

  @WriteTransaction()
  @Patch(':siteId/publishing/auth')
  @ApiOperation({
    operationId: 'updateSitePublishingAuthById',
    summary: 'Set the fallback and logout URLs of visitor authentication (admin)',
  })
  @ApiOkResponse({ type: PublishingAuthDto })
  async updatePublishingAuth(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: UpdatePublishingAuthDto,
  ) {
    if (body.backend === 'integration') throw new InvalidInputError('The "integration" backend is not supported: use "custom"');
    return toPublishingAuthDto(await this.sites.updatePublishingAuth(actor, organizationId, siteId, body));
  }

  @WriteTransaction()
  @Post(':siteId/publishing/auth/regenerate')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'regenerateSitePublishingAuthById',
    summary: 'A new signing key: tokens signed with the old one stop working at once (admin)',
  })
  @ApiOkResponse({ type: PublishingAuthDto })
  async regeneratePublishingAuth(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
  ) {
    return toPublishingAuthDto(await this.sites.regeneratePublishingAuth(actor, organizationId, siteId));
  }

  @Get(':siteId/published')
  @ApiOperation({
    operationId: 'getPublishedContentSite',
    summary:
      "The published site as a visitor sees it, narrowed to the spaces the caller may read, with the caller's own permissions: 404 when unpublished, for a share-link site without the key of an active link, and for a visitor-auth site without a valid visitor token",
  })
  @ApiOkResponse({ type: PublishedSiteDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async getPublished(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: PublishedQueryDto,
    @RequestLinks() links: Links,
    @Res() res: Response,
  ): Promise<void> {
    const view = await this.publishedSites.open(actor, organizationId, siteId, {
      shareKey: q.shareKey,
      claims: q.visitorClaims,
      token: q.visitorToken,
    });
    res.type('application/json').send(await this.presenter.bytes(view, links));
  }
}

/** The official SiteSpaceCustomizationSettings: the effective settings, when the site's were updated, and whether the site space overrides them. */
function siteSpaceCustomizationBody(c: { settings: Record<string, unknown>; updatedAt?: Date; hasOverrides: boolean }) {
  return { ...c.settings, ...(c.updatedAt ? { updatedAt: c.updatedAt.toISOString() } : {}), hasOverrides: c.hasOverrides };
}
