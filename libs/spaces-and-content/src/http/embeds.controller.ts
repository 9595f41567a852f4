import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor } from '@app/http-kit';
import { EmbedsService } from '../application/embeds.service';
import { EmbedDto, EmbedQueryDto } from './embeds.dto';

@ApiStandardErrors()
@Controller()
export class EmbedsController {
  constructor(private readonly embeds: EmbedsService) {}

  @Get('urls/embed')
  @ApiTags('urls')
  @ApiOperation({
    operationId: 'getEmbedByUrl',
    summary: 'Resolve a URL to an embed',
    description:
      'What a public URL shows: its oEmbed answer, else its Open Graph tags and title; fetched through the outbound client ' +
      '(no private or loopback address: 400), cached an hour. A URL that fails is a plain link. Each caller may have 30 new URLs ' +
      'fetched a minute (QUIRE_EMBED_FETCHES_PER_MINUTE; 429 beyond).',
  })
  @ApiOkResponse({ type: EmbedDto })
  embed(@CurrentActor() actor: Actor, @Query() q: EmbedQueryDto): Promise<EmbedDto> {
    return this.embeds.embed(actor, q.url);
  }

  @Get('spaces/:spaceId/embed')
  @ApiTags('spaces')
  @ApiOperation({ operationId: 'getEmbedByUrlInSpace', summary: 'Resolve a URL to an embed in a given space' })
  @ApiOkResponse({ type: EmbedDto })
  embedInSpace(@CurrentActor() actor: Actor, @Param('spaceId') spaceId: string, @Query() q: EmbedQueryDto): Promise<EmbedDto> {
    return this.embeds.inSpace(actor, spaceId, q.url);
  }
}
