import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor, InvalidInputError } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  Links,
  listEnvelope,
  ListOf,
  RequestLinks,
  setDeleteStatus,
  WriteTransaction,
} from '@app/http-kit';
import { ShareLinksService } from '../application/share-links.service';
import { CreateShareLinkDto, ListShareLinksQueryDto, ShareLinkDto, toShareLinkDto, UpdateShareLinkDto } from './share-link.dto';

/** Share links of a site (official operations); keys are shown to admins only. */
@ApiTags('sites')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites/:siteId/share-links')
export class ShareLinksController {
  constructor(private readonly links: ShareLinksService) {}

  @Get()
  @ApiOperation({ operationId: 'listSiteShareLinks', summary: 'List the share links of a site (keys for admins only)' })
  @ApiOkResponse({ type: ListOf(ShareLinkDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: ListShareLinksQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.links.list(actor, organizationId, siteId, q.toPageRequest(), q.search);
    return listEnvelope(page, (v) => toShareLinkDto(v.link, v.site, v.showKey, links));
  }

  @WriteTransaction()
  @Post()
  @ApiOperation({ operationId: 'createSiteShareLink', summary: 'Create a share link (active, with a new secret key; admin)' })
  @ApiCreatedResponse({ type: ShareLinkDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: CreateShareLinkDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ShareLinkDto> {
    const v = await this.links.create(actor, organizationId, siteId, body.name);
    res.location(`${links.api(`/orgs/${organizationId}/sites/${siteId}/share-links`)}/${v.link.id}`);
    return toShareLinkDto(v.link, v.site, v.showKey, links);
  }

  @WriteTransaction()
  @Patch(':shareLinkId')
  @ApiOperation({
    operationId: 'updateSiteShareLinkById',
    summary: 'Rename or (de)activate a share link (admin); a deactivated key stops working at once',
  })
  @ApiOkResponse({ type: ShareLinkDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('shareLinkId') shareLinkId: string,
    @Body() body: UpdateShareLinkDto,
    @RequestLinks() links: Links,
  ): Promise<ShareLinkDto> {
    if (body.active === undefined && body.name === undefined) throw new InvalidInputError('Give "active" or "name"');
    const v = await this.links.update(actor, organizationId, siteId, shareLinkId, body);
    return toShareLinkDto(v.link, v.site, v.showKey, links);
  }

  @WriteTransaction()
  @Delete(':shareLinkId')
  @ApiDeleteOperation('deleteSiteShareLinkById', 'Delete a share link (admin)', 'The share link')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('shareLinkId') shareLinkId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.links.delete(actor, organizationId, siteId, shareLinkId));
  }
}
