import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { toTeamDto, TeamDto, toUserDto, UserDto } from '@app/organizations-and-teams';
import { Actor, Role, ROLES } from '@app/shared-kernel';
import {
  ApiDeleteOperation,
  ApiStandardErrors,
  CurrentActor,
  Links,
  listEnvelope,
  ListOf,
  ListQueryDto,
  Optional,
  RequestLinks,
  setDeleteStatus,
} from '@app/http-kit';
import { ContentPermissionsService, ContentRef, INVITE_MAX } from '../application/content-permissions.service';

// ---------------------------------------------------------------------------------------------
// Requests

export class InviteUsersAndTeamsDto {
  /** The role to grant (`null`, a guest in the official document, is refused: Quire has no guests) */
  @ApiProperty({ enum: ROLES, nullable: true }) @ValidateIf((_o, v) => v !== null) @IsIn(ROLES) role: Role | null;
  /** Members of the organization, by id or email */
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(INVITE_MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(320, { each: true })
  users?: string[];
  /** Teams of the organization, by id */
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(INVITE_MAX)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(100, { each: true })
  teams?: string[];
}

export class UpdateContentPermissionDto {
  @ApiProperty({ enum: ROLES, nullable: true }) @ValidateIf((_o, v) => v !== null) @IsIn(ROLES) role: Role | null;
}

export class AggregateQueryDto extends ListQueryDto {
  /** Only those whose effective role is this one */
  @ApiPropertyOptional({ enum: ROLES }) @Optional() @IsIn(ROLES) role?: Role;
}

// ---------------------------------------------------------------------------------------------
// Responses

export class UserContentPermissionDto {
  @ApiProperty({ enum: ROLES }) permission: string;
  user: UserDto;
}

export class TeamContentPermissionDto {
  @ApiProperty({ enum: ROLES }) permission: string;
  team: TeamDto;
}

// ---------------------------------------------------------------------------------------------

/** The operations shared by spaces and collections: the same service, another kind of content. */
abstract class ContentPermissionsEndpoints {
  constructor(protected readonly permissions: ContentPermissionsService) {}

  protected invite(actor: Actor, content: ContentRef, body: InviteUsersAndTeamsDto): Promise<void> {
    return this.permissions.invite(actor, content, body);
  }

  protected async users(actor: Actor, content: ContentRef, q: ListQueryDto, links: Links) {
    const page = await this.permissions.listUsers(actor, content, q.toPageRequest());
    return listEnvelope(page, (p): UserContentPermissionDto => ({ permission: p.permission, user: toUserDto(p.user, links) }));
  }

  protected async aggregated(actor: Actor, content: ContentRef, q: AggregateQueryDto, links: Links) {
    const page = await this.permissions.aggregate(actor, content, { role: q.role }, q.toPageRequest());
    return listEnvelope(page, (p): UserContentPermissionDto => ({ permission: p.permission, user: toUserDto(p.user, links) }));
  }

  protected async teams(actor: Actor, content: ContentRef, q: ListQueryDto) {
    const page = await this.permissions.listTeams(actor, content, q.toPageRequest());
    return listEnvelope(page, (p): TeamContentPermissionDto => ({
      permission: p.permission,
      team: toTeamDto(p.team, { admin: page.teamAdmin, view: true }),
    }));
  }
}

@ApiTags('spaces')
@ApiStandardErrors()
@Controller('spaces/:spaceId/permissions')
export class SpacePermissionsController extends ContentPermissionsEndpoints {
  constructor(permissions: ContentPermissionsService) {
    super(permissions);
  }

  @Post()
  @HttpCode(204)
  @ApiOperation({ operationId: 'inviteToSpace', summary: 'Grant a role on the space to members and teams (admin of the space)' })
  @ApiNoContentResponse({ description: 'OK' })
  post(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Body() body: InviteUsersAndTeamsDto): Promise<void> {
    return this.invite(actor, { kind: 'space', id: spaceId }, body);
  }

  @Get('aggregate')
  @ApiOperation({
    operationId: 'listPermissionsAggregateInSpace',
    summary: 'Everyone who can access the space, with their effective role (organization role, default levels, grants)',
  })
  @ApiOkResponse({ type: ListOf(UserContentPermissionDto) })
  aggregate(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() q: AggregateQueryDto, @RequestLinks() links: Links) {
    return this.aggregated(actor, { kind: 'space', id: spaceId }, q, links);
  }

  @Get('users')
  @ApiOperation({ operationId: 'listUserPermissionsInSpace', summary: 'The members granted a role on the space' })
  @ApiOkResponse({ type: ListOf(UserContentPermissionDto) })
  listUsers(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
    return this.users(actor, { kind: 'space', id: spaceId }, q, links);
  }

  @Patch('users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateUserPermissionInSpace', summary: 'Change the role granted to a member (admin of the space)' })
  @ApiNoContentResponse({ description: 'User permission was updated' })
  patchUser(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('userId') userId: string,
    @Body() body: UpdateContentPermissionDto,
  ): Promise<void> {
    return this.permissions.update(actor, { kind: 'space', id: spaceId }, { kind: 'user', id: userId }, body.role);
  }

