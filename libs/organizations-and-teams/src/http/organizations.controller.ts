import { Body, Controller, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor, InvalidInputError } from '@app/shared-kernel';
import {
  ApiStandardErrors,
  CurrentActor,
  ErrorDto,
  ListOf,
  listEnvelope,
  ListQueryDto,
  Links,
  RequestLinks,
  WriteTransaction,
} from '@app/http-kit';
import { IdentityService } from '../application/identity.service';
import { OrganizationsService } from '../application/organizations.service';
import {
  CreateOrganizationDto,
  CreateOrganizationQueryDto,
  OrganizationsForEmailDomainDto,
  UpdateOrganizationDto,
  UpdateUserDto,
} from './organization.dto';
import { OrganizationDto, toOrganizationDto, toUserDto, UserDto } from '@app/wire';

@ApiTags('organizations')
@ApiStandardErrors()
@Controller('orgs')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @ApiOperation({ operationId: 'listOrganizationsForAuthenticatedUser', summary: 'List the organizations of the authenticated user' })
  @ApiOkResponse({ type: ListOf(OrganizationDto) })
  async list(@CurrentActor() actor: Actor, @Query() query: ListQueryDto, @RequestLinks() links: Links) {
    const page = await this.organizations.listForUser(actor, query.toPageRequest());
    return listEnvelope(page, (m) => toOrganizationDto(m.organization, m.role, links, m.ownTeam));
  }

  @WriteTransaction()
  @Post()
  @ApiOperation({ operationId: 'createOrganization', summary: 'Create an organization; the caller becomes its admin' })
  @ApiCreatedResponse({ type: OrganizationDto })
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreateOrganizationDto,
    @Query() q: CreateOrganizationQueryDto,
    @RequestLinks() links: Links,
    @Res({ passthrough: true }) res: Response,
  ) {
    if (q.withDefaultSite)
      throw new InvalidInputError(
        'withDefaultSite: Quire does not create a site with the organization; create it with POST /orgs/{organizationId}/sites (nothing was created)',
      );
    const view = await this.organizations.create(actor, body);
    const dto = toOrganizationDto(view.organization, view.role, links, view.ownTeam);
    res.location(dto.urls.location);
    return dto;
  }

  @Get(':organizationId')
  @ApiOperation({ operationId: 'getOrganizationById', summary: 'Get an organization' })
  @ApiOkResponse({ type: OrganizationDto })
  async get(@CurrentActor() actor: Actor, @Param('organizationId') id: string, @RequestLinks() links: Links) {
    const view = await this.organizations.get(actor, id);
    return toOrganizationDto(view.organization, view.role, links, view.ownTeam);
  }

  @WriteTransaction()
  @Patch(':organizationId')
  @ApiOperation({ operationId: 'updateOrganizationById', summary: 'Update an organization (admins)' })
  @ApiOkResponse({ type: OrganizationDto })
  @ApiConflictResponse({ type: ErrorDto, description: 'The hostname is used by another organization' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') id: string,
    @Body() body: UpdateOrganizationDto,
    @RequestLinks() links: Links,
  ) {
    const view = await this.organizations.update(actor, id, body);
    return toOrganizationDto(view.organization, view.role, links, view.ownTeam);
  }
}

@ApiTags('users')
@ApiStandardErrors()
@Controller()
export class UserController {
  constructor(private readonly identity: IdentityService) {}

  @Get('user')
  @ApiOperation({ operationId: 'getAuthenticatedUser', summary: 'Get the authenticated user' })
  @ApiOkResponse({ type: UserDto })
  async me(@CurrentActor() actor: Actor, @RequestLinks() links: Links) {
    return toUserDto(await this.identity.getUser(actor.userId), links);
  }

  @Get('users/:userId')
  @ApiOperation({ operationId: 'getUserById', summary: 'Get a user: yourself, or someone who shares an organization with you' })
  @ApiOkResponse({ type: UserDto })
  async byId(@CurrentActor() actor: Actor, @Param('userId') userId: string, @RequestLinks() links: Links) {
    return toUserDto(await this.identity.getVisibleUser(actor, userId), links);
  }

  @WriteTransaction()
  @Patch('users/:userId')
  @ApiOperation({
    operationId: 'updateUserById',
    summary: 'Change your own display name or photo (another user you share an organization with: 403)',
  })
  @ApiOkResponse({ type: UserDto })
  async update(@CurrentActor() actor: Actor, @Param('userId') userId: string, @Body() body: UpdateUserDto, @RequestLinks() links: Links) {
    if (body.displayName === undefined && body.photoURL === undefined)
      throw new InvalidInputError('Give displayName or photoURL (nothing was changed)');
    return toUserDto(await this.identity.updateUser(actor, userId, body), links);
  }
}

@ApiTags('organizations')
@ApiStandardErrors()
@Controller('email-domains')
export class EmailDomainsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get(':emailDomain/orgs')
  @ApiOperation({
    operationId: 'getOrganizationsForEmailDomain',
    summary: 'The organizations your own email domain lets you join (and those of it you are in): another domain is 403',
  })
  @ApiOkResponse({ type: OrganizationsForEmailDomainDto })
  async forEmailDomain(
    @CurrentActor() actor: Actor,
    @Param('emailDomain') emailDomain: string,
    @RequestLinks() links: Links,
  ): Promise<OrganizationsForEmailDomainDto> {
    const views = await this.organizations.forEmailDomain(actor, emailDomain);
    return { organizations: views.map((v) => toOrganizationDto(v.organization, v.role, links, v.ownTeam)) };
  }
}
