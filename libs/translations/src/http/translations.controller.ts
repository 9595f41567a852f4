import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor } from '@app/shared-kernel';
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
import { translationPermissions, TranslationsService, TranslationView } from '../application/translations.service';
import { CreateTranslationDto, UpdateTranslationDto, TranslationDto } from './translation.dto';

// ---------------------------------------------------------------------------------------------
// Requests

// ---------------------------------------------------------------------------------------------
// Responses

export function toTranslationDto({ translation: t, role }: TranslationView, links: Links): TranslationDto {
  const dto: TranslationDto = {
    object: 'translation',
    id: t.id,
    status: t.status,
    source: { space: t.sourceSpaceId, language: t.sourceLanguage },
    language: t.language,
    instructions: t.instructions,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    stats: { ...t.stats },
    permissions: translationPermissions(role),
    urls: { location: links.api(`/orgs/${t.organizationId}/translations/${t.id}`) },
  };
  if (t.targetSpaceId && t.resultRevision) dto.result = { space: t.targetSpaceId, revision: t.resultRevision, language: t.language };
  if (t.latestRun)
    dto.latestRun = {
      status: t.latestRun.status,
      startedAt: t.latestRun.startedAt.toISOString(),
      finishedAt: t.latestRun.finishedAt.toISOString(),
      translator: t.latestRun.translator,
      error: t.latestRun.error,
    };
  return dto;
}

// ---------------------------------------------------------------------------------------------

/** Translations of spaces (spec part 1 §4.8). */
@ApiTags('translations')
@ApiStandardErrors()
@Controller('orgs/:organizationId/translations')
export class TranslationsController {
  constructor(private readonly translations: TranslationsService) {}

  @Get()
  @ApiOperation({ operationId: 'listTranslations', summary: 'List the translations of the organization, oldest first' })
  @ApiOkResponse({ type: ListOf(TranslationDto) })
  async list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Query() q: ListQueryDto,
    @RequestLinks() links: Links,
  ) {
    return listEnvelope(await this.translations.list(actor, organizationId, q.toPageRequest()), (v) => toTranslationDto(v, links));
  }

  @WriteTransaction()
  @Post()
  @ApiOperation({
    operationId: 'createTranslation',
    summary: 'Translate a space into another language (role create); its first run starts in the background',
  })
  @ApiCreatedResponse({ type: TranslationDto, description: 'Translation has been created' })
  async create(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Body() body: CreateTranslationDto,
    @RequestLinks() links: Links,
  ): Promise<TranslationDto> {
    return toTranslationDto(await this.translations.create(actor, organizationId, body), links);
  }

  @Get(':translationId')
  @ApiOperation({ operationId: 'getTranslation', summary: 'A translation with its status, result and statistics' })
  @ApiOkResponse({ type: TranslationDto })
  async get(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationId') translationId: string,
    @RequestLinks() links: Links,
  ): Promise<TranslationDto> {
    return toTranslationDto(await this.translations.get(actor, organizationId, translationId), links);
  }

  @WriteTransaction()
  @Put(':translationId')
  @ApiOperation({ operationId: 'updateTranslation', summary: 'Set the instructions of a translation (role create)' })
  @ApiOkResponse({ type: TranslationDto, description: 'Translation has been updated' })
  async update(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationId') translationId: string,
    @Body() body: UpdateTranslationDto,
    @RequestLinks() links: Links,
  ): Promise<TranslationDto> {
    return toTranslationDto(await this.translations.updateInstructions(actor, organizationId, translationId, body.instructions), links);
  }

  @WriteTransaction()
  @Delete(':translationId')
  @ApiDeleteOperation('deleteTranslation', 'Delete a translation (role create); its target space stays', 'Translation')
  async delete(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationId') translationId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    setDeleteStatus(res, await this.translations.delete(actor, organizationId, translationId));
  }

  @WriteTransaction()
  @Post(':translationId/run')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'runTranslation',
    summary:
      'Run the translation again (role create): pages changed since the latest completed run (every page, when the pair’s glossary terms changed) are translated in the background',
  })
  @ApiNoContentResponse({ description: 'Translation run triggered' })
  async run(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('translationId') translationId: string,
  ): Promise<void> {
    await this.translations.requestRun(actor, organizationId, translationId);
  }
}