  @Delete('users/:userId')
  @ApiDeleteOperation('removeUserFromSpace', 'Take back the role granted to a member (admin of the space)', 'The user permission')
  async deleteUser(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.permissions.remove(actor, { kind: 'space', id: spaceId }, { kind: 'user', id: userId }));
  }

  @Get('teams')
  @ApiOperation({ operationId: 'listTeamPermissionsInSpace', summary: 'The teams granted a role on the space' })
  @ApiOkResponse({ type: ListOf(TeamContentPermissionDto) })
  listTeams(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() q: ListQueryDto) {
    return this.teams(actor, { kind: 'space', id: spaceId }, q);
  }

  @Patch('teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateTeamPermissionInSpace', summary: 'Change the role granted to a team (admin of the space)' })
  @ApiNoContentResponse({ description: 'Team permission was updated' })
  patchTeam(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateContentPermissionDto,
  ): Promise<void> {
    return this.permissions.update(actor, { kind: 'space', id: spaceId }, { kind: 'team', id: teamId }, body.role);
  }

  @Delete('teams/:teamId')
  @ApiDeleteOperation('removeTeamFromSpace', 'Take back the role granted to a team (admin of the space)', 'The team permission')
  async deleteTeam(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('teamId') teamId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.permissions.remove(actor, { kind: 'space', id: spaceId }, { kind: 'team', id: teamId }));
  }
}

@ApiTags('collections')
@ApiStandardErrors()
@Controller('collections/:collectionId/permissions')
export class CollectionPermissionsController extends ContentPermissionsEndpoints {
  constructor(permissions: ContentPermissionsService) {
    super(permissions);
  }

  @Post()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'inviteToCollection',
    summary: 'Grant a role on the collection (and everything in it) to members and teams (admin of the collection)',
  })
  @ApiNoContentResponse({ description: 'OK' })
  post(@CurrentActor() actor: Actor, @Param('collectionId') collectionId: string, @Body() body: InviteUsersAndTeamsDto): Promise<void> {
    return this.invite(actor, { kind: 'collection', id: collectionId }, body);
  }

  @Get('aggregate')
  @ApiOperation({
    operationId: 'listPermissionsAggregateInCollection',
    summary: 'Everyone who can access the collection, with their effective role (organization role, default levels, grants)',
  })
  @ApiOkResponse({ type: ListOf(UserContentPermissionDto) })
  aggregate(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Query() q: AggregateQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.aggregated(actor, { kind: 'collection', id: collectionId }, q, links);
  }

  @Get('users')
  @ApiOperation({ operationId: 'listUserPermissionsInCollection', summary: 'The members granted a role on the collection' })
  @ApiOkResponse({ type: ListOf(UserContentPermissionDto) })
  listUsers(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    return this.users(actor, { kind: 'collection', id: collectionId }, q, links);
  }

  @Patch('users/:userId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'updateUserPermissionInCollection',
    summary: 'Change the role granted to a member (admin of the collection)',
  })
  @ApiNoContentResponse({ description: 'User permission was updated' })
  patchUser(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Param('userId') userId: string,
    @Body() body: UpdateContentPermissionDto,
  ): Promise<void> {
    return this.permissions.update(actor, { kind: 'collection', id: collectionId }, { kind: 'user', id: userId }, body.role);
  }

  @Delete('users/:userId')
  @ApiDeleteOperation('removeUserFromCollection', 'Take back the role granted to a member (admin of the collection)', 'The user permission')
  async deleteUser(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.permissions.remove(actor, { kind: 'collection', id: collectionId }, { kind: 'user', id: userId }));
  }

  @Get('teams')
  @ApiOperation({ operationId: 'listTeamPermissionsInCollection', summary: 'The teams granted a role on the collection' })
  @ApiOkResponse({ type: ListOf(TeamContentPermissionDto) })
  listTeams(@CurrentActor() actor: Actor, @Param('collectionId') collectionId: string, @Query() q: ListQueryDto) {
    return this.teams(actor, { kind: 'collection', id: collectionId }, q);
  }

  @Patch('teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateTeamPermissionInCollection', summary: 'Change the role granted to a team (admin of the collection)' })
  @ApiNoContentResponse({ description: 'Team permission was updated' })
  patchTeam(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateContentPermissionDto,
  ): Promise<void> {
    return this.permissions.update(actor, { kind: 'collection', id: collectionId }, { kind: 'team', id: teamId }, body.role);
  }

  @Delete('teams/:teamId')
  @ApiDeleteOperation('removeTeamFromCollection', 'Take back the role granted to a team (admin of the collection)', 'The team permission')
  async deleteTeam(
    @CurrentActor() actor: Actor,
    @Param('collectionId') collectionId: string,
    @Param('teamId') teamId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.permissions.remove(actor, { kind: 'collection', id: collectionId }, { kind: 'team', id: teamId }));
  }
}
