import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor, InvalidInputError } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  Links,
  listEnvelope,
  ListOf,
  ListQueryDto,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { SitesService, SiteWithSpaces } from '../application/sites.service';
import { findExternalLink, findGroup, findSection, findSiteSpace, parentGroupOf, StructurePointer } from '../domain/site';
import {
  AddGroupDto,
  AddSectionDto,
  AddSectionToGroupDto,
  AddSiteSpaceDto,
  AddExternalLinkDto,
  SiteExternalLinkDto,
  UpdateExternalLinkDto,
  DuplicateSiteSpaceDto,
  ListSiteSpacesQueryDto,
  ListWithShareKeyQueryDto,
  MoveGroupDto,
  MoveSectionDto,
  MoveSiteSpaceDto,
  SiteSectionDto,
  SiteSectionGroupDto,
  SiteSpaceDto,
  SiteStructureDto,
  SortStructureDto,
  UpdateGroupDto,
  UpdateSectionDto,
  UpdateSiteSpaceDto,
} from './site-structure.dto';
import { ShareKeyQueryDto } from './site.dto';
import { StructurePresenter } from './structure.presenter';

type Ctx = { actor: Actor; organizationId: string; siteId: string };

/** Sections, section groups, site spaces and the whole structure of a site (official operations). */
@ApiTags('sites')
@ApiStandardErrors()
@ApiExtraModels(SiteSectionDto, SiteSectionGroupDto, SiteSpaceDto)
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteStructureController {
  constructor(private readonly sites: SitesService) {}

  private presenter(v: SiteWithSpaces, links: Links) {
    return new StructurePresenter(v.site, v.spaces, links);
  }

  private sectionDto(v: SiteWithSpaces, id: string, links: Links): SiteSectionDto {
    return this.presenter(v, links).section(findSection(v.site.structure, id), parentGroupOf(v.site.structure, id));
  }

  private groupDto(v: SiteWithSpaces, id: string, links: Links): SiteSectionGroupDto {
    return this.presenter(v, links).group(findGroup(v.site.structure, id), parentGroupOf(v.site.structure, id));
  }

  private siteSpaceDto(v: SiteWithSpaces, id: string, links: Links): SiteSpaceDto {
    const { node, section } = findSiteSpace(v.site.structure, id);
    const dto = this.presenter(v, links).siteSpace(node, section);
    if (!dto) throw new InvalidInputError('The space of this site space is gone');
    return dto;
  }

  // ----------------------------------------------------------------------------------- structure

  @Get('structure')
  @ApiOperation({ operationId: 'getSiteStructure', summary: 'The structure of a site: sections and groups, or site spaces, in order' })
  @ApiOkResponse({ type: SiteStructureDto })
  async structure(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: ShareKeyQueryDto,
    @RequestLinks() links: Links,
  ): Promise<SiteStructureDto> {
    const v = await this.sites.getWithSpaces(actor, organizationId, siteId, q.shareKey);
    return this.presenter(v, links).structure(v.site.structure);
  }

  @WriteTransaction()
  @Patch('structure/sort')
  @ApiOperation({
    operationId: 'sortSiteStructure',
    summary: 'Move a site space, section, section group or external link before or after a sibling (or to the end of its level)',
  })
  @ApiOkResponse({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(SiteSpaceDto) },
        { $ref: getSchemaPath(SiteSectionDto) },
        { $ref: getSchemaPath(SiteSectionGroupDto) },
        { $ref: getSchemaPath(SiteExternalLinkDto) },
      ],
    },
  })
  async sort(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: SortStructureDto,
    @RequestLinks() links: Links,
  ) {
    return this.move({ actor, organizationId, siteId }, body.item, body.position, links);
  }

  private async move(
    c: Ctx,
    item: StructurePointer,
    position: { before?: StructurePointer; after?: StructurePointer },
    links: Links,
  ): Promise<SiteSpaceDto | SiteSectionDto | SiteSectionGroupDto | SiteExternalLinkDto> {
    const v = await this.sites.sort(c.actor, c.organizationId, c.siteId, item, position);
    if (item.type === 'site-space') return this.siteSpaceDto(v, item.id, links);
    if (item.type === 'site-external-link') return this.externalLinkDto(v, item.id, links);
    if (item.type === 'site-section') return this.sectionDto(v, item.id, links);
    return this.groupDto(v, item.id, links);
  }

  // ------------------------------------------------------------------------------------ sections

  @Get('sections')
  @ApiOperation({ operationId: 'listSiteSections', summary: 'List the sections of a site, in structure order' })
  @ApiOkResponse({ type: ListOf(SiteSectionDto) })
  async listSections(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: ListWithShareKeyQueryDto,
    @RequestLinks() links: Links,
  ) {
    const { view, page } = await this.sites.listSections(actor, organizationId, siteId, q.shareKey, q.toPageRequest());
    const presenter = this.presenter(view, links);
    return listEnvelope(page, (s) => presenter.section(s.section, s.group));
  }

  @WriteTransaction()
  @Post('sections')
  @ApiOperation({
    operationId: 'addSectionToSite',
    summary: 'Add a section holding a space (the first section adopts the root site spaces)',
  })
  @ApiCreatedResponse({ type: SiteSectionDto })
  async addSection(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: AddSectionDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SiteSectionDto> {
    const v = await this.sites.addSection(actor, organizationId, siteId, body);
    const id = v.section.id;
    res.location(`${links.api(`/orgs/${organizationId}/sites/${siteId}/sections`)}/${id}`);
    return this.sectionDto(v, id, links);
  }

  @WriteTransaction()
  @Patch('sections/:siteSectionId')
  @ApiOperation({
    operationId: 'updateSiteSectionById',
    summary: 'Update a section (path unique within the site; condition null removes it)',
  })
  @ApiOkResponse({ type: SiteSectionDto })
  async updateSection(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionId') sectionId: string,
    @Body() body: UpdateSectionDto,
    @RequestLinks() links: Links,
  ): Promise<SiteSectionDto> {
    const v = await this.sites.updateSection(actor, organizationId, siteId, sectionId, body);
    return this.sectionDto(v, sectionId, links);
  }

  @WriteTransaction()
  @Delete('sections/:siteSectionId')
  @ApiDeleteOperation('deleteSiteSectionById', 'Delete a section and its site spaces', 'The section')
  async deleteSection(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionId') sectionId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.sites.deleteSection(actor, organizationId, siteId, sectionId));
  }

  @WriteTransaction()
  @Post('sections/:siteSectionId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSiteSection', summary: 'Deprecated: use sortSiteStructure', deprecated: true })
  @ApiOkResponse({ type: SiteSectionDto })
  async moveSection(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionId') sectionId: string,
    @Body() body: MoveSectionDto,
    @RequestLinks() links: Links,
  ) {
    const p = body.position ?? {};
    const ptr = (x?: { siteSection: string }) => (x ? { type: 'site-section' as const, id: x.siteSection } : undefined);
    return this.move(
      { actor, organizationId, siteId },
      { type: 'site-section', id: sectionId },
      { before: ptr(p.before), after: ptr(p.after) },
      links,
    );
  }

  // ------------------------------------------------------------------------------ section groups

  @Get('section-groups')
  @ApiOperation({ operationId: 'listSiteSectionGroups', summary: 'List the section groups of a site, in structure order' })
  @ApiOkResponse({ type: ListOf(SiteSectionGroupDto) })
  async listGroups(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const { view, page } = await this.sites.listGroups(actor, organizationId, siteId, q.toPageRequest());
    const presenter = this.presenter(view, links);
    return listEnvelope(page, (g) => presenter.group(g.group, g.parent));
  }

  @WriteTransaction()
  @Post('section-groups')
  @ApiOperation({ operationId: 'addSectionGroupToSite', summary: 'Add a section group (the sections given move into it)' })
  @ApiCreatedResponse({ type: SiteSectionGroupDto })
  async addGroup(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: AddGroupDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SiteSectionGroupDto> {
    const v = await this.sites.addGroup(actor, organizationId, siteId, { ...body, icon: body.icon ?? undefined });
    res.location(`${links.api(`/orgs/${organizationId}/sites/${siteId}/section-groups`)}/${v.result.id}`);
    return this.groupDto(v, v.result.id, links);
  }

  @WriteTransaction()
  @Patch('section-groups/:siteSectionGroupId')
  @ApiOperation({ operationId: 'updateSiteSectionGroupById', summary: 'Update a section group' })
  @ApiOkResponse({ type: SiteSectionGroupDto })
  async updateGroup(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: UpdateGroupDto,
    @RequestLinks() links: Links,
  ): Promise<SiteSectionGroupDto> {
    const v = await this.sites.updateGroup(actor, organizationId, siteId, groupId, body);
    return this.groupDto(v, groupId, links);
  }

  @WriteTransaction()
  @Delete('section-groups/:siteSectionGroupId')
  @ApiDeleteOperation('deleteSiteSectionGroupById', 'Delete a section group (what it holds takes its place)', 'The section group')
  async deleteGroup(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.sites.deleteGroup(actor, organizationId, siteId, groupId));
  }

  @WriteTransaction()
  @Post('section-groups/:siteSectionGroupId/sections')
  @ApiOperation({ operationId: 'addSectionToGroup', summary: 'Move a section into a section group (at its end)' })
  @ApiCreatedResponse({ type: SiteSectionGroupDto })
  async addSectionToGroup(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: AddSectionToGroupDto,
    @RequestLinks() links: Links,
  ): Promise<SiteSectionGroupDto> {
    const v = await this.sites.addSectionToGroup(actor, organizationId, siteId, groupId, body.sectionId);
    return this.groupDto(v, groupId, links);
  }

  @WriteTransaction()
  @Delete('section-groups/:siteSectionGroupId/sections/:siteSectionId')
  @ApiDeleteOperation('removeSectionFromGroup', 'Take a section out of a group (it goes right after the group)', 'The section')
  async removeSectionFromGroup(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Param('siteSectionId') sectionId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.sites.removeSectionFromGroup(actor, organizationId, siteId, groupId, sectionId));
  }

  @WriteTransaction()
  @Post('section-groups/:siteSectionGroupId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSiteSectionGroup', summary: 'Deprecated: use sortSiteStructure', deprecated: true })
  @ApiOkResponse({ type: SiteSectionGroupDto })
  async moveGroup(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSectionGroupId') groupId: string,
    @Body() body: MoveGroupDto,
    @RequestLinks() links: Links,
  ) {
    const p = body.position ?? {};
    return this.move(
      { actor, organizationId, siteId },
      { type: 'site-section-group', id: groupId },
      { before: p.before, after: p.after },
      links,
    );
  }

  // ------------------------------------------------------------------------------ external links

  private externalLinkDto(v: SiteWithSpaces, id: string, links: Links): SiteExternalLinkDto {
    return this.presenter(v, links).externalLink(findExternalLink(v.site.structure, id), parentGroupOf(v.site.structure, id));
  }

  @WriteTransaction()
  @Post('external-links')
  @ApiTags('site-external-links')
  @ApiOperation({
    operationId: 'addExternalLinkToSite',
    summary: "Add an external link to a site's navigation",
    description:
      'A link to an absolute http or https URL, at the site root or in a section group (`parent`), shown among the section ' +
      'tabs of the published site. The site must have sections (400 otherwise). Quire has no drafts: `draft` true is a 400.',
  })
  @ApiCreatedResponse({ type: SiteExternalLinkDto })
  async addExternalLink(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: AddExternalLinkDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SiteExternalLinkDto> {
    const v = await this.sites.addExternalLink(actor, organizationId, siteId, body);
    res.location(`${links.api(`/orgs/${organizationId}/sites/${siteId}/external-links`)}/${v.result.id}`);
    return this.externalLinkDto(v, v.result.id, links);
  }

  @WriteTransaction()
  @Patch('external-links/:siteExternalLinkId')
  @ApiTags('site-external-links')
  @ApiOperation({
    operationId: 'updateSiteExternalLinkById',
    summary: 'Update an external link of a site (null clears a field; parent null moves it to the root)',
  })
  @ApiHeader({ name: 'prefer', required: false, enum: ['return=minimal', 'return=representation'] })
  @ApiOkResponse({ type: SiteExternalLinkDto })
  @ApiNoContentResponse({ description: 'Updated, without its representation (Prefer: return=minimal)' })
  async updateExternalLink(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteExternalLinkId') linkId: string,
    @Body() body: UpdateExternalLinkDto,
    @Headers('prefer') prefer: string | undefined,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SiteExternalLinkDto | undefined> {
    const v = await this.sites.updateExternalLink(actor, organizationId, siteId, linkId, body);
    if (prefer?.trim() === 'return=minimal') {
      res.status(204).setHeader('Preference-Applied', 'return=minimal');
      return undefined;
    }
    return this.externalLinkDto(v, linkId, links);
  }

  @WriteTransaction()
  @Delete('external-links/:siteExternalLinkId')
  @ApiTags('site-external-links')
  @ApiDeleteOperation('deleteSiteExternalLinkById', 'Remove an external link from a site', 'The external link')
  async deleteExternalLink(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteExternalLinkId') linkId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.sites.deleteExternalLink(actor, organizationId, siteId, linkId));
  }

  // --------------------------------------------------------------------------------- site spaces

  @Get('site-spaces')
  @ApiOperation({ operationId: 'listSiteSpaces', summary: 'List the site spaces of a site, in structure order' })
  @ApiOkResponse({ type: ListOf(SiteSpaceDto) })
  async listSiteSpaces(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: ListSiteSpacesQueryDto,
    @RequestLinks() links: Links,
  ) {
    const { view, page } = await this.sites.listSiteSpaces(
      actor,
      organizationId,
      siteId,
      { shareKey: q.shareKey, isDefault: q.default },
      q.toPageRequest(),
    );
    const presenter = this.presenter(view, links);
    // The service left out site spaces whose space is gone: each presents.
    return listEnvelope(page, (s) => presenter.siteSpace(s.node, s.section)!);
  }

  @WriteTransaction()
  @Post('site-spaces')
  @ApiOperation({
    operationId: 'addSpaceToSite',
    summary: 'Add a space to a site (to the given section, else the default one, else the root)',
  })
  @ApiCreatedResponse({ type: SiteSpaceDto })
  async addSiteSpace(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: AddSiteSpaceDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SiteSpaceDto> {
    const v = await this.sites.addSiteSpace(actor, organizationId, siteId, body);
    res.location(`${links.api(`/orgs/${organizationId}/sites/${siteId}/site-spaces`)}/${v.result.id}`);
    return this.siteSpaceDto(v, v.result.id, links);
  }

  @WriteTransaction()
  @Post('site-spaces/:siteSpaceId/duplicate')
  @ApiOperation({
    operationId: 'duplicateSiteSpace',
    summary: 'Duplicate a space in a site',
    description:
      'Copies the space of the site space (as duplicateSpace does) and places the copy beside it: a new section right after ' +
      'its section when it is the only site space there, else a new variant right after it. Needs the site structure role and ' +
      'the right to create a space where the space is. Quire has no draft site spaces: `draft` true is a 400.',
  })
  @ApiCreatedResponse({ type: SiteSpaceDto })
  async duplicateSiteSpace(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() _body: DuplicateSiteSpaceDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SiteSpaceDto> {
    const v = await this.sites.duplicateSiteSpace(actor, organizationId, siteId, siteSpaceId);
    res.location(`${links.api(`/orgs/${organizationId}/sites/${siteId}/site-spaces`)}/${v.result.id}`);
    return this.siteSpaceDto(v, v.result.id, links);
  }

  @WriteTransaction()
  @Patch('site-spaces/:siteSpaceId')
  @ApiOperation({
    operationId: 'updateSiteSpaceById',
    summary: 'Update a site space (path unique within its section; condition null removes it)',
  })
  @ApiOkResponse({ type: SiteSpaceDto })
  async updateSiteSpace(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() body: UpdateSiteSpaceDto,
    @RequestLinks() links: Links,
  ): Promise<SiteSpaceDto> {
    const v = await this.sites.updateSiteSpace(actor, organizationId, siteId, siteSpaceId, body);
    return this.siteSpaceDto(v, siteSpaceId, links);
  }

  @WriteTransaction()
  @Delete('site-spaces/:siteSpaceId')
  @ApiDeleteOperation('deleteSiteSpaceById', 'Remove a space from a site', 'The site space')
  async deleteSiteSpace(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.sites.deleteSiteSpace(actor, organizationId, siteId, siteSpaceId));
  }

  @WriteTransaction()
  @Post('site-spaces/:siteSpaceId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSiteSpace', summary: 'Deprecated: use sortSiteStructure', deprecated: true })
  @ApiOkResponse({ type: SiteSpaceDto })
  async moveSiteSpace(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() body: MoveSiteSpaceDto,
    @RequestLinks() links: Links,
  ) {
    const p = body.position ?? {};
    const ptr = (x?: { siteSpace: string }) => (x ? { type: 'site-space' as const, id: x.siteSpace } : undefined);
    return this.move(
      { actor, organizationId, siteId },
      { type: 'site-space', id: siteSpaceId },
      { before: ptr(p.before), after: ptr(p.after) },
      links,
    );
  }
}
