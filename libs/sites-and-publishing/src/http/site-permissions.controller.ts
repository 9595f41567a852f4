import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, NotFoundError } from '@app/shared-kernel';
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
import { ContentPermissionsService, ContentRef } from '@app/spaces-and-content';
import { SitesService } from '../application/sites.service';
import { toTeamDto, toUserDto, InviteUsersAndTeamsDto, UpdateContentPermissionDto } from '@app/wire';
import {
  SiteAggregateQueryDto,
  UserSitePermissionDto,
  UserSitePermissionOverrideDto,
  TeamSitePermissionOverrideDto,
} from './site-permission.dto';

/**
 * Who is granted what on a site (official inviteToSite and the site permission operations). A grant
 * widens the member's organization role on that site only; the site's admins (organization admins, or
 * members granted `admin` on it) manage them.
 */
@ApiTags('sites')
@ApiStandardErrors()
@Controller('orgs/:organizationId/sites/:siteId/permissions')
export class SitePermissionsController {
  constructor(
    private readonly permissions: ContentPermissionsService,
    private readonly sites: SitesService,
  ) {}

  /** The site, in this organization (404 otherwise, and for non-members). */
  private async site(actor: Actor, organizationId: string, siteId: string): Promise<ContentRef> {
    await this.sites.get(actor, organizationId, siteId);
    return { kind: 'site', id: siteId, organizationId };
  }

  @WriteTransaction()
  @Post()
  @HttpCode(204)
  @ApiOperation({ operationId: 'inviteToSite', summary: 'Grant a role on the site to members and teams (admin of the site)' })
  @ApiNoContentResponse({ description: 'OK' })
  async invite(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Body() body: InviteUsersAndTeamsDto,
  ): Promise<void> {
    await this.permissions.invite(actor, await this.site(actor, organizationId, siteId), body);
  }

  @Get('aggregate')
  @ApiOperation({
    operationId: 'listPermissionsAggregateInSite',
    summary: 'Everyone who can access the site, with their effective role and where it comes from',
  })
  @ApiOkResponse({ type: ListOf(UserSitePermissionDto) })
  async aggregate(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: SiteAggregateQueryDto,
    @RequestLinks() links: Links,
  ) {
    const content = await this.site(actor, organizationId, siteId);
    const page =
      q.role === 'guest'
        ? { items: [], count: 0 }
        : await this.permissions.aggregate(
            actor,
            content,
            { role: q.role, team: q.team, search: q.search, order: q.order },
            q.toPageRequest(),
          );
    return listEnvelope(page, (p): UserSitePermissionDto => ({
      permission: p.permission,
      user: toUserDto(p.user, links),
      origin: p.via
        ? {
            type: 'site',
            site: siteId,
            reason: p.via.kind === 'user' ? 'member' : 'team',
            ...(p.via.kind === 'team' ? { team: p.via.id } : {}),
          }
        : { type: 'organization', organization: organizationId },
      disabled: false,
    }));
  }

  @Get('users')
  @ApiOperation({ operationId: 'listUserPermissionsInSite', summary: 'The members granted a role on the site' })
  @ApiOkResponse({ type: ListOf(UserSitePermissionOverrideDto) })
  async users(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.permissions.listUsers(actor, await this.site(actor, organizationId, siteId), q.toPageRequest());
    return listEnvelope(page, (p): UserSitePermissionOverrideDto => ({ permission: p.permission, user: toUserDto(p.user, links) }));
  }

  @WriteTransaction()
  @Patch('users/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateUserPermissionInSite', summary: 'Change the role granted to a member (admin of the site)' })
  @ApiNoContentResponse({ description: 'User permission was updated' })
  async patchUser(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('userId') userId: string,
    @Body() body: UpdateContentPermissionDto,
  ): Promise<void> {
    await this.permissions.update(actor, await this.site(actor, organizationId, siteId), { kind: 'user', id: userId }, body.role);
  }

  @WriteTransaction()
  @Delete('users/:userId')
  @ApiDeleteOperation('removeUserFromSite', 'Take back the role granted to a member (admin of the site)', 'The user permission')
  async deleteUser(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.remove(actor, organizationId, siteId, { kind: 'user', id: userId }));
  }

  @Get('teams')
  @ApiOperation({ operationId: 'listTeamPermissionsInSite', summary: 'The teams granted a role on the site' })
  @ApiOkResponse({ type: ListOf(TeamSitePermissionOverrideDto) })
  async teams(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() q: ListQueryDto,
  ) {
    const page = await this.permissions.listTeams(actor, await this.site(actor, organizationId, siteId), q.toPageRequest());
    return listEnvelope(page, (p): TeamSitePermissionOverrideDto => ({
      permission: p.permission,
      team: toTeamDto(p.team, { admin: page.teamAdmin, view: true }),
    }));
  }

  @WriteTransaction()
  @Patch('teams/:teamId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'updateTeamPermissionInSite', summary: 'Change the role granted to a team (admin of the site)' })
  @ApiNoContentResponse({ description: 'Team permission was updated' })
  async patchTeam(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateContentPermissionDto,
  ): Promise<void> {
    await this.permissions.update(actor, await this.site(actor, organizationId, siteId), { kind: 'team', id: teamId }, body.role);
  }

  @WriteTransaction()
  @Delete('teams/:teamId')
  @ApiDeleteOperation('removeTeamFromSite', 'Take back the role granted to a team (admin of the site)', 'The team permission')
  async deleteTeam(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('teamId') teamId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.remove(actor, organizationId, siteId, { kind: 'team', id: teamId }));
  }

  /** Non-members and sites of other organizations: 204, as if absent. */
  private async remove(
    actor: Actor,
    organizationId: string,
    siteId: string,
    principal: { kind: 'user' | 'team'; id: string },
  ): Promise<'deleted' | 'absent'> {
    let content: ContentRef;
    try {
      content = await this.site(actor, organizationId, siteId);
    } catch (e) {
      if (e instanceof NotFoundError) return 'absent';
      throw e;
    }
    return this.permissions.remove(actor, content, principal);
  }
}
