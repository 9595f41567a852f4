import { Body, Controller, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
import { ApiStandardErrors, CurrentActor, Links, listEnvelope, ListOf, RequestLinks, WriteTransaction } from '@app/http-kit';
import { GlossaryService } from '../application/glossary.service';
import type { GlossaryEntry, GlossaryOperation } from '../domain/glossary';
import { GlossaryEntryDto, ListGlossaryQueryDto, UpdateGlossaryDto } from './glossary.dto';

function toEntryDto(e: GlossaryEntry, links: Links): GlossaryEntryDto {
  return {
    object: 'glossary-entry',
    id: e.id,
    translations: { ...e.translations },
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    urls: { location: links.api(`/orgs/${e.organizationId}/translations-glossary/${e.id}`) },
  };
}

/**
 * The translation glossary of an organization (official glossary operations): terms that every translation run
 * renders as the glossary says, whatever translator serves the pair (docs/translations.md).
 */
@ApiTags('glossary')
@ApiStandardErrors()
@Controller('orgs/:organizationId/translations-glossary')
export class GlossaryController {
  constructor(private readonly glossary: GlossaryService) {}

  @Get()
  @ApiOperation({
    operationId: 'listGlossaryEntries',
    summary: 'List the glossary entries of the organization (in creation order, or by the term of `orderBy`’s language)',
  })
  @ApiOkResponse({ type: ListOf(GlossaryEntryDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListGlossaryQueryDto,
    @RequestLinks() links: Links,
  ) {
    return listEnvelope(await this.glossary.list(actor, organizationId, q.orderBy, q.toPageRequest()), (e) => toEntryDto(e, links));
  }

  @WriteTransaction()
  @Put()
  @HttpCode(204)
  @ApiOperation({
    operationId: 'updateGlossaryEntries',
    summary: 'Insert, update and delete glossary entries in one batch (role create): all of it or nothing',
    description:
      'Operations apply in order. An update replaces the entry’s terms; an update of an entry that is not there is a 400 and ' +
      'nothing is written; a delete of one that is not there does nothing. A term of one language (case aside) names one ' +
      'entry only. At most 500 operations, 2,000 entries.',
  })
  @ApiNoContentResponse({ description: 'Glossary entries updated' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: UpdateGlossaryDto,
  ): Promise<void> {
    await this.glossary.update(actor, organizationId, body.operations as GlossaryOperation[]);
  }

  @Get(':glossaryEntryId')
  @ApiOperation({ operationId: 'getGlossaryEntry', summary: 'A glossary entry' })
  @ApiOkResponse({ type: GlossaryEntryDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('glossaryEntryId') id: string,
    @RequestLinks() links: Links,
  ): Promise<GlossaryEntryDto> {
    return toEntryDto(await this.glossary.get(actor, organizationId, id), links);
  }
}
