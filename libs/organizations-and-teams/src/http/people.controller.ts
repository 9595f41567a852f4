import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
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
  WriteTransaction,
} from '@app/http-kit';
import { InvitesService } from '../application/invites.service';
import { EmailInvitationsService } from '../application/email-invitations.service';
import { MembersService } from '../application/members.service';
import { TeamsService } from '../application/teams.service';
import {
  CreateInviteDto,
  CreateTeamDto,
  InviteDto,
  ListMembersQueryDto,
  ListTeamsQueryDto,
  MemberDto,
  MemberTeamItemDto,
  PutTeamMemberDto,
  TeamMemberItemDto,
  TeamMemberRoleDto,
  TitleQueryDto,
  toInviteDto,
  toMemberDto,
  toTeamMemberItem,
  UpdateInviteDto,
  UpdateMemberDto,
  UpdateTeamDto,
  UpdateTeamMembersDto,
  InviteUsersDto,
  InvitedUsersDto,
} from './people.dto';
import { TeamDto, toTeamDto } from '@app/wire';

@ApiTags('organization-members')
@ApiStandardErrors()
@Controller('orgs/:organizationId')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get('members')
  @ApiOperation({ operationId: 'listMembersInOrganizationById', summary: 'List the members of an organization' })
  @ApiOkResponse({ type: ListOf(MemberDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Query() q: ListMembersQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.members.list(
      actor,
      org,
      { role: q.role, search: q.search },
      q.sort ?? 'joinedAt',
      q.order ?? 'desc',
      q.toPageRequest(),
    );
    return listEnvelope(page, (v) => toMemberDto(v, links));
  }

  @Get('members/:userId')
  @ApiOperation({ operationId: 'getMemberInOrganizationById', summary: 'Get a member of an organization' })
  @ApiOkResponse({ type: MemberDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('userId') userId: string,
    @RequestLinks() links: Links,
  ) {
    return toMemberDto(await this.members.get(actor, org, userId), links);
  }

  @WriteTransaction()
  @Patch('members/:userId')
  @ApiOperation({
    operationId: 'updateMemberInOrganizationById',
    summary: "Change a member's role (admins); the last admin cannot be demoted (409)",
  })
  @ApiOkResponse({ type: MemberDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'The organization would have no admin left' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('userId') userId: string,
    @Body() body: UpdateMemberDto,
    @RequestLinks() links: Links,
  ) {
    return toMemberDto(await this.members.updateRole(actor, org, userId, body.role), links);
  }

  @WriteTransaction()
  @Delete('members/:userId')
  @ApiDeleteOperation(
    'removeMemberFromOrganizationById',
    'Remove a member (admins; anyone can remove themselves); the last admin cannot be removed (409)',
    'The member',
  )
  @ApiConflictResponse({ type: ErrorDto, description: 'The organization would have no admin left' })
  async remove(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    setDeleteStatus(res, await this.members.remove(actor, org, userId));
  }

  @WriteTransaction()
  @Post('members/:userId/sso')
  @HttpCode(200)
  @ApiOperation({ operationId: 'setUserAsSSOMemberForOrganization', summary: 'Let a member sign in through SSO (admins)' })
  @ApiOkResponse({ type: MemberDto })
  async markSso(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('userId') userId: string,
    @RequestLinks() links: Links,
  ) {
    return toMemberDto(await this.members.markSso(actor, org, userId), links);
  }

  @Get('members/:userId/teams')
  @ApiTags('teams')
  @ApiOperation({ operationId: 'listTeamsForOrganizationMember', summary: 'List the teams of a member' })
  @ApiOkResponse({ type: ListOf(MemberTeamItemDto) })
  async teams(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('userId') userId: string,
    @Query() q: TitleQueryDto,
  ) {
    const page = await this.members.teamsOf(actor, org, userId, q.title, q.toPageRequest());
    return listEnvelope(page, (t) => ({ team: toTeamDto(t.team, { admin: false, view: true }), member: { role: t.role } }));
  }

  @WriteTransaction()
  @Post('join')
  @HttpCode(204)
  @ApiOperation({ operationId: 'joinOrganization', summary: "Join an organization whose emailDomains include the caller's email domain" })
  @ApiNoContentResponse({ description: 'Joined (or already a member)' })
  async join(@CurrentActor() actor: Actor, @Param('organizationId') org: string): Promise<void> {
    await this.members.join(actor, org);
  }
}

@ApiTags('teams')
@ApiStandardErrors()
@ApiExtraModels(TeamMemberRoleDto)
@Controller('orgs/:organizationId/teams')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Get()
  @ApiOperation({ operationId: 'listTeamsInOrganizationById', summary: 'List the teams of an organization' })
  @ApiOkResponse({ type: ListOf(TeamDto) })
  async list(@CurrentActor() actor: Actor, @Param('organizationId') org: string, @Query() q: ListTeamsQueryDto) {
    const page = await this.teams.list(actor, org, { owner: q.owner, title: q.title }, q.toPageRequest());
    return listEnvelope(page, (t) => toTeamDto(t.view, t.permissions));
  }

  @WriteTransaction()
  @Put()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createOrganizationTeam', summary: 'Create a team (admins)' })
  @ApiCreatedResponse({ type: TeamDto })
  async create(@CurrentActor() actor: Actor, @Param('organizationId') org: string, @Body() body: CreateTeamDto) {
    const t = await this.teams.create(actor, org, body);
    return toTeamDto(t.view, t.permissions);
  }

  @Get(':teamId')
  @ApiOperation({ operationId: 'getTeamInOrganizationById', summary: 'Get a team' })
  @ApiOkResponse({ type: TeamDto })
  async get(@CurrentActor() actor: Actor, @Param('organizationId') org: string, @Param('teamId') teamId: string) {
    const t = await this.teams.get(actor, org, teamId);
    return toTeamDto(t.view, t.permissions);
  }

  @WriteTransaction()
  @Patch(':teamId')
  @ApiOperation({ operationId: 'updateTeamInOrganizationById', summary: 'Rename a team (admins and team owners)' })
  @ApiOkResponse({ type: TeamDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateTeamDto,
  ) {
    const t = await this.teams.rename(actor, org, teamId, body.title);
    return toTeamDto(t.view, t.permissions);
  }

  @WriteTransaction()
  @Delete(':teamId')
  @ApiDeleteOperation('removeTeamFromOrganizationById', 'Delete a team (admins and team owners)', 'The team')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('teamId') teamId: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    setDeleteStatus(res, await this.teams.delete(actor, org, teamId));
  }

  @Get(':teamId/members')
  @ApiOperation({ operationId: 'listTeamMembersInOrganizationById', summary: 'List the members of a team' })
  @ApiOkResponse({ type: ListOf(TeamMemberItemDto) })
  async members(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('teamId') teamId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    const page = await this.teams.listMembers(actor, org, teamId, q.toPageRequest());
    return listEnvelope(page, (m) => toTeamMemberItem(m, links));
  }

  @WriteTransaction()
  @Put(':teamId/members')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'updateMembersInOrganizationTeam',
    summary: 'Add, remove and set roles of team members in one atomic change',
  })
  @ApiBody({ type: UpdateTeamMembersDto })
  @ApiNoContentResponse({ description: 'Members have been updated' })
  async updateMembers(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('teamId') teamId: string,
    @Body() body: UpdateTeamMembersDto,
  ): Promise<void> {
    await this.teams.updateMembers(actor, org, teamId, body);
  }

  @WriteTransaction()
  @Put(':teamId/members/:userId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'addMemberToOrganizationTeamById', summary: 'Add a member to a team or change their team role' })
  @ApiNoContentResponse({ description: 'Member has been added to the team' })
  async putMember(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('teamId') teamId: string,
    @Param('userId') userId: string,
    @Body() body: PutTeamMemberDto,
  ): Promise<void> {
    await this.teams.putMember(actor, org, teamId, userId, body.role);
  }

  @WriteTransaction()
  @Delete(':teamId/members/:userId')
  @ApiDeleteOperation('deleteMemberFromOrganizationTeamById', 'Remove a member from a team', 'Member of the team')
  async deleteMember(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('teamId') teamId: string,
    @Param('userId') userId: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    setDeleteStatus(res, await this.teams.deleteMember(actor, org, teamId, userId));
  }
}

@ApiTags('organization-invites')
@ApiStandardErrors()
@Controller('orgs/:organizationId')
export class InvitesController {
  constructor(
    private readonly invites: InvitesService,
    private readonly emailInvitations: EmailInvitationsService,
  ) {}

  @WriteTransaction()
  @Post('invites')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'inviteUsersToOrganization',
    summary: 'Invite people by email (admins; needs an SMTP server: QUIRE_SMTP_URL)',
    description:
      'Each address becomes a member at once (a user is made for an address Quire does not know; a role is raised, never ' +
      'lowered) and each person added or raised gets an email with the link they follow: a one-time sign-in link (7 days) ' +
      'for someone with no other way in, else the organization in the web app. Without an SMTP server: 400, nothing written.',
  })
  @ApiOkResponse({ type: InvitedUsersDto })
  async inviteByEmail(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Body() body: InviteUsersDto,
  ): Promise<InvitedUsersDto> {
    return this.emailInvitations.invite(actor, org, body);
  }

  @Get('link-invites')
  @ApiOperation({ operationId: 'listOrganizationInviteLinks', summary: 'List invite links (admins)' })
  @ApiOkResponse({ type: ListOf(InviteDto) })
  async list(@CurrentActor() actor: Actor, @Param('organizationId') org: string, @Query() q: ListQueryDto) {
    const page = await this.invites.list(actor, org, q.toPageRequest());
    // The caller is an admin: every invite's role is within theirs.
    return listEnvelope(page, (i) => toInviteDto(i, true));
  }

  @WriteTransaction()
  @Post('link-invites')
  @ApiOperation({ operationId: 'createOrganizationInvite', summary: 'Create an invite link (admins; needs inviteLinks)' })
  @ApiCreatedResponse({ type: InviteDto })
  async create(@CurrentActor() actor: Actor, @Param('organizationId') org: string, @Body() body: CreateInviteDto) {
    const invite = await this.invites.create(actor, org, body.role);
    return toInviteDto(invite, await this.invites.redundantFor(actor, invite));
  }

  @Get('link-invites/:inviteId')
  @ApiOperation({ operationId: 'getOrganizationInviteLink', summary: 'Get an invite link (admins)' })
  @ApiOkResponse({ type: InviteDto })
  async get(@CurrentActor() actor: Actor, @Param('organizationId') org: string, @Param('inviteId') id: string) {
    const invite = await this.invites.get(actor, org, id);
    return toInviteDto(invite, await this.invites.redundantFor(actor, invite));
  }

  @WriteTransaction()
  @Patch('link-invites/:inviteId')
  @ApiOperation({ operationId: 'updateOrganizationInviteById', summary: 'Change the role of an invite link (admins)' })
  @ApiOkResponse({ type: InviteDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('inviteId') id: string,
    @Body() body: UpdateInviteDto,
  ) {
    const invite = await this.invites.updateRole(actor, org, id, body.role);
    return toInviteDto(invite, await this.invites.redundantFor(actor, invite));
  }

  @WriteTransaction()
  @Delete('link-invites/:inviteId')
  @ApiDeleteOperation('deleteOrganizationInviteById', 'Delete an invite link (admins)', 'The invite')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') org: string,
    @Param('inviteId') id: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    setDeleteStatus(res, await this.invites.delete(actor, org, id));
  }

  @WriteTransaction()
  @Post('invites/:inviteId')
  @HttpCode(200)
  @ApiOperation({ operationId: 'joinOrganizationWithInvite', summary: 'Join an organization with an invite link' })
  @ApiOkResponse({ description: 'Joined', schema: { type: 'object', properties: {} } })
  async join(@CurrentActor() actor: Actor, @Param('organizationId') org: string, @Param('inviteId') id: string) {
    await this.invites.join(actor, org, id);
    return {};
  }
}
