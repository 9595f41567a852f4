import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentActor, listEnvelope, ListOf, WriteTransaction } from '@app/http-kit';
import { Actor, Clock, DAY_MS } from '@app/shared-kernel';
import { IdentityService } from '../application/identity.service';
import { SessionsService } from '../application/sessions.service';
import { ApiTokenDto, CreateApiTokenDto, CreatedApiTokenDto, toApiTokenDto } from './api-tokens.dto';

/**
 * The caller's personal API tokens (Quire extensions, #50): what `npm run cli -- token:*` does, for the web
 * app's token page. A token is shown once, when it is made; only its hash is kept.
 */
@ApiTags('api-tokens')
@ApiStandardErrors()
@Controller('user/tokens')
export class ApiTokensController {
  constructor(
    private readonly identity: IdentityService,
    private readonly sessions: SessionsService,
    private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listApiTokens', summary: "Quire extension: the caller's API tokens (revoked ones too)" })
  @ApiOkResponse({ type: ListOf(ApiTokenDto) })
  async list(@CurrentActor() actor: Actor) {
    const tokens = await this.identity.listTokens(actor.userId);
    return listEnvelope({ items: tokens, count: tokens.length }, toApiTokenDto);
  }

  @WriteTransaction()
  @Post()
  @ApiOperation({ operationId: 'createApiToken', summary: 'Quire extension: a new API token of the caller (shown once)' })
  @ApiCreatedResponse({ type: CreatedApiTokenDto })
  async create(@CurrentActor() actor: Actor, @Body() body: CreateApiTokenDto): Promise<CreatedApiTokenDto> {
    this.sessions.refuseScoped(actor, 'Making a token');
    const expiresAt = body.expiresInDays ? new Date(this.clock.now().getTime() + body.expiresInDays * DAY_MS) : null;
    const { token, record } = await this.identity.issueToken(actor.userId, { label: body.label, expiresAt });
    return { ...toApiTokenDto(record), token };
  }

  @WriteTransaction()
  @Delete(':tokenId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeApiToken', summary: "Quire extension: revoke one of the caller's API tokens" })
  @ApiNoContentResponse()
  async revoke(@CurrentActor() actor: Actor, @Param('tokenId') tokenId: string): Promise<void> {
    await this.identity.revokeOwnToken(actor.userId, tokenId);
  }
}
