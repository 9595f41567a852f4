import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { User } from '@app/organizations-and-teams';
import { Actor, Role } from '@app/shared-kernel';
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
import { ContentPermissionsService } from '../application/content-permissions.service';
import {
  toTeamDto,
  toUserDto,
  UserContentPermissionDto,
  InviteUsersAndTeamsDto,
  UpdateContentPermissionDto,
  TeamContentPermissionDto,
} from '@app/wire';
import { AggregateQueryDto } from './content-permission.dto';

// ---------------------------------------------------------------------------------------------
// Requests

// ---------------------------------------------------------------------------------------------
// Responses

// ---------------------------------------------------------------------------------------------

/** A member's grant or effective role as the official UserContentPermission. */
const userPermission =
  (links: Links) =>
  (p: { permission: Role; user: User }): UserContentPermissionDto => ({ permission: p.permission, user: toUserDto(p.user, links) });

/**
 * The permission operations of spaces and collections: one controller class per kind, made by one
 * function (the same handlers, another path, kind and official operationIds).
 */
function permissionsController(kind: 'space' | 'collection') {
  const Kind = kind === 'space' ? 'Space' : 'Collection';
  const param = `${kind}Id`;

  @ApiTags(`${kind === 'space' ? 'spaces' : 'collections'}`)
  @ApiStandardErrors()
  @Controller(`${kind === 'space' ? 'spaces' : 'collections'}/:${param}/permissions`)
  class PermissionsController {
    constructor(readonly permissions: ContentPermissionsService) {}

    @WriteTransaction()
    @Post()
    @HttpCode(204)
    @ApiOperation({ operationId: `inviteTo${Kind}`, summary: `Grant a role on the ${kind} to members and teams (admin of the ${kind})` })
    @ApiNoContentResponse({ description: 'OK' })
    invite(@CurrentActor() actor: Actor, @Param(param) id: string, @Body() body: InviteUsersAndTeamsDto): Promise<void> {
      return this.permissions.invite(actor, { kind, id }, body);
    }

    @Get('aggregate')
    @ApiOperation({
      operationId: `listPermissionsAggregateIn${Kind}`,
      summary: `Everyone who can access the ${kind}, with their effective role (organization role, default levels, grants)`,
    })
    @ApiOkResponse({ type: ListOf(UserContentPermissionDto) })
    async aggregate(@CurrentActor() actor: Actor, @Param(param) id: string, @Query() q: AggregateQueryDto, @RequestLinks() links: Links) {
      const page = await this.permissions.aggregate(actor, { kind, id }, { role: q.role }, q.toPageRequest());
      return listEnvelope(page, userPermission(links));
    }

    @Get('users')
    @ApiOperation({ operationId: `listUserPermissionsIn${Kind}`, summary: `The members granted a role on the ${kind}` })
    @ApiOkResponse({ type: ListOf(UserContentPermissionDto) })
    async users(@CurrentActor() actor: Actor, @Param(param) id: string, @Query() q: ListQueryDto, @RequestLinks() links: Links) {
      const page = await this.permissions.listUsers(actor, { kind, id }, q.toPageRequest());
      return listEnvelope(page, userPermission(links));
    }

    @WriteTransaction()
    @Patch('users/:userId')
    @HttpCode(204)
    @ApiOperation({ operationId: `updateUserPermissionIn${Kind}`, summary: `Change the role granted to a member (admin of the ${kind})` })
    @ApiNoContentResponse({ description: 'User permission was updated' })
    patchUser(
      @CurrentActor() actor: Actor,
      @Param(param) id: string,
      @Param('userId') userId: string,
      @Body() body: UpdateContentPermissionDto,
    ): Promise<void> {
      return this.permissions.update(actor, { kind, id }, { kind: 'user', id: userId }, body.role);
    }

    @WriteTransaction()
    @Delete('users/:userId')
    @ApiDeleteOperation(`removeUserFrom${Kind}`, `Take back the role granted to a member (admin of the ${kind})`, 'The user permission')
    async deleteUser(
      @CurrentActor() actor: Actor,
      @Param(param) id: string,
      @Param('userId') userId: string,
      @Res({ passthrough: true }) res: Response,
    ): Promise<void> {
      setDeleteStatus(res, await this.permissions.remove(actor, { kind, id }, { kind: 'user', id: userId }));
    }

    @Get('teams')
    @ApiOperation({ operationId: `listTeamPermissionsIn${Kind}`, summary: `The teams granted a role on the ${kind}` })
    @ApiOkResponse({ type: ListOf(TeamContentPermissionDto) })
    async teams(@CurrentActor() actor: Actor, @Param(param) id: string, @Query() q: ListQueryDto) {
      const page = await this.permissions.listTeams(actor, { kind, id }, q.toPageRequest());
      return listEnvelope(page, (p): TeamContentPermissionDto => ({
        permission: p.permission,
        team: toTeamDto(p.team, { admin: page.teamAdmin, view: true }),
      }));
    }

    @WriteTransaction()
    @Patch('teams/:teamId')
    @HttpCode(204)
    @ApiOperation({ operationId: `updateTeamPermissionIn${Kind}`, summary: `Change the role granted to a team (admin of the ${kind})` })
    @ApiNoContentResponse({ description: 'Team permission was updated' })
    patchTeam(
      @CurrentActor() actor: Actor,
      @Param(param) id: string,
      @Param('teamId') teamId: string,
      @Body() body: UpdateContentPermissionDto,
    ): Promise<void> {
      return this.permissions.update(actor, { kind, id }, { kind: 'team', id: teamId }, body.role);
    }

    @WriteTransaction()
    @Delete('teams/:teamId')
    @ApiDeleteOperation(`removeTeamFrom${Kind}`, `Take back the role granted to a team (admin of the ${kind})`, 'The team permission')
    async deleteTeam(
      @CurrentActor() actor: Actor,
      @Param(param) id: string,
      @Param('teamId') teamId: string,
      @Res({ passthrough: true }) res: Response,
    ): Promise<void> {
      setDeleteStatus(res, await this.permissions.remove(actor, { kind, id }, { kind: 'team', id: teamId }));
    }
  }
  return PermissionsController;
}

export const SpacePermissionsController = permissionsController('space');
export const CollectionPermissionsController = permissionsController('collection');
