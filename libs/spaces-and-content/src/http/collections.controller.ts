import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor } from '@app/shared-kernel';
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
import { CollectionsService } from '../application/collections.service';
import { CreateCollectionDto, ListCollectionsQueryDto, MoveDto, TransferDto, UpdateCollectionDto } from './content.dto';
import { CollectionDto, toCollectionDto } from '@app/wire';

@ApiTags('collections')
@ApiStandardErrors()
@Controller()
export class CollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Get('orgs/:organizationId/collections')
  @ApiOperation({ operationId: 'listCollectionsInOrganizationById', summary: 'List the collections of an organization' })
  @ApiOkResponse({ type: ListOf(CollectionDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') id: string,
    @Query() query: ListCollectionsQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.collections.list(actor, id, query.nested ?? true, query.toPageRequest());
    return listEnvelope(page, (v) => toCollectionDto(v.collection, v.role, links));
  }

  @WriteTransaction()
  @Post('orgs/:organizationId/collections')
  @ApiOperation({ operationId: 'createCollection', summary: 'Create a collection' })
  @ApiCreatedResponse({ type: CollectionDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') id: string,
    @Body() body: CreateCollectionDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.collections.create(actor, id, body);
    const dto = toCollectionDto(view.collection, view.role, links);
    res.location(dto.urls.location);
    return dto;
  }

  @Get('collections/:collectionId')
  @ApiOperation({ operationId: 'getCollectionById', summary: 'Get a collection' })
  @ApiOkResponse({ type: CollectionDto })
  async get(@CurrentActor() actor: Actor, @Param('collectionId') id: string, @RequestLinks() links: Links) {
    const view = await this.collections.get(actor, id);
    return toCollectionDto(view.collection, view.role, links);
  }

  @WriteTransaction()
  @Patch('collections/:collectionId')
  @ApiOperation({ operationId: 'updateCollectionById', summary: 'Update a collection (admins)' })
  @ApiOkResponse({ type: CollectionDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('collectionId') id: string,
    @Body() body: UpdateCollectionDto,
    @RequestLinks() links: Links,
  ) {
    const view = await this.collections.update(actor, id, body);
    return toCollectionDto(view.collection, view.role, links);
  }

  @WriteTransaction()
  @Delete('collections/:collectionId')
  @ApiDeleteOperation('deleteCollectionById', 'Delete a collection; its spaces are deleted too (restorable for 7 days)', 'Collection')
  async delete(@CurrentActor() actor: Actor, @Param('collectionId') id: string, @Res({ passthrough: true }) res: Response): Promise<void> {
    setDeleteStatus(res, await this.collections.delete(actor, id));
  }

  @WriteTransaction()
  @Post('collections/:collectionId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveCollection', summary: 'Move a collection to another parent and/or position' })
  @ApiOkResponse({ type: CollectionDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Operation would not result in any update' })
  async move(@CurrentActor() actor: Actor, @Param('collectionId') id: string, @Body() body: MoveDto, @RequestLinks() links: Links) {
    const view = await this.collections.move(actor, id, body);
    return toCollectionDto(view.collection, view.role, links);
  }

  @WriteTransaction()
  @Post('collections/:collectionId/transfer')
  @HttpCode(200)
  @ApiOperation({ operationId: 'transferCollection', summary: 'Transfer a collection and its content to another organization' })
  @ApiOkResponse({ type: CollectionDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Transfer would not result in any update' })
  async transfer(@CurrentActor() actor: Actor, @Param('collectionId') id: string, @Body() body: TransferDto, @RequestLinks() links: Links) {
    const view = await this.collections.transfer(actor, id, body.organization);
    return toCollectionDto(view.collection, view.role, links);
  }
}
