import { publishedRoot } from '../domain/site-urls';
import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
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
import { RedirectsService } from '../application/redirects.service';
import {
  BulkRedirectsDto,
  BulkRedirectsResultDto,
  CreateRedirectDto,
  ListRedirectsQueryDto,
  RedirectBySourceDto,
  RedirectBySourceQueryDto,
  SiteRedirectDto,
  toBulkItem,
  toDestinationInput,
  toRedirectDto,
  UpdateRedirectDto,
} from './redirect.dto';

/** Site redirects (the official operations): members read them, those who edit the site's structure write them. */
@ApiTags('sites')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites/:siteId')
export class RedirectsController {
  constructor(private readonly redirects: RedirectsService) {}

  @Get('redirects')
  @ApiOperation({ operationId: 'listSiteRedirects', summary: 'List the live (or draft) redirects of a site' })
  @ApiOkResponse({ type: ListOf(SiteRedirectDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: ListRedirectsQueryDto,
  ) {
    const page = await this.redirects.list(
      actor,
      organizationId,
      siteId,
      { search: q.search || undefined, draft: q.draft ?? false, orderBy: q.orderBy ?? 'createdAt' },
      q.toPageRequest(),
    );
    return listEnvelope(page, toRedirectDto);
  }

  @Get('redirect')
  @ApiOperation({ operationId: 'getSiteRedirectBySource', summary: 'The live redirect a source path answers to, and its destination URL' })
  @ApiOkResponse({ type: RedirectBySourceDto })
  async bySource(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: RedirectBySourceQueryDto,
    @RequestLinks() links: Links,
  ): Promise<RedirectBySourceDto> {
    const found = await this.redirects.bySource(
      actor,
      organizationId,
      siteId,
      q.source,
      (site) => publishedRoot(site, links.origin),
      q.shareKey,
    );
    return { redirect: toRedirectDto(found.redirect), target: found.target };
  }

  @WriteTransaction()
  @Post('redirects')
  @ApiOperation({ operationId: 'createSiteRedirect', summary: 'Create a redirect (409 when the source has one in that state)' })
  @ApiCreatedResponse({ type: SiteRedirectDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: CreateRedirectDto,
  ): Promise<SiteRedirectDto> {
    const created = await this.redirects.create(actor, organizationId, siteId, {
      source: body.source,
      destination: toDestinationInput(body.destination),
      captureWildcard: body.captureWildcard,
      draft: body.draft,
      permanent: body.permanent,
    });
    return toRedirectDto(created);
  }

  @WriteTransaction()
  @Put('redirects')
  @ApiOperation({
    operationId: 'bulkUpsertSiteRedirects',
    summary: 'Create, update, delete or publish up to 500 redirects; each item has its own result',
  })
  @ApiOkResponse({ type: BulkRedirectsResultDto })
  async bulk(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: BulkRedirectsDto,
  ): Promise<BulkRedirectsResultDto> {
    const results = await this.redirects.bulk(actor, organizationId, siteId, body.redirects.map(toBulkItem));
    return { results };
  }

  @WriteTransaction()
  @Patch('redirects/:siteRedirectId')
  @ApiOperation({ operationId: 'updateSiteRedirectById', summary: 'Change a redirect (draft false makes a draft live)' })
  @ApiOkResponse({ type: SiteRedirectDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteRedirectId') siteRedirectId: string,
    @Body() body: UpdateRedirectDto,
  ): Promise<SiteRedirectDto> {
    if (Object.values(body).every((v) => v === undefined)) throw new InvalidInputError('Give at least one field to change');
    const destination = body.destination ? toDestinationInput(body.destination) : undefined;
    if (destination?.kind === 'path') throw new InvalidInputError('destination.kind "path" is for creating; give the page (site-page)');
    const updated = await this.redirects.update(actor, organizationId, siteId, siteRedirectId, {
      source: body.source,
      destination,
      captureWildcard: body.captureWildcard,
      draft: body.draft,
      permanent: body.permanent,
    });
    return toRedirectDto(updated);
  }

  @WriteTransaction()
  @Delete('redirects/:siteRedirectId')
  @ApiDeleteOperation('deleteSiteRedirectById', 'Delete a redirect', 'The redirect')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteRedirectId') siteRedirectId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.redirects.delete(actor, organizationId, siteId, siteRedirectId));
  }
}
