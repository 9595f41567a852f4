import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
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
  ListQueryDto,
  RequestLinks,
  setDeleteStatus,
  VisitorReadable,
  WriteTransaction,
} from '@app/http-kit';
import { SpacesService } from '../application/spaces.service';
import {
  ApplyTemplateDto,
  CreateSpaceDto,
  GetSpaceQueryDto,
  MoveDto,
  OrderedListQueryDto,
  TransferDto,
  UpdateSpaceDto,
} from './content.dto';
import { MemberContentPermissionDto, SpaceDto, toSpaceDto, visitorSpaceDto } from '@app/wire';

@ApiTags('spaces')
@ApiStandardErrors()
@Controller()
export class SpacesController {
  constructor(private readonly spaces: SpacesService) {}

  @Get('orgs/:organizationId/spaces')
  @ApiOperation({ operationId: 'listSpacesInOrganizationById', summary: 'List the spaces of an organization' })
  @ApiOkResponse({ type: ListOf(SpaceDto) })
  async listInOrganization(
    @CurrentActor() actor: Actor,
    @Param('organizationId') id: string,
    @Query() query: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.spaces.listInOrganization(actor, id, query.toPageRequest());
    return listEnvelope(page, (v) => toSpaceDto(v.space, v.role, links));
  }

  @WriteTransaction()
  @Post('orgs/:organizationId/spaces')
  @ApiOperation({ operationId: 'createSpace', summary: 'Create a space' })
  @ApiCreatedResponse({ type: SpaceDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') id: string,
    @Body() body: CreateSpaceDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { empty: _empty, ...input } = body;
    const view = await this.spaces.create(actor, id, input);
    const dto = toSpaceDto(view.space, view.role, links);
    res.location(dto.urls.location);
    return dto;
  }

  @Get('orgs/:organizationId/members/:userId/spaces')
  @ApiTags('organization-members')
  @ApiOperation({ operationId: 'listSpacesForOrganizationMember', summary: 'List the spaces a member can access, with their role on each' })
  @ApiOkResponse({ type: ListOf(MemberContentPermissionDto) })
  async listForMember(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('userId') userId: string,
    @Query() query: OrderedListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.spaces.listForMember(actor, org, userId, query.order ?? 'desc', query.toPageRequest());
    return listEnvelope(page, (v) => ({ permission: v.permission, space: toSpaceDto(v.space, v.role, links) }));
  }

  @Get('collections/:collectionId/spaces')
  @ApiTags('collections')
  @ApiOperation({ operationId: 'listSpacesInCollectionById', summary: 'List the spaces directly in a collection, in their order' })
  @ApiOkResponse({ type: ListOf(SpaceDto) })
  async listInCollection(
    @CurrentActor() actor: Actor,
    @Param('collectionId') id: string,
    @Query() query: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.spaces.listInCollection(actor, id, query.toPageRequest());
    return listEnvelope(page, (v) => toSpaceDto(v.space, v.role, links));
  }

  @Get('spaces/:spaceId')
  @VisitorReadable()
  @ApiOperation({ operationId: 'getSpaceById', summary: 'Get a space (a deleted one carries deletedAt while it can be restored)' })
  @ApiOkResponse({ type: SpaceDto })
  async get(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Query() _query: GetSpaceQueryDto, @RequestLinks() links: Links) {
    const view = await this.spaces.get(actor, id);
    const dto = toSpaceDto(view.space, view.role, links);
    return actor.reader ? visitorSpaceDto(dto) : dto;
  }

  @WriteTransaction()
  @Patch('spaces/:spaceId')
  @ApiOperation({ operationId: 'updateSpaceById', summary: 'Update a space (editMode, defaultLevel and mergeRules need admin)' })
  @ApiOkResponse({ type: SpaceDto })
  async update(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Body() body: UpdateSpaceDto, @RequestLinks() links: Links) {
    const view = await this.spaces.update(actor, id, body);
    return toSpaceDto(view.space, view.role, links);
  }

  @WriteTransaction()
  @Delete('spaces/:spaceId')
  @ApiDeleteOperation('deleteSpaceById', 'Delete a space (restorable for 7 days)', 'Space')
  async delete(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Res({ passthrough: true }) res: Response): Promise<void> {
    setDeleteStatus(res, await this.spaces.delete(actor, id));
  }

  @WriteTransaction()
  @Post('spaces/:spaceId/content/template')
  @HttpCode(204)
  @ApiTags('space-content')
  @ApiOperation({ operationId: 'applyTemplateToSpace', summary: "Append a built-in template's pages to the space's content (edit role)" })
  @ApiNoContentResponse({ description: 'Template applied' })
  async applyTemplate(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Body() body: ApplyTemplateDto): Promise<void> {
    await this.spaces.applyTemplate(actor, id, body);
  }

  @WriteTransaction()
  @Post('spaces/:spaceId/duplicate')
  @ApiOperation({ operationId: 'duplicateSpace', summary: 'Duplicate a space' })
  @ApiCreatedResponse({ type: SpaceDto })
  async duplicate(
    @CurrentActor() actor: Actor,
    @Param('spaceId') id: string,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.spaces.duplicate(actor, id);
    const dto = toSpaceDto(view.space, view.role, links);
    res.location(dto.urls.location);
    return dto;
  }

  @WriteTransaction()
  @Post('spaces/:spaceId/restore')
  @HttpCode(200)
  @ApiOperation({ operationId: 'restoreSpace', summary: 'Restore a space deleted less than 7 days ago' })
  @ApiOkResponse({ type: SpaceDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'The space is not deleted' })
  async restore(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @RequestLinks() links: Links) {
    const view = await this.spaces.restore(actor, id);
    return toSpaceDto(view.space, view.role, links);
  }

  @WriteTransaction()
  @Post('spaces/:spaceId/move')
  @HttpCode(200)
  @ApiOperation({ operationId: 'moveSpace', summary: 'Move a space to a collection and/or a position' })
  @ApiBody({ type: MoveDto })
  @ApiOkResponse({ type: SpaceDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Operation would not result in any update' })
  async move(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Body() body: MoveDto, @RequestLinks() links: Links) {
    const view = await this.spaces.move(actor, id, body);
    return toSpaceDto(view.space, view.role, links);
  }

  @WriteTransaction()
  @Post('spaces/:spaceId/transfer')
  @HttpCode(200)
  @ApiOperation({ operationId: 'transferSpace', summary: 'Transfer a space to another organization the caller administers' })
  @ApiOkResponse({ type: SpaceDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'Transfer would not result in any update' })
  async transfer(@CurrentActor() actor: Actor, @Param('spaceId') id: string, @Body() body: TransferDto, @RequestLinks() links: Links) {
    const view = await this.spaces.transfer(actor, id, body.organization);
    return toSpaceDto(view.space, view.role, links);
  }
}
